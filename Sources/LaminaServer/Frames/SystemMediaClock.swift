import LaminaCore

/// The real media clock: `CACurrentMediaTime()` (`CLOCK_MONOTONIC`), the clock clients read too.
public final class SystemMediaClock: MediaClock, Sendable {
    /// The system clock.
    public init() {}

    /// `CACurrentMediaTime()`.
    public func now() -> Double { CACurrentMediaTime() }
}
