import Foundation
import LaminaCore

/// Protocol constants and per-client bounds (documented in docs/protocol.md).
public enum WireLimits {
    /// The protocol version this build speaks (2: `hello` names the context id and export token a
    /// reconnecting context asks to keep).
    public static let protocolVersion: UInt32 = 2
    /// The largest context id a server gives; a `hello` asking for a larger one is refused
    /// (`invalidValue`).
    public static let maxContextId = UInt32(Int32.max)
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
    /// Bytes of a display's name or connector in `welcome` and `displaysChanged`.
    public static let maxDisplayNameBytes = 256
    /// The frame records a display keeps, and the most a `frameRecordsReply` carries (about 40 KiB).
    public static let maxFrameRecords = 600
    /// Bytes of one operation: it must fit in a `commit` or `transactionPart` of its own.
    public static let maxOperationBytes = maxMessageBytes - 32
    /// Elements of a path property value (`CAShapeLayer.path`); a set operation must also fit in one
    /// message, which bounds a path to about 7,700 lines or 2,600 cubic curves.
    public static let maxPathElements = LayerPropertyDescriptor.maxPathElements
    /// Entries of a list property value (`lineDashPattern`, `colors`, `locations`).
    public static let maxListElements = LayerPropertyDescriptor.maxListElements
}
