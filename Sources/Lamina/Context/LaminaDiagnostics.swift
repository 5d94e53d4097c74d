import Foundation

/// The one place the client library sends its diagnostics (a Linux addition).
///
/// Every problem Lamina reports instead of failing goes to `handler` as a `LaminaDiagnostic`. The
/// default handler, `standardError`, writes each diagnostic as one line to standard error.
/// Applications and tests install their own to log elsewhere or to collect diagnostics.
///
/// Threading: `handler` may be read and set from any thread. A handler runs synchronously on the
/// thread that found the problem: the application's thread for refused values, animations and
/// hierarchy changes and for unsent commits (possibly with `CATransaction`'s lock held), and the
/// connection's `lamina-events` reader thread for server errors (with no Lamina lock held). It
/// must return promptly and must not wait on another thread that takes `CATransaction.lock()`.
public enum LaminaDiagnostics {
    /// A function that receives diagnostics.
    public typealias Handler = @Sendable (LaminaDiagnostic) -> Void

    /// The handler in force, guarded by its own lock (never held while a handler runs).
    private final class Slot: @unchecked Sendable {
        let lock = NSLock()
        var handler: Handler = LaminaDiagnostics.standardError
    }
    private static let slot = Slot()

    /// The handler that receives every diagnostic from now on; `standardError` by default.
    /// Set it back to `standardError` to restore the default.
    public static var handler: Handler {
        get { slot.lock.withLock { slot.handler } }
        set { slot.lock.withLock { slot.handler = newValue } }
    }

    /// The default handler: writes `Lamina: <message>` and a newline to standard error in a single
    /// `write`, so lines from several threads do not interleave.
    public static let standardError: Handler = { diagnostic in
        let line = Array("\(diagnostic.description)\n".utf8)
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Sends a diagnostic of `kind` saying `message` to the current handler, on the calling thread.
    static func report(_ kind: LaminaDiagnostic.Kind, _ message: String) {
        let handler = self.handler
        handler(LaminaDiagnostic(kind: kind, message: message))
    }
}
