/// The least-squares line through samples, for judging whether memory stays flat.
struct SoakTrend {
    /// The line's slope in units per minute.
    var slopePerMinute: Double
    /// How much the line rises over the samples' time span.
    var rise: Double

    /// The trend of `values` over `times` (seconds); a flat trend for fewer than two samples.
    init(times: [Double], values: [Double]) {
        let n = Double(times.count)
        guard times.count >= 2, let first = times.first, let last = times.last, last > first else {
            slopePerMinute = 0
            rise = 0
            return
        }
        let meanT = times.reduce(0, +) / n
        let meanV = values.reduce(0, +) / n
        var covariance = 0.0
        var variance = 0.0
        for (t, v) in zip(times, values) {
            covariance += (t - meanT) * (v - meanV)
            variance += (t - meanT) * (t - meanT)
        }
        let slope = variance > 0 ? covariance / variance : 0
        slopePerMinute = slope * 60
        rise = slope * (last - first)
    }
}
