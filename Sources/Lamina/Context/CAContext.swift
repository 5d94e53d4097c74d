import Foundation
import LaminaProtocol

/// A connection to the Lamina render server that hosts a layer tree on a display (a Linux addition:
/// Apple platforms have no public equivalent).
///
/// The connection lives as long as the context. Setting `layer` shows that tree on the context's
/// `display` from the next commit on. Thread-safe through `CATransaction.lock()`.
///
/// A crash loses nothing: when the render server goes away without refusing this client (it
/// crashed, was killed, or was restarted), the context reconnects to the same socket path by itself,
/// with back-off, on a thread of its own, and resends the tree as it last committed it (layers,
/// images, running animations with their original begin times, the root), so the screen comes back
/// as it was, even while the main thread is blocked. Animation delegates and completion blocks still
/// run once. `onReconnect` and `didReconnectNotification` tell the app; it needs no code for it.
public final class CAContext: @unchecked Sendable {
    /// The socket path a context uses when none is given: `$LAMINA_SOCKET`, else
    /// `$XDG_RUNTIME_DIR/lamina/socket`, else `/run/lamina/socket` (the same rule as laminad's).
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String
    {
        SocketPath.default(environment: environment)
    }

    /// The socket this context is connected to.
    public let socketPath: String
    /// The server's software version from the handshake.
    public let serverVersion: String
    /// The server's displays: those of the handshake, then those of the server's latest
    /// `displaysChanged` (a display whose output closed leaves the list).
    public var displays: [DisplayInfo] { connection.displaysAnnounced ?? welcomeDisplays }
    let welcomeDisplays: [DisplayInfo]
    /// The context's id on the server, assigned at the handshake and unique while the server runs
    /// (Apple's private `CAContext.contextId`). Another client shows this context's tree in a
    /// `CALayerHost` with this id and a token from `exportToken()`. Both survive a server restart:
    /// the reconnecting context asks the new server for the same id and token, so host layers show
    /// it again with no app code. The new server gives a new id only if it has already given the
    /// old one to another context (a `serverWarnings` entry says so); the token is kept either way.
    public var contextId: UInt32 { connection.reconnectedContextId ?? welcomeContextId }
    let welcomeContextId: UInt32
    /// The display this context's `layer` is shown on, chosen when the context was made.
    public let display: UInt32
    let connection: Connection

    /// Commit bookkeeping: what the server has been sent, per layer.
    struct Sent {
        var version: UInt64
        var state: LayerState
        var sublayers: [LayerID]
        var animationIDs: [UInt64]
        /// The context id and token sent for a `CALayerHost` (0 and 0: not a host).
        var host: (contextId: UInt32, token: UInt64) = (0, 0)
        /// The id of the layer's mask (`CALayer.mask`) as sent, nil for none.
        var mask: LayerID?
        /// The layer, to stop the animations it gained since its last commit when it leaves the tree.
        weak var layer: CALayer?
    }
    var sent: [LayerID: Sent] = [:]
    var sentRoot: LayerID?
    /// The images the server holds for this context (uploaded, not released), by id.
    var uploadedImages: Set<UInt64> = []
    /// How many sent layer states and committed animations name each image.
    var imageUses: [UInt64: Int] = [:]
    /// The shared surfaces among `uploadedImages` (registered with `registerSurface`), with the
    /// surface's `changeCount` the server last heard of (`surfaceChanged`).
    var surfaceChangesSent: [UInt64: UInt64] = [:]
    /// How many `registerSurface` the context has sent (a counter for tests: a pool's buffers are
    /// registered once).
    var surfaceRegistrations = 0
    /// The images each committed animation names, by animation id.
    var animationImages: [UInt64: [UInt64]] = [:]
    var nextSerial: UInt64 = 1
    /// How many operations the last commit's list held (`changeOperations` reserves as many).
    var lastOperationCount = 0
    var requestCounter: UInt64 = 0
    /// Every animation the server was sent, by id, as sent: a reconnect sends them again.
    var sentAnimations: [UInt64: AttachedAnimation] = [:]
    /// How many times the context has reconnected. Guarded by the transaction lock.
    var reconnections = 0

    /// Posted on the main thread after the context has reconnected to a restarted render server and
    /// resent its state; the notification's object is the context. Nothing waits for it to be
    /// delivered: the state is already back on screen when it is posted.
    public static let didReconnectNotification = Notification.Name("LaminaContextDidReconnect")

    /// Called after the context has reconnected to a restarted render server and resent its state,
    /// on a private thread of the context (not the main thread, which may be blocked), with the
    /// transaction lock held: it must not wait for another thread that takes that lock. Nil (the
    /// default) does nothing; `didReconnectNotification` is posted as well.
    public var onReconnect: (@Sendable (CAContext) -> Void)? {
        get { CATransaction.state.lock.withLock { reconnectCallback } }
        set { CATransaction.state.lock.withLock { reconnectCallback = newValue } }
    }
    var reconnectCallback: (@Sendable (CAContext) -> Void)?

