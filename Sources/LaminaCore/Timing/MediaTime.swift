import Foundation

/// A time interval in seconds, as Core Foundation names it.
public typealias CFTimeInterval = Double

/// The current media time: `CLOCK_MONOTONIC` in seconds.
///
/// Client and server run on one host and read the same clock, so times they exchange need no
/// conversion. This is the clock of `CAContext.capture(at:)` and `laminactl capture --at`.
public func CACurrentMediaTime() -> CFTimeInterval {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
