import Foundation
import Lamina

/// The summary `laminactl frames` prints under the frames: percentiles of the frames' CPU time and
/// the refreshes they missed.
struct FrameSummary {
    var frames: Int
    var p50: Double
    var p90: Double
    var p99: Double
    var worst: Double
    var missed: Int

    /// The summary of `records` (zeros when there are none).
    init(_ records: [FrameRecord]) {
        let times = records.map(\.cpuMilliseconds).sorted()
        func percentile(_ p: Double) -> Double {
            guard !times.isEmpty else { return 0 }
            return times[min(times.count - 1, Int((p * Double(times.count)).rounded(.up)) - 1)]
        }
        frames = records.count
        p50 = percentile(0.5)
        p90 = percentile(0.9)
        p99 = percentile(0.99)
        worst = times.last ?? 0
        missed = records.filter(\.missedDeadline).count
    }

    /// One line for people.
    var text: String {
        String(
            format: "%d frames; cpu ms p50 %.3f, p90 %.3f, p99 %.3f, worst %.3f; missed deadlines %d", frames, p50,
            p90, p99, worst, missed)
    }

    /// One JSON object with the key `summary`.
    var json: String {
        "{\"summary\":{\"frames\":\(frames),\"cpuMillisecondsP50\":\(p50),\"cpuMillisecondsP90\":\(p90),"
            + "\"cpuMillisecondsP99\":\(p99),\"cpuMillisecondsWorst\":\(worst),\"missedDeadlines\":\(missed)}}"
    }

    /// One frame as a JSON object with the keys `time`, `layersVisited`, `instancesEmitted`,
    /// `pixelsDrawn`, `displayPixels`, `offscreenPasses`, `offscreenPassesKept`, `rasterCacheHits`,
    /// `rasterCacheMisses`, `cpuMilliseconds`, `gpuMilliseconds` (null where unknown) and `missedDeadline`.
    static func json(_ r: FrameRecord) -> String {
        let gpu = r.gpuMilliseconds.map { "\($0)" } ?? "null"
        return "{\"time\":\(r.time),\"layersVisited\":\(r.layersVisited),\"instancesEmitted\":\(r.instancesEmitted),"
            + "\"pixelsDrawn\":\(r.pixelsDrawn),\"displayPixels\":\(r.displayPixels),"
            + "\"offscreenPasses\":\(r.offscreenPasses),\"offscreenPassesKept\":\(r.offscreenPassesKept),"
            + "\"rasterCacheHits\":\(r.rasterCacheHits),\"rasterCacheMisses\":\(r.rasterCacheMisses),"
            + "\"cpuMilliseconds\":\(r.cpuMilliseconds),"
            + "\"gpuMilliseconds\":\(gpu),\"missedDeadline\":\(r.missedDeadline)}"
    }
}
