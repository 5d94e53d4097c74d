import LaminaTesting
import Testing

/// `PixelExpectation`, the pixel check the capture-based suites share: a channel matches when it
/// is at most `tolerance` away, alpha is checked only when given, and a failure names the pixel.
@Suite struct PixelExpectationTests {
    @Test func channelsWithinToleranceMatch() {
        let expectation = PixelExpectation(red: 128, green: 0, blue: 255, tolerance: 2)
        #expect(expectation.mismatch(actual: [130, 2, 253, 255], x: 0, y: 0) == nil)
        // Alpha is not checked by a three-channel expectation.
        #expect(expectation.mismatch(actual: [128, 0, 255, 0], x: 0, y: 0) == nil)
    }

    @Test func oneLevelPastToleranceFails() {
        let expectation = PixelExpectation(red: 128, green: 0, blue: 255, tolerance: 2)
        #expect(
            expectation.mismatch(actual: [128, 3, 255, 255], x: 4, y: 7, note: "edge")
                == "pixel (4, 7) edge: got (128, 3, 255), expected (128, 0, 255) ±2")
    }

    @Test func alphaIsCheckedWhenGiven() {
        let expectation = PixelExpectation(red: 255, green: 255, blue: 255, alpha: 255, tolerance: 0)
        #expect(expectation.mismatch(actual: [255, 255, 255, 255], x: 1, y: 2) == nil)
        #expect(
            expectation.mismatch(actual: [255, 255, 255, 254], x: 1, y: 2)
                == "pixel (1, 2): got (255, 255, 255, 254), expected (255, 255, 255, 255) ±0")
    }

    @Test func splitMix64MatchesTheReferenceSequence() {
        // The first two outputs of SplitMix64 seeded with 0, as the reference implementation gives.
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
        #expect(zero.next() == 0x6E78_9E6A_A1B9_65F4)
        var dice = SplitMix64(seed: 0)
        #expect(dice.below(6) == 1)  // 16294208416658607535 mod 6
    }
}
