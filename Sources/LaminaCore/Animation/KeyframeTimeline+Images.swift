import Foundation

extension KeyframeTimeline {
    /// Where a keyframe animation of images stands at `fraction`: the image faded out, the image
    /// faded in and how far the fade has got (0: only `from`, 1: only `to`). Nil when the values
    /// are not all images.
    ///
    /// Between two keyframes the fade is linear in the segment's progress (after the segment's
    /// timing function); the discrete mode, and fractions before the first or after the last key
    /// time, show one image with no fade. Paced modes space image keyframes evenly, since images
    /// have no distance.
    func imageFade(at fraction: Double) -> (from: UInt64, to: UInt64, progress: Double)? {
        var ids: [UInt64] = []
        ids.reserveCapacity(values.count)
        for value in values {
            guard case .image(let id) = value else { return nil }
            ids.append(id)
        }
        let n = ids.count
        guard n > 1 else { return ids.first.map { ($0, $0, 1) } }
        let f = fraction.isNaN ? 0 : fraction
        if calculationMode == .discrete {
            let i = keyTimes.lastIndex(where: { $0 <= f }) ?? 0
            return (ids[i], ids[i], 1)
        }
        if f < keyTimes[0] { return (ids[0], ids[0], 1) }
        if f >= keyTimes[n - 1] { return (ids[n - 1], ids[n - 1], 1) }
        let segment = keyTimes.lastIndex(where: { $0 <= f })!
        var u = (f - keyTimes[segment]) / (keyTimes[segment + 1] - keyTimes[segment])
        if let timing = segmentTimingFunctions?[segment] { u = timing.evaluate(u) }
        return (ids[segment], ids[segment + 1], u)
    }
}
