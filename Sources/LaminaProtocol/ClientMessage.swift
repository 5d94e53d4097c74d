import Foundation
import LaminaCore

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
