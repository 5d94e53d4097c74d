import Foundation
import LaminaServer

extension KMSOutput {
    /// The most frame-to-flip latencies an output keeps: the latest ones, so a long run's memory stays
    /// bounded (32 KiB).
    static let latencyCapacity = 4096

    /// The frame-to-flip latencies of the latest page flips that showed a new frame (at most
    /// `latencyCapacity`, in no particular order), in seconds: from the moment the server's frame
    /// worker hands the frame's display list to `present` (after building it; before rendering,
    /// reading back, waiting for the flip before it, copying and committing) to the timestamp of the
    /// page-flip event that puts it on screen (`CLOCK_MONOTONIC` when the device reports it, else
    /// the time the event was read). The mode set's flip counts; a flip that shows the last frame
    /// again (after the seat or the connector came back) does not.
    public var frameToFlipLatencies: [Double] {
        device.lock.withLock { latencies }
    }

    /// The value at `fraction` (0...1) of `values` by the nearest-rank method (the smallest value at
    /// least `fraction` of the values are not above), or nil when `values` is empty.
    public static func percentile(_ fraction: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// Keeps `seconds` as the latest latency, replacing the oldest once `latencyCapacity` are kept.
    /// Called with `device.lock` held.
    func recordLatency(_ seconds: Double) {
        if latencies.count < Self.latencyCapacity {
            latencies.append(seconds)
        } else {
            latencies[latencyCursor] = seconds
            latencyCursor = (latencyCursor + 1) % Self.latencyCapacity
        }
    }

    /// Logs the page flips and the median and 90th percentile of the kept frame-to-flip latencies:
    /// `KMS page flips: 120, frame-to-flip latency median 31.2 ms, p90 40.5 ms (120 frames)`.
    func logLatency() {
        let (count, values) = device.lock.withLock { (flipCount, latencies) }
        let format = { (value: Double?) in value.map { String(format: "%.1f ms", $0 * 1000) } ?? "n/a" }
        logger.info(
            """
            KMS page flips: \(count), frame-to-flip latency median \(format(Self.percentile(0.5, of: values))), \
            p90 \(format(Self.percentile(0.9, of: values))) (\(values.count) frames)
            """,
            metadata: ["device": "\(device.path)", "connector": "\(connectorName)"])
    }
}
