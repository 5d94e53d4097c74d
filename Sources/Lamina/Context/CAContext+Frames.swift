import Foundation
import LaminaProtocol

extension CAContext {
    /// The newest `count` frames presented on `display` (this context's display when nil), oldest
    /// first: each frame's media time, layers visited, instances emitted, pixels drawn, the display's
    /// pixel count, offscreen passes, CPU and GPU milliseconds and whether it missed its refresh
    /// (what `laminactl frames` prints). The server keeps the last `WireLimits.maxFrameRecords`
    /// (600) frames of each display; a frame is recorded only when something changed, so an idle
    /// display adds none. A Linux addition, for tests that assert what a frame cost.
    public func frameRecords(display: UInt32? = nil, count: Int = 60) throws -> [FrameRecord] {
        CATransaction.flush()
        let id = nextRequestID()
        let wanted = UInt32(clamping: max(0, min(count, WireLimits.maxFrameRecords)))
        try connection.send(.frameRecords(requestID: id, display: display ?? self.display, count: wanted))
        return try connection.waitForReply { message, _ in
            if case .frameRecordsReply(id, let records) = message { return records }
            return nil
        }
    }
}
