import Foundation
import LaminaProtocol

extension CAContext {
    /// What the server holds for each client this context may see (every client when it runs as
    /// the server's user or root, else only itself): name, process id, layers, animations, images
    /// and their texture bytes (what `laminactl stats` prints). A Linux addition.
    public func statistics() throws -> [ClientStatistics] {
        CATransaction.flush()
        let id = nextRequestID()
        try connection.send(.stats(requestID: id))
        return try connection.waitForReply { message, _ in
            if case .statsReply(id, let clients) = message { return clients }
            return nil
        }
    }
}
