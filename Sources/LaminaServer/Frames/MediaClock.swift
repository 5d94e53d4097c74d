/// The server's only source of media time.
///
/// Every time the server reads (frame scheduling, capture "now", animation bookkeeping) comes from
/// `now()`, so tests inject a clock they move by hand and drive frames without sleeping. Read on the
/// server's thread only.
public protocol MediaClock: AnyObject {
    /// The current media time in seconds, on the `CACurrentMediaTime()` timeline.
    func now() -> Double
}
