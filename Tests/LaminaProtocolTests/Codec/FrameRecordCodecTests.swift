import Foundation
import LaminaCore
import LaminaProtocol
import Testing

/// The frame-records request and reply on the wire (docs/protocol.md): round trips, the record's
/// byte count, and the reply's count limit.
@Suite struct FrameRecordCodecTests {
    static let record = FrameRecord(
        time: 12.5, display: 2, layersVisited: 1000, instancesEmitted: 2500, pixelsDrawn: 2500,
        displayPixels: 921_600, offscreenPasses: 3, cpuMilliseconds: 1.25, gpuMilliseconds: 0.5, missedDeadline: true,
        offscreenPassesKept: 2, rasterCacheHits: 1, rasterCacheMisses: 4)

    @Test func requestRoundTrips() throws {
        let message = ClientMessage.frameRecords(requestID: 7, display: 1, count: 60)
        #expect(try MessageCodec.decodeClient(MessageCodec.encode(message)) == message)
    }

    @Test(arguments: [0, 1, 600])
    func replyRoundTrips(count: Int) throws {
        var second = Self.record
        second.gpuMilliseconds = nil
        second.missedDeadline = false
        let records = (0..<count).map { $0.isMultiple(of: 2) ? Self.record : second }
        let message = ServerMessage.frameRecordsReply(requestID: 3, records: records)
        let bytes = MessageCodec.encode(message)
        // Header, request id, count, then 78 bytes a record.
        #expect(bytes.count == 8 + 8 + 4 + 78 * count)
        #expect(try MessageCodec.decodeServer(bytes) == message)
    }

    @Test func aReplyWithMoreRecordsThanTheLimitIsRefused() throws {
        let message = ServerMessage.frameRecordsReply(
            requestID: 3, records: Array(repeating: Self.record, count: WireLimits.maxFrameRecords + 1))
        #expect(throws: WireError.self) { try MessageCodec.decodeServer(MessageCodec.encode(message)) }
    }
}
