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

/// One layer property with its value, as carried by a set-property operation.
public enum LayerProperty: Sendable, Hashable {
    case bounds(CGRect)
    case position(CGPoint)
    case anchorPoint(CGPoint)
    case anchorPointZ(CGFloat)
    case zPosition(CGFloat)
    case transform(CATransform3D)
    case sublayerTransform(CATransform3D)
    case opacity(Float)
    case isHidden(Bool)
    case backgroundColor(RGBAColor?)
    case cornerRadius(CGFloat)
    case maskedCorners(CACornerMask)
    case borderWidth(CGFloat)
    case borderColor(RGBAColor?)
    case masksToBounds(Bool)
    case name(String?)
    case beginTime(Double)
    case timeOffset(Double)
    case speed(Double)

    /// The wire code of this property.
    public var code: UInt8 {
        switch self {
        case .bounds: 1
        case .position: 2
        case .anchorPoint: 3
        case .anchorPointZ: 4
        case .zPosition: 5
        case .transform: 6
        case .sublayerTransform: 7
        case .opacity: 8
        case .isHidden: 9
        case .backgroundColor: 10
        case .cornerRadius: 11
        case .maskedCorners: 12
        case .borderWidth: 13
        case .borderColor: 14
        case .masksToBounds: 15
        case .name: 16
        case .beginTime: 17
        case .timeOffset: 18
        case .speed: 19
        }
    }

    /// The Core Animation key path this property is known by.
    public var keyPath: String {
        switch self {
        case .bounds: "bounds"
        case .position: "position"
        case .anchorPoint: "anchorPoint"
        case .anchorPointZ: "anchorPointZ"
        case .zPosition: "zPosition"
        case .transform: "transform"
        case .sublayerTransform: "sublayerTransform"
        case .opacity: "opacity"
        case .isHidden: "hidden"
        case .backgroundColor: "backgroundColor"
        case .cornerRadius: "cornerRadius"
        case .maskedCorners: "maskedCorners"
        case .borderWidth: "borderWidth"
        case .borderColor: "borderColor"
        case .masksToBounds: "masksToBounds"
        case .name: "name"
        case .beginTime: "beginTime"
        case .timeOffset: "timeOffset"
        case .speed: "speed"
        }
    }

    /// Why the value cannot be applied, or nil when it is valid: every number must be finite; sizes,
    /// radii and widths non-negative; colour components in 0...1. Opacity is clamped to 0...1 on apply.
    public var invalidReason: String? {
        func finite(_ values: CGFloat...) -> Bool { values.allSatisfy(\.isFinite) }
        switch self {
        case .bounds(let r):
            if !finite(r.origin.x, r.origin.y, r.size.width, r.size.height) { return "bounds has a NaN or infinite component" }
            if r.size.width < 0 || r.size.height < 0 { return "bounds has a negative size" }
        case .position(let p), .anchorPoint(let p):
            if !finite(p.x, p.y) { return "\(keyPath) has a NaN or infinite component" }
        case .anchorPointZ(let v), .zPosition(let v):
            if !v.isFinite { return "\(keyPath) is NaN or infinite" }
        case .transform(let t), .sublayerTransform(let t):
            if !t.isFinite { return "\(keyPath) has a NaN or infinite entry" }
        case .opacity(let o):
            if !o.isFinite { return "opacity is NaN or infinite" }
        case .cornerRadius(let v), .borderWidth(let v):
            if !v.isFinite { return "\(keyPath) is NaN or infinite" }
            if v < 0 { return "\(keyPath) is negative" }
        case .backgroundColor(let c), .borderColor(let c):
            if let c, !c.isValid { return "\(keyPath) has a component outside 0...1 or not finite" }
        case .maskedCorners(let m):
            if m.rawValue & ~CACornerMask.all.rawValue != 0 { return "maskedCorners has unknown bits" }
        case .name(let n):
            if let n, n.utf8.count > WireLimits.maxStringBytes { return "name is longer than \(WireLimits.maxStringBytes) bytes" }
        case .beginTime(let v), .timeOffset(let v), .speed(let v):
            if !v.isFinite { return "\(keyPath) is NaN or infinite" }
        case .isHidden, .masksToBounds:
            break
        }
        return nil
    }