    /// How many times this context has reconnected to a restarted render server (0 until the first).
    public var reconnectCount: Int {
        CATransaction.state.lock.withLock { reconnections }
    }

    nonisolated(unsafe) static var contexts: [WeakContext] = []
    struct WeakContext { weak var context: CAContext? }

    /// Connects to the render server at the default socket path.
    public convenience init() throws {
        try self.init(socketPath: Self.defaultSocketPath())
    }

    /// Connects to the render server at the default socket path, to show a tree on `display`.
    ///
    /// - Throws: `CAContextError.unknownDisplay` when the server has no display `display`.
    public convenience init(display: UInt32) throws {
        try self.init(socketPath: Self.defaultSocketPath(), display: display)
    }

    /// Connects to the render server at `socketPath` and performs the version handshake. The context's
    /// tree is shown on `display` (the server numbers its outputs from 0).
    ///
    /// - Throws: `CAContextError.unknownDisplay` when the server has no display `display`.
    public init(
        socketPath: String, clientName: String = ProcessInfo.processInfo.processName,
        display: UInt32 = 0
    ) throws {
        self.socketPath = socketPath
        self.display = display
        connection = try Connection(path: socketPath, clientName: clientName)
        try connection.send(.hello(version: WireLimits.protocolVersion, clientName: clientName))
        let welcome: (String, UInt32, [DisplayInfo])
        do {
            welcome = try connection.waitForReply(timeout: 10) { message, _ in
                if case .welcome(_, let version, let contextId, let displays) = message {
                    return (version, contextId, displays)
                }
                return nil
            }
        } catch let error as CAContextError {
            if case .disconnected(let reason) = error {
                throw CAContextError.handshakeFailed(path: socketPath, reason: reason)
            }
            throw error
        }
        serverVersion = welcome.0
        welcomeContextId = welcome.1
        connection.recordContextId(welcome.1)
        // Asked at once and kept by the connection: the surface row alignment and device drawables need it.
        requestCounter += 1
        try connection.send(.requestSurfaceCapabilities(requestID: requestCounter))
        welcomeDisplays = welcome.2
        guard welcomeDisplays.contains(where: { $0.id == display }) else {
            connection.close()
            throw CAContextError.unknownDisplay(display, available: welcomeDisplays.map(\.id))
        }
        CATransaction.lock()
        Self.contexts.append(WeakContext(context: self))
        CATransaction.unlock()
        connection.eventHandler = { [weak self] message in self?.handle(message) }
        connection.reconnectHandler = { [weak self] in self?.resendState() }
        DisplayLinkCenter.contextConnected(self)
    }

    deinit {
        connection.close()
    }

    /// The stacking level of this context's tree (Apple's private `CAContext.level`): on each display,
    /// trees are drawn in ascending level, contexts of equal level in the order they connected (older
    /// below). 0 by default; a change is sent at once and restacks from the next frame. A level
    /// that is not finite is not sent (a `valueNotSent` diagnostic) and the server keeps the last.
    public var level: Float = 0 {
        didSet {
            guard level != oldValue else { return }
            guard level.isFinite else {
                LaminaDiagnostics.report(
                    .valueNotSent, "not sending level \(level) of context \(contextId): not finite")
                return
            }
            CATransaction.flush()
            try? connection.send(.setLevel(level))
        }
    }

    /// The root of the layer tree shown on the context's `display`, or nil to show nothing.
    public var layer: CALayer? {
        didSet { CATransaction.treeDidChange() }
    }

    static func liveContexts() -> [CAContext] {
        contexts.removeAll { $0.context == nil }
        return contexts.compactMap(\.context)
    }

    /// Sends what changed in this context's tree since the last commit, as one atomic transaction.
    /// Called with the transaction lock held.
    func commitChanges() {
        let operations = changeOperations()
        guard !operations.isEmpty else {
            // Animations that finished and left their layers may have held the last use of an image.
            try? releaseUnusedImages()
            return
        }
        let serial = nextSerial
        nextSerial += 1
        do {
            try uploadNewImages()
            try sendTransaction(operations, serial: serial)
            try releaseUnusedImages()
        } catch {
            // While the connection is down, the changes are in `sent`: the reconnect resends them.
            if connection.isReconnecting { return }
            LaminaDiagnostics.report(.commitNotSent, "commit \(serial) not sent: \(error)")
        }
    }

