import Foundation
import LaminaServer

/// A media clock that moves only when a test moves it, for an in-process `Server` driven without
/// sleeping: set the time, then call `Server.runUntilIdle()` to present the frames due by then.
///
/// Thread-safe (a lock guards the time), though a server reads it on its own thread only.
public final class ManualClock: MediaClock, @unchecked Sendable {
    private let lock = NSLock()
    private var time: Double

    /// A clock that reads `time` seconds until moved.
    public init(time: Double = 100) {
        self.time = time
    }

    /// The time the clock was last set to.
    public func now() -> Double {
        lock.withLock { time }
    }

    /// Moves the clock to `newTime` (it may go back, which a test of the system clock never sees).
    public func set(_ newTime: Double) {
        lock.withLock { time = newTime }
    }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: Double) {
        lock.withLock { time += seconds }
    }
}
