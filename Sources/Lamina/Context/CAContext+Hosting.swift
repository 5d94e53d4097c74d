import Foundation
import LaminaProtocol

extension CAContext {
    /// Exports this context: returns the token that lets another client show its tree in a
    /// `CALayerHost` (with `contextId`). A Linux addition; Apple hands contexts between processes
    /// by id alone, inside the trust of one render server.
    ///
    /// The server makes the token (64 random bits) at the first call and returns the same one after.
    /// The token and `contextId` survive a server restart: the reconnecting context asks the new
    /// server for both.
    /// From then on the context's tree is shown only in host layers, as Apple's remote contexts are,
    /// no longer directly on its display.
    public func exportToken() throws -> UInt64 {
        CATransaction.flush()
        let id = nextRequestID()
        try connection.send(.requestExportToken(requestID: id))
        let token = try connection.waitForReply { message, _ in
            if case .exportToken(id, let token) = message { return token }
            return nil
        }
        connection.recordExportToken(token)
        return token
    }

    /// The texts of the server's warnings to this context so far, oldest first (each is also
    /// reported as a `serverWarning` diagnostic): host layers whose token does not match. A Linux
    /// addition.
    public var serverWarnings: [String] { connection.warnings }
}