    /// Sends `operations` as one transaction: `transactionPart`s of at most
    /// `WireLimits.transactionPartBytes`, then the `commit` with the rest.
    func sendTransaction(_ operations: [LayerOperation], serial: UInt64) throws {
        try MessageCodec.encodeTransaction(operations, serial: serial, partBytes: WireLimits.transactionPartBytes) {
            try connection.send(encoded: $0)
        }
    }

    /// Appends the operations that bring the server's animations of `layer` up to date: removals
    /// of animations no longer attached, and additions of new ones, whose `beginTime` 0 becomes the
    /// layer's local time now; notes both in `sentAnimations`. Returns the ids the server then has.
    func animationOperations(
        _ layer: CALayer, sentIDs: [UInt64], now: Double,
        into ops: inout [LayerOperation]
    ) -> [UInt64] {
        let current = layer.attachedAnimations
        if !sentIDs.isEmpty {
            // A layer has few animations: a set of their ids is built only for many.
            let currentIDs = current.count > 8 ? Set(current.map(\.id)) : nil
            for id in sentIDs where !(currentIDs?.contains(id) ?? current.contains { $0.id == id }) {
                ops.append(.removeAnimation(layer.layerID, animationID: id))
                sentAnimations[id] = nil
            }
        }
        var localNow: Double?
        for entry in current where !entry.committed {
            if entry.record.timing.beginTime == 0 {
                if localNow == nil { localNow = layer.localTime(atMediaTime: now) }
                entry.stampBeginTime(localNow!)
            }
            entry.committed = true
            let attached = AttachedAnimation(id: entry.id, key: entry.key, record: entry.record)
            ops.append(.addAnimation(layer.layerID, attached))
            sentAnimations[entry.id] = attached
        }
        return current.map(\.id)
    }

    /// Handles an event the connection received: animation starts and ends (delegates and
    /// completion blocks run on the main thread) and frames (display links). Called with the
    /// transaction lock held, in arrival order, never on the reader thread (see `Connection`).
    func handle(_ message: ServerMessage) {
        switch message {
        case .animationEvents(let events):
            CATransaction.lock()
            defer { CATransaction.unlock() }
            for event in events {
                guard let entry = LayerAnimation.registry[event.animationID] else { continue }
                entry.start()
                switch event.kind {
                case .started:
                    break
                case .finishedAndRemoved:
                    if let layer = entry.layer {
                        layer.attachedAnimations.removeAll { $0 === entry }
                        sent[layer.layerID]?.animationIDs.removeAll { $0 == entry.id }
                        sentAnimations[entry.id] = nil
                        trackAnimationImages(before: [entry.id], after: [])
                    }
                    entry.end(finished: true)
                case .finished:
                    entry.end(finished: true)
                }
            }
        case .frame(let time, let targetTime):
            DisplayLinkCenter.frame(time: time, targetTime: targetTime, from: self)
        case .tiledLayerView(let id, let rect, let scale):
            CATransaction.lock()
            defer { CATransaction.unlock() }
            (sent[id]?.layer as? CATiledLayer)?.serverDidReport(rect: rect, scale: scale)
        case .commitPresented(let serial, let time):
            CAVulkanLayer.commitPresented(serial: serial, time: time, in: self)
        case .surfacePresented(let id, let time):
            CAVulkanLayer.surfaceFeedback(id: id, presentedAt: time, in: self)
        case .surfaceReleased(let id):
            CAVulkanLayer.surfaceFeedback(id: id, presentedAt: nil, in: self)
        case .surfaceDiscarded(let id):
            CAVulkanLayer.surfaceDiscarded(id: id, in: self)
        case .surfaceRefused(let id, let code, let message):
            // Not fatal: the server leaves out what names the surface, so its layers keep their
            // last good contents.
            LaminaDiagnostics.report(
                .drawableRefused, "the render server refused surface \(id) (\(code)): \(message)")
            CAVulkanLayer.surfaceRefused(id: id, in: self)
        default:
            break
        }
    }

    /// The operations for `properties` that the server will accept. A value it would refuse (NaN or
    /// infinite geometry, a negative size, radius or width) is left out with a warning, where Apple
    /// platforms raise an exception; the server keeps the previous value. Long names are shortened.
    static func sendable(_ properties: [LayerProperty], of layer: CALayer) -> [LayerOperation] {
        var ops: [LayerOperation] = []
        appendSendable(properties, of: layer, into: &ops)
        return ops
    }

    /// Appends `sendable(properties, of: layer)` to `ops` (without a list of its own to copy).
    static func appendSendable(_ properties: [LayerProperty], of layer: CALayer, into ops: inout [LayerOperation]) {
        for property in properties {
            if let op = sendable(property, of: layer) { ops.append(op) }
        }
    }

