import Foundation
import LaminaProtocol

/// Why a `CAContext` could not connect or talk to the render server.
public enum CAContextError: Error, CustomStringConvertible, Equatable {
    /// Connecting to the socket failed (no server, refused, bad path).
    case cannotConnect(path: String, reason: String)
    /// The server refused the handshake.
    case handshakeFailed(path: String, reason: String)
    /// The connection was closed; the text says why (a server error names the problem).
    case disconnected(String)
    /// The server did not answer in time.
    case timedOut(path: String)
    /// A capture reply could not be read.
    case badCapture(String)
    /// The context asked for a display the server does not have (`available` lists those it has).
    case unknownDisplay(UInt32, available: [UInt32])

    /// A sentence saying what went wrong, naming the socket path where it matters.
    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason):
            "cannot connect to the Lamina render server at \(path): \(reason)"
        case .handshakeFailed(let path, let reason): "the render server at \(path) refused the handshake: \(reason)"
        case .disconnected(let reason): "disconnected from the render server: \(reason)"
        case .timedOut(let path): "the render server at \(path) did not answer in time"
        case .badCapture(let reason): "bad capture from the render server: \(reason)"
        case .unknownDisplay(let display, let available):
            "the render server has no display \(display); it has \(available.map(String.init).joined(separator: ", "))"
        }
    }
}
