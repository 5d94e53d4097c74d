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
    /// The stacking level of the client's trees (`setLevel`): higher levels are drawn above lower
    /// ones, equal levels in connection order.
    var level: Float = 0
    /// The token another client names to show this client's tree in a host layer; made at the first
    /// `requestExportToken` (nil: the tree is not exported).
    var exportToken: UInt64?
    /// The host layers (by layer id) whose problem the client has been warned of, with the context id
    /// and token the warning was about, so each problem is reported once.
    var warnedHosts: [LayerID: HostedContext] = [:]
    var tree = RenderTree()
    /// Operations from `transactionPart` messages waiting for their `commit`, one array per part (so
    /// holding a large transaction never copies what is already held).
    var pendingParts: [[LayerOperation]] = []
    /// Operations in `pendingParts`.
    var pendingOperationCount = 0
    /// The newest serial applied but not yet presented (one value: presentation is in order).
    var unpresentedSerial: UInt64?
    /// The displays that must still present a frame before `unpresentedSerial` counts as presented.
    var awaitingDisplays: Set<UInt32> = []
    /// Whether the client asked for a `frame` event at every refresh (a display link runs).
    var wantsFrames = false
    /// The last `tiledLayerView` sent for each of the client's tiled layers.
    var sentTiledViews: [LayerID: TiledLayerView] = [:]
    /// What the client holds, as the server's `ResourceBudget` charged it.
    var budget = ClientBudget()
    /// The media time the server first saw the connection (set by the loop); `hello` is due within
    /// the handshake timeout of it.
    var connectedAt: Double?
    /// Messages the socket could not take yet, oldest first, sent when it becomes writable.
    var outbox: [OutgoingMessage] = []
    /// Bytes in `outbox`.
    var outboxBytes = 0
    /// The serial of the commit being applied on the commit worker; the client's later messages wait.
    var commitInFlight: UInt64?
    /// What advancing this client's animations at a frame found, while it is being applied a slice
    /// per turn of the loop (`Server.continueAdvancing()`).
    var advancing: RenderTree.Advancement?
    /// Captures of this client being drawn on the frame worker (their replies are not sent yet).
    var capturesDrawing = 0
    /// The client's surface and device-image registrations being imported on the frame worker: its
    /// later messages wait, so a commit naming one is applied knowing whether it was refused.
    var importsInFlight = 0
    /// The error the client is disconnected for, once it failed; sent after the replies to its
    /// captures being drawn.
    var failure: SessionError?
    /// The images the client has uploaded and the server has not freed yet, by the client's id.
    var images: [UInt64: ClientImage] = [:]
    /// Whether some of `images` are released but still drawn (freed once the tree no longer names them).
    var hasReleasedImages = false
    /// The ids of the client's surface and device-image registrations the server refused, oldest
    /// first (at most `Server.refusedSurfacesKept`): what names them is left out of its commits.
    var refusedSurfaces: [UInt64] = []

    init(id: Int, socket: SeqPacketSocket, peer: PeerCredentials? = nil) {
        self.id = id
        self.socket = socket
        self.peer = peer
    }

    var label: String { "client \(id) (\(name))" }

    /// The client's context id (`CAContext.contextId`), given at its `hello` (0 before): never given to
    /// another context while the server runs (`ContextIdAllocator`).
    var contextId: UInt32 = 0

    /// Whether the server reads the client's next messages now. Not while its commit is applied on
    /// the commit worker, its capture is drawn or its surface imported on the frame worker: its later
    /// messages wait, so they are handled, and answered, in order. Nor once it has failed.
    var isReadable: Bool { commitInFlight == nil && capturesDrawing == 0 && importsInFlight == 0 && failure == nil }
}