    /// The operation for one property of `sendable(_:of:)`, nil when it is left out.
    private static func sendable(_ property: LayerProperty, of layer: CALayer) -> LayerOperation? {
        var property = property
        if case .name(let name?) = property, name.utf8.count > WireLimits.maxStringBytes {
            property = .name(name.truncatedToUTF8(WireLimits.maxStringBytes))
        }
        if let reason = property.invalidReason {
            let name = layer.name.map { " (\($0))" } ?? ""
            LaminaDiagnostics.report(
                .valueNotSent, "not sending \(property.keyPath) of layer \(layer.layerID)\(name): \(reason)")
            return nil
        }
        if case .path(let path?) = property,
            MessageCodec.encodedSize(of: .set(layer.layerID, property)) > WireLimits.maxOperationBytes
        {
            // A path must fit in one message: a larger one is sent as no path, and reported.
            let name = layer.name.map { " (\($0))" } ?? ""
            LaminaDiagnostics.report(
                .valueNotSent,
                "not sending the path of layer \(layer.layerID)\(name): its \(path.elementCount) elements do not "
                    + "fit in one message of \(WireLimits.maxMessageBytes) bytes")
            return .set(layer.layerID, .path(nil))
        }
        return .set(layer.layerID, property)
    }

    // MARK: Requests

    func nextRequestID() -> UInt64 {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        requestCounter += 1
        return requestCounter
    }

    /// Renders display `display` (nil: the context's own) at media time `time` (nil: now) and returns
    /// the frame.
    ///
    /// Pending implicit changes are committed first, so the capture shows them. `time` is on the
    /// `CACurrentMediaTime()` clock; the server evaluates the tree at exactly that time.
    public func capture(at time: CFTimeInterval? = nil, display: UInt32? = nil) throws -> CGImage {
        CATransaction.flush()
        let id = nextRequestID()
        try connection.send(.capture(requestID: id, display: display ?? self.display, time: time))
        return try captureReply(id)
    }

    /// Asks the server to draw layer `layer` of this context's tree and its sublayers alone, with
    /// model values, into a `width`×`height` image, one point `scale` pixels wide (the server's
    /// `captureLayer`, docs/protocol.md §9). The layer must be committed. `CALayer.render(in:)` draws
    /// in the client (`LayerTreeRenderer`); tests compare the two.
    func captureLayer(_ layer: LayerID, width: Int, height: Int, scale: Double) throws -> CGImage {
        let id = nextRequestID()
        try connection.send(
            .captureLayer(
                requestID: id, layer: layer, width: UInt32(width), height: UInt32(height), scale: scale))
        return try captureReply(id)
    }

    /// Waits for the `captureResult` of request `id` and maps its pixels.
    private func captureReply(_ id: UInt64) throws -> CGImage {
        let (width, height, stride, fds) = try connection.waitForReply { message, fds in
            if case .captureResult(id, let w, let h, let s, _) = message { return (Int(w), Int(h), Int(s), fds) }
            return nil
        }
        guard let fd = fds.first else { throw CAContextError.badCapture("no pixel buffer attached") }
        let memory: SharedMemory
        do {
            memory = try SharedMemory.map(fd, minimumSize: stride * height)
        } catch {
            throw CAContextError.badCapture("\(error)")
        }
        guard let image = CGImage(width: width, height: height, stride: stride, premultipliedBGRA: memory.bytes) else {
            throw CAContextError.badCapture("size \(width)x\(height) stride \(stride) does not fit the buffer")
        }
        return image
    }

    /// Asks the server for a reply and returns its version and the round-trip time in seconds.
    public func ping() throws -> (serverVersion: String, roundTrip: Double) {
        let id = nextRequestID()
        let start = CACurrentMediaTime()
        try connection.send(.ping(requestID: id))
        let version = try connection.waitForReply { message, _ in
            if case .pong(id, let version) = message { return version }
            return nil
        }
        return (version, CACurrentMediaTime() - start)
    }

    /// This context's render tree on the server as indented text (what `laminactl tree` prints for its
    /// own connection); the server never describes another client's tree.
    public func describeTree() throws -> String {
        let id = nextRequestID()
        try connection.send(.describeTree(requestID: id))
        return try connection.waitForReply { message, _ in
            if case .treeDescription(id, let text) = message { return text }
            return nil
        }
    }

    /// Runs the callbacks (animation delegates, completion blocks, display links) waiting for the main
    /// thread, on the calling thread. A Linux addition for programs whose main thread never runs a
    /// run loop or the main dispatch queue; elsewhere they run by themselves.
    public static func dispatchPendingCallbacks() {
        MainThreadDispatcher.drain()
    }

    /// Asks the server to send `frame` events (display links are running) or to stop.
    func setFrameEvents(_ enabled: Bool) {
        try? connection.send(.frameEvents(enabled: enabled))
    }

    /// Commits pending changes and waits until the server has applied them (a round trip).
    public func synchronize() throws {
        CATransaction.flush()
        _ = try ping()
    }
}
