import Testing

@testable import LaminaServer

/// Issue 9, defect 4, as data: when accepting fails for lack of descriptors, the listener rests until a
/// client leaves or the retry interval passes, and failures are logged at most once per log interval.
/// Times are media times chosen by the test, as a manual clock would give them.
struct AcceptThrottleTests {
    @Test func listenerRestsUntilAClientLeavesOrTheRetryTimeComes() {
        var throttle = AcceptThrottle()
        #expect(throttle.isWatching(now: 100, sessionCount: 5))
        #expect(throttle.failed(now: 100, sessionCount: 5) == 1, "the first failure is logged")
        #expect(throttle.retryTime == 100 + AcceptThrottle.retryInterval)
        #expect(!throttle.isWatching(now: 100, sessionCount: 5))
        #expect(!throttle.isWatching(now: 100.999, sessionCount: 5))
        #expect(throttle.isWatching(now: 100.5, sessionCount: 4), "a client left: a descriptor is free")
        #expect(throttle.isWatching(now: 101, sessionCount: 5), "the retry time has come")
        throttle.accepted()
        #expect(throttle.retryTime == nil)
        #expect(throttle.isWatching(now: 101, sessionCount: 6))
    }

    @Test func failuresAreLoggedOncePerIntervalWithTheirCount() {
        var throttle = AcceptThrottle()
        var logged: [Int] = []
        // One failure per retry interval for 25 seconds, starting at 100.
        for step in 0..<25 {
            let now = 100 + Double(step) * AcceptThrottle.retryInterval
            #expect(!throttle.isWatching(now: now - 0.5, sessionCount: 3) || step == 0)
            if let count = throttle.failed(now: now, sessionCount: 3) { logged.append(count) }
        }
        // Lines at 100, 110 and 120: the first failure, then the 10 failures of each 10 s since.
        #expect(AcceptThrottle.logInterval == 10 && AcceptThrottle.retryInterval == 1)
        #expect(logged == [1, 10, 10])
    }
}
