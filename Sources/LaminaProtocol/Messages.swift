import Foundation
import LaminaCore

/// Protocol constants and per-client bounds (documented in docs/protocol.md).
public enum WireLimits {
    /// The protocol version this build speaks.
    public static let protocolVersion: UInt32 = 1
    /// The largest message either side sends or accepts, header included.
    public static let maxMessageBytes = 128 * 1024
    /// The payload size the client aims for when it splits a transaction into parts.
    public static let transactionPartBytes = 60 * 1024
    /// Operations one transaction may carry across all its parts.
    public static let maxOperationsPerTransaction = 1_000_000
    /// Live layers one client may own.
    public static let maxLayersPerClient = 200_000
    /// Sublayers one layer may have (one set-sublayers operation must fit in one message).
    public static let maxSublayers = 16_000
    /// Depth of a render tree, counted in layers from the root.
    public static let maxTreeDepth = 256
    /// Bytes of a layer name, a client name or an error text.
    public static let maxStringBytes = 4096
    /// Largest capture, in pixels per side.
    public static let maxCaptureSide = 16384
    /// The number of displays a root may be attached to.
    public static let maxDisplays = 16
}

/// One edit inside a transaction.
public enum LayerOperation: Sendable, Hashable {
    /// Creates a layer with default properties under a new client-chosen id.
    case createLayer(LayerID)
    /// Destroys a layer; it must not be in any sublayer list or root once the transaction is applied.
    case destroyLayer(LayerID)
    /// Sets one property of a layer.
    case set(LayerID, LayerProperty)
    /// Replaces a layer's sublayer list (back to front, before zPosition sorting).
    case setSublayers(LayerID, [LayerID])
    /// Shows `layer` (or nothing, when nil) as this client's root on a display.
    case setRoot(display: UInt32, layer: LayerID?)
    /// Attaches an animation to a layer, replacing any animation under the same key.
    case addAnimation(LayerID, AttachedAnimation)
    /// Detaches the animation with this id from the layer; an id the server already removed
    /// (because it finished) is ignored.
    case removeAnimation(LayerID, animationID: UInt64)
}

/// Something that happened to an animation on the server, reported to its client.
public struct AnimationEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: UInt8, Sendable, Hashable {
        /// The animation's begin time was reached.
        case started = 1
        /// The animation's active duration is over, and it was removed from its layer.
        case finishedAndRemoved = 2
        /// The animation's active duration is over; it stays attached (`isRemovedOnCompletion` false).
        case finished = 3
    }
    /// The animation's id as the client chose it.
    public var animationID: UInt64
    /// What happened to the animation.
    public var kind: Kind
    /// The media time of the frame at which it happened.
    public var time: Double

    /// Creates an event.
    public init(animationID: UInt64, kind: Kind, time: Double) {
        self.animationID = animationID
        self.kind = kind
        self.time = time
    }
}

/// The message types and their wire numbers.
public enum MessageType: UInt16, Sendable {
    case hello = 1, transactionPart = 2, commit = 3, capture = 4, ping = 5, describeTree = 6, frameEvents = 7
    case welcome = 101, commitApplied = 102, commitPresented = 103, error = 104, captureResult = 105
    case pong = 106, treeDescription = 107, animationEvents = 108, frame = 109
}

/// A message from a client to the server.
public enum ClientMessage: Sendable, Hashable {
    /// The first message: the protocol version the client speaks and a name for logs.
    case hello(version: UInt32, clientName: String)
    /// Operations to be held until the transaction's `commit`; lets a transaction exceed one message.
    case transactionPart([LayerOperation])
    /// The last part of a transaction: all held parts plus these operations are applied atomically.
    case commit(serial: UInt64, operations: [LayerOperation])
    /// Render `display` at media time `time` (nil: now) and reply with a `captureResult`.
    case capture(requestID: UInt64, display: UInt32, time: Double?)
    /// Asks for a `pong`.
    case ping(requestID: UInt64)
    /// Asks for the server's render trees as indented text.
    case describeTree(requestID: UInt64)
    /// Turns `frame` events on or off (a `CADisplayLink` is running); while on, the server
    /// produces a frame at every refresh.
    case frameEvents(enabled: Bool)
}

/// The server's error codes; the text that travels with one names the offending message, id or value.
public enum ServerErrorCode: UInt16, Sendable {
    case protocolViolation = 1, unsupportedVersion, malformedMessage, unknownMessage, unknownOperation
    case unknownProperty, unknownLayer, duplicateLayer, cycle, invalidValue, oversizedMessage, limitExceeded
    case badDisplay, badFileDescriptor, internalError
}

/// A message from the server to a client.
public enum ServerMessage: Sendable, Hashable {
    /// Handshake reply: the server's protocol version, its software version and its displays.
    case welcome(version: UInt32, serverVersion: String, displays: [DisplayInfo])
    /// The transaction was validated and applied to the render tree.
    case commitApplied(serial: UInt64)
    /// The transaction's effects, and those of every earlier transaction, reached the display in the
    /// frame presented at `time` (media time). One event covers all commits since the last one.
    case commitPresented(serial: UInt64, time: Double)
    /// A fatal error; the server closes the connection after sending it.
    case error(code: ServerErrorCode, message: String)
    /// A captured frame; its pixels (BGRA, premultiplied, `stride` bytes per row) arrive in the attached memfd.
    case captureResult(requestID: UInt64, width: UInt32, height: UInt32, stride: UInt32, time: Double)
    /// Reply to `ping`.
    case pong(requestID: UInt64, serverVersion: String)
    /// Reply to `describeTree`.
    case treeDescription(requestID: UInt64, text: String)
    /// Animations of this client started or finished in the frame presented at their time.
    case animationEvents([AnimationEvent])
    /// A frame was presented at `time`; the next is due at `targetTime` (sent while frame events are on).
    case frame(time: Double, targetTime: Double)
}

/// A display as described in the handshake.
public struct DisplayInfo: Sendable, Hashable {
    /// The display's number: 0, 1, … in the order of `laminad`'s `--output` options.
    public var id: UInt32
    /// The display's width in pixels.
    public var width: UInt32
    /// The display's height in pixels.
    public var height: UInt32
    /// The display's refresh rate in hertz.
    public var refreshRate: Double
    /// A display description with the given values.
    public init(id: UInt32, width: UInt32, height: UInt32, refreshRate: Double) {
        self.id = id
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
    }
}
