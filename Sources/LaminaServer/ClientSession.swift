import Foundation
import LaminaCore
import LaminaProtocol

/// One connected client: its socket, handshake state, render tree and the transaction being received.
///
/// The session validates everything the client sends. The first error is reported to the client, and
/// the server then disconnects it; past the session, code trusts the tree.
final class ClientSession {
    let id: Int
    let socket: SeqPacketSocket
    /// Who the client is, as the kernel saw it connect (`SO_PEERCRED`); nil if that was unavailable,
    /// which grants nothing beyond the client's own content.
    let peer: PeerCredentials?
    var name = "?"
    var greeted = false
    var tree = RenderTree()
    /// Operations from `transactionPart` messages waiting for their `commit`.
    var pendingOperations: [LayerOperation] = []
    /// The newest serial applied but not yet presented (one value: presentation is in order).
    var unpresentedSerial: UInt64?
    /// The displays that must still present a frame before `unpresentedSerial` counts as presented.
    var awaitingDisplays: Set<UInt32> = []
    /// Whether the client asked for a `frame` event at every refresh (a display link runs).
    var wantsFrames = false

    init(id: Int, socket: SeqPacketSocket, peer: PeerCredentials? = nil) {
        self.id = id
        self.socket = socket
        self.peer = peer
    }

    var label: String { "client \(id) (\(name))" }
}