    /// Writes this property's value into `state`.
    public func apply(to state: inout LayerState) {
        switch self {
        case .bounds(let v): state.bounds = v
        case .position(let v): state.position = v
        case .anchorPoint(let v): state.anchorPoint = v
        case .anchorPointZ(let v): state.anchorPointZ = v
        case .zPosition(let v): state.zPosition = v
        case .transform(let v): state.transform = v
        case .sublayerTransform(let v): state.sublayerTransform = v
        case .opacity(let v): state.opacity = min(max(v, 0), 1)
        case .isHidden(let v): state.isHidden = v
        case .backgroundColor(let v): state.backgroundColor = v
        case .cornerRadius(let v): state.cornerRadius = v
        case .maskedCorners(let v): state.maskedCorners = v
        case .borderWidth(let v): state.borderWidth = v
        case .borderColor(let v): state.borderColor = v
        case .masksToBounds(let v): state.masksToBounds = v
        case .name(let v): state.name = v
        case .beginTime(let v): state.beginTime = v
        case .timeOffset(let v): state.timeOffset = v
        case .speed(let v): state.speed = v
        }
    }

    /// Every property of `state` that differs from `old` (all of them when `old` is nil).
    public static func differences(from old: LayerState?, to new: LayerState) -> [LayerProperty] {
        let o = old ?? LayerState()
        var out: [LayerProperty] = []
        let all = old == nil
        if all || o.bounds != new.bounds { out.append(.bounds(new.bounds)) }
        if all || o.position != new.position { out.append(.position(new.position)) }
        if all || o.anchorPoint != new.anchorPoint { out.append(.anchorPoint(new.anchorPoint)) }
        if all || o.anchorPointZ != new.anchorPointZ { out.append(.anchorPointZ(new.anchorPointZ)) }
        if all || o.zPosition != new.zPosition { out.append(.zPosition(new.zPosition)) }
        if all || o.transform != new.transform { out.append(.transform(new.transform)) }
        if all || o.sublayerTransform != new.sublayerTransform { out.append(.sublayerTransform(new.sublayerTransform)) }
        if all || o.opacity != new.opacity { out.append(.opacity(new.opacity)) }
        if all || o.isHidden != new.isHidden { out.append(.isHidden(new.isHidden)) }
        if all || o.backgroundColor != new.backgroundColor { out.append(.backgroundColor(new.backgroundColor)) }
        if all || o.cornerRadius != new.cornerRadius { out.append(.cornerRadius(new.cornerRadius)) }
        if all || o.maskedCorners != new.maskedCorners { out.append(.maskedCorners(new.maskedCorners)) }
        if all || o.borderWidth != new.borderWidth { out.append(.borderWidth(new.borderWidth)) }
        if all || o.borderColor != new.borderColor { out.append(.borderColor(new.borderColor)) }
        if all || o.masksToBounds != new.masksToBounds { out.append(.masksToBounds(new.masksToBounds)) }
        if all || o.name != new.name { out.append(.name(new.name)) }
        if all || o.beginTime != new.beginTime { out.append(.beginTime(new.beginTime)) }
        if all || o.timeOffset != new.timeOffset { out.append(.timeOffset(new.timeOffset)) }
        if all || o.speed != new.speed { out.append(.speed(new.speed)) }
        return out
    }
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
    public var id: UInt32
    public var width: UInt32
    public var height: UInt32
    public var refreshRate: Double
    public init(id: UInt32, width: UInt32, height: UInt32, refreshRate: Double) {
        self.id = id
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
    }
}
