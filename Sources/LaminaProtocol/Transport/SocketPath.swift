import Foundation

/// Where the render server's socket lives, the same rule for laminad, laminactl and `CAContext`.
public enum SocketPath {
    /// `$LAMINA_SOCKET`, else `$XDG_RUNTIME_DIR/lamina/socket`, else `/run/lamina/socket`.
    public static func `default`(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["LAMINA_SOCKET"], !explicit.isEmpty { return explicit }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/lamina/socket" }
        return "/run/lamina/socket"
    }
}
