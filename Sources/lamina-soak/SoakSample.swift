/// One sample of the server under churn.
struct SoakSample {
    /// Seconds since the churn began.
    var elapsed: Double
    /// The server's resident memory (`VmRSS` in `/proc/PID/status`), in KiB.
    var rssKiB: Int
    /// The server's open descriptors (entries of `/proc/PID/fd`).
    var descriptors: Int
    /// Client processes started so far.
    var clientsStarted: Int
    /// Client processes killed with `SIGKILL` so far.
    var clientsKilled: Int
    /// Milliseconds from a capture request to its pixels (the server composes and renders the display
    /// at once, so this tracks the cost of a frame), or -1 when the request failed.
    var captureMilliseconds: Double
    /// A ping's round trip in milliseconds, or -1 when it failed.
    var pingMilliseconds: Double

    /// The CSV header matching `csvLine`.
    static let csvHeader = "elapsed_s,rss_kib,fds,clients_started,clients_killed,capture_ms,ping_ms"

    /// The sample as one CSV line.
    var csvLine: String {
        let values: [String] = [
            String(format: "%.1f", elapsed), "\(rssKiB)", "\(descriptors)", "\(clientsStarted)", "\(clientsKilled)",
            String(format: "%.2f", captureMilliseconds), String(format: "%.2f", pingMilliseconds),
        ]
        return values.joined(separator: ",")
    }
}
