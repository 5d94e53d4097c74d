import Foundation

extension MessageCodec {
    /// The messages that carry one transaction: `transactionPart`s, each closed before an operation
    /// that would take its operations past `partBytes` bytes (a part holds at least one), then the
    /// `commit` with serial `serial` and the rest, each passed to `emit` as soon as it is complete
    /// (a large transaction is not held encoded whole).
    ///
    /// The bytes are those of encoding each message with `encode(_:)`, split where `encodedSize(of:)`
    /// would split them, but each operation is encoded once (into a reused buffer, then copied into
    /// its part): sizing it first and encoding it again doubled the encoding of every animation
    /// record a commit carries.
    public static func encodeTransaction(
        _ operations: [LayerOperation], serial: UInt64, partBytes: Int, emit: ([UInt8]) throws -> Void
    ) rethrows {
        var part = WireWriter()
        var count = 0
        var op = WireWriter()
        for operation in operations {
            op.removeAll()
            encode(operation, into: &op)
            if part.bytes.count + op.bytes.count > partBytes && count > 0 {
                try emit(frameOperations(.transactionPart, serial: nil, count: count, part))
                part.removeAll()
                count = 0
            }
            part.append(op)
            count += 1
        }
        try emit(frameOperations(.commit, serial: serial, count: count, part))
    }

    /// A `transactionPart` (no serial) or `commit` message of `count` operations already encoded in
    /// `operations`: the layout `encode(_:)` gives.
    static func frameOperations(
        _ type: MessageType, serial: UInt64?, count: Int, _ operations: WireWriter
    ) -> [UInt8] {
        let payloadCount = (serial == nil ? 0 : 8) + 4 + operations.bytes.count
        var w = WireWriter()
        w.reserve(headerSize + payloadCount)
        w.u16(type.rawValue)
        w.u16(0)
        w.u32(UInt32(payloadCount))
        if let serial { w.u64(serial) }
        w.u32(UInt32(count))
        w.append(operations)
        return w.bytes
    }
}
