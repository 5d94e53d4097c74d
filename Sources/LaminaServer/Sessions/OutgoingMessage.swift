import LaminaProtocol

/// An encoded message waiting in a client's outbox, with the shared memory whose descriptor it
/// carries (kept open until the message is sent).
struct OutgoingMessage {
    /// The encoded message.
    var bytes: [UInt8]
    /// The memory whose descriptor travels with the message, if any.
    var memory: SharedMemory?

    /// The descriptors to send with the message.
    var fds: [Int32] { memory.map { [$0.fileDescriptor] } ?? [] }
}
