// What the server does while it cannot accept clients for lack of file descriptors.

/// Keeps the server from spinning when `accept4` fails with `EMFILE` or `ENFILE`.
///
/// A pending connection keeps the listening socket readable, so a loop that polls it again at once
/// would fail again at once, forever. After such a failure the listener is not watched until a
/// client leaves (a descriptor is free again) or `retryInterval` seconds of media time pass, and the
/// failure is logged at most once every `logInterval` seconds with a count of the failures in between.
/// Connections that arrive meanwhile wait in the listen backlog. A value type, owned by the server's
/// thread; times are the server's `MediaClock` readings.
struct AcceptThrottle {
    /// How long after a failure the listener is watched again although no client has left.
    static let retryInterval = 1.0
    /// The shortest time between two log lines about failing to accept.
    static let logInterval = 10.0

    /// When the listener is watched again at the latest; nil while it is watched.
    private(set) var retryTime: Double?
    /// The number of clients when accepting failed: fewer means a descriptor was freed.
    private var sessionsAtFailure = 0
    /// When the last log line was written, if ever.
    private var lastLogTime: Double?
    /// Failures since the last log line.
    private var unreported = 0

    /// Whether the listening socket should be polled now, with `sessionCount` clients connected.
    func isWatching(now: Double, sessionCount: Int) -> Bool {
        guard let retryTime else { return true }
        return sessionCount < sessionsAtFailure || now >= retryTime
    }

    /// Records a failure to accept for lack of descriptors at `now` with `sessionCount` clients, and
    /// stops watching the listener. Returns how many failures to report in a log line now (this one
    /// and those not yet reported), or nil when the last line is less than `logInterval` old.
    mutating func failed(now: Double, sessionCount: Int) -> Int? {
        retryTime = now + Self.retryInterval
        sessionsAtFailure = sessionCount
        unreported += 1
        if let last = lastLogTime, now - last < Self.logInterval { return nil }
        lastLogTime = now
        defer { unreported = 0 }
        return unreported
    }

    /// Records that a client was accepted: the listener is watched again for good.
    mutating func accepted() {
        retryTime = nil
    }
}
