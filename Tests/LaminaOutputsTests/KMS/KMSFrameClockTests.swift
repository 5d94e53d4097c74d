import LaminaOutputs
import Testing

/// Which page flips give the server a frame event, and at what time. At 64 Hz a refresh is
/// 1/64 s = 0.015625 s, exact in binary, so the times compare exactly.
@Suite struct KMSFrameClockTests {
    @Test func flipBeforeTheWantedRefreshGivesTheNextRefresh() {
        // A flip at 1 s shows the next frame one refresh later, the refresh asked for.
        #expect(KMSOutput.frameEventTime(flip: 1, wanted: 1.015625, refreshRate: 64) == 1.015625)
    }

    @Test func flipLateForTheWantedRefreshGivesTheRefreshAfterIt() {
        // Asked for 1.015625 s, the flip came at 1.03125 s: the frame is shown at 1.046875 s.
        #expect(KMSOutput.frameEventTime(flip: 1.03125, wanted: 1.015625, refreshRate: 64) == 1.046875)
    }

    @Test func flipTwoRefreshesEarlyGivesNoEventSoTheTimerWaits() {
        // Asked for 1.046875 s; a flip at 1 s would show the frame at 1.015625 s, two refreshes early.
        #expect(KMSOutput.frameEventTime(flip: 1, wanted: 1.046875, refreshRate: 64) == nil)
    }

    @Test func halfARefreshEarlyIsStillDueAsTheServerCountsIt() {
        // Display.isDue accepts an event up to half a refresh (0.0078125 s) before the frame's time.
        #expect(KMSOutput.frameEventTime(flip: 1, wanted: 1.0234375, refreshRate: 64) == 1.015625)
        #expect(KMSOutput.frameEventTime(flip: 1, wanted: 1.0234376, refreshRate: 64) == nil)
    }
}
