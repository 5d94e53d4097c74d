// Tests of MessageCodec.encodeTransaction: the messages that carry one transaction, each operation
// encoded once, against the split a commit made before it (each operation sized with
// encodedSize(of:), then each message encoded whole with encode(_:)).
import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

@Suite struct TransactionEncodingTests {
    /// The messages as the commit path built them before `encodeTransaction`: parts closed before an
    /// operation that would take them past `limit` bytes, each message encoded whole.
    private func reference(_ ops: [LayerOperation], serial: UInt64, limit: Int) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var part: [LayerOperation] = []
        var bytes = 0
        for op in ops {
            let size = MessageCodec.encodedSize(of: op)
            if bytes + size > limit && !part.isEmpty {
                messages.append(MessageCodec.encode(ClientMessage.transactionPart(part)))
                part = []
                bytes = 0
            }
            part.append(op)
            bytes += size
        }
        messages.append(MessageCodec.encode(ClientMessage.commit(serial: serial, operations: part)))
        return messages
    }

    private func encoded(_ ops: [LayerOperation], serial: UInt64, limit: Int) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        MessageCodec.encodeTransaction(ops, serial: serial, partBytes: limit) { messages.append($0) }
        return messages
    }

    /// Random transactions of every operation kind (the codec table's), split at limits from one byte
    /// (a part per operation) to the real part size: the same bytes as the reference, message for
    /// message, and the decoded operations are the transaction's, in order.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func randomTransactionsEncodeAsBefore(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        for _ in 0..<40 {
            let ops = (0..<random.below(60)).map { _ in operationTable[random.below(operationTable.count)] }
            let limits = [1, 40, 200, 1 + random.below(2_000), WireLimits.transactionPartBytes]
            let limit = limits[random.below(limits.count)]
            let serial = random.next()
            let messages = encoded(ops, serial: serial, limit: limit)
            #expect(messages == reference(ops, serial: serial, limit: limit))
            var decoded: [LayerOperation] = []
            for (index, message) in messages.enumerated() {
                switch try MessageCodec.decodeClient(message) {
                case .transactionPart(let part) where index < messages.count - 1:
                    #expect(!part.isEmpty)
                    decoded += part
                case .commit(let s, let part) where index == messages.count - 1:
                    #expect(s == serial)
                    decoded += part
                case let other:
                    Issue.record("message \(index) of \(messages.count) is \(other)")
                }
            }
            #expect(decoded == ops)
        }
    }

    /// An empty transaction is one commit with no operations; a transaction under the limit is one
    /// commit; one operation per part when the limit is smaller than any operation.
    @Test func partCounts() throws {
        #expect(
            encoded([], serial: 9, limit: 100) == [MessageCodec.encode(ClientMessage.commit(serial: 9, operations: []))]
        )
        let ops: [LayerOperation] = [.createLayer(1), .createLayer(2), .destroyLayer(3)]
        #expect(encoded(ops, serial: 1, limit: 1_000).count == 1)
        // Each operation is 9 bytes: a limit of 1 puts each in its own message.
        #expect(encoded(ops, serial: 1, limit: 1).count == 3)
        // 18 bytes fit two operations; the third starts the commit.
        #expect(encoded(ops, serial: 1, limit: 18).count == 2)
    }
}
