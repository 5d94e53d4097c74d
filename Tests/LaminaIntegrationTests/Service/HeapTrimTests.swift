import Foundation
import LaminaProtocol
import LaminaTesting
import Testing

@testable import LaminaServer

/// After clients leave, the server returns the heap's freed pages to the system, at most once a
/// second of media time (issue 9's soak: without it the resident size only grows under churn).
@Suite struct HeapTrimTests {
    @Test func aDepartureTrimsTheHeapAtMostOnceASecond() throws {
        let harness = try FrameClockTests.Harness(modes: [DisplayMode(width: 16, height: 16, refreshRate: 60)])
        let server = harness.server
        #expect(!server.heapTrimDue)

        let (first, _) = try harness.connect(name: "first")
        first.hangUp()
        server.runUntilIdle()
        #expect(server.heapTrimDue)
        server.trimHeapIfDue()
        #expect(!server.heapTrimDue)
        #expect(server.lastHeapTrim == 100)

        // Another departure half a second later waits for the next second.
        harness.advance(to: 100.5)
        let (second, _) = try harness.connect(name: "second")
        second.hangUp()
        server.runUntilIdle()
        server.trimHeapIfDue()
        #expect(server.heapTrimDue)
        #expect(server.lastHeapTrim == 100)

        harness.advance(to: 101)
        server.trimHeapIfDue()
        #expect(!server.heapTrimDue)
        #expect(server.lastHeapTrim == 101)
    }
}
