import Foundation
import LaminaCore
import Testing

@testable import LaminaServer

/// The CPU blur of raster shadows takes any colour the presentation computes: an animated
/// `shadowColor` can leave 0...1 or become NaN from finite values, and the blur draws it clamped
/// (NaN as 0) instead of trapping in the conversion to bytes (the fuzzer's
/// `Fuzz/regressions/hostile-shadow-raster-nan-colour`).
@Suite struct ShadowBlurTests {
    @Test func colourOutsideTheRangeOrNaNIsClamped() {
        // A 3×1 raster: one opaque pixel in the middle.
        let pixels: [UInt8] = [0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0]
        let color = RGBAColor(red: .nan, green: 2, blue: -1, alpha: 1)
        let out = ShadowBlur.blurred(pixels, width: 3, height: 1, sigma: 1, color: color)
        #expect(out.count == 12)
        for p in stride(from: 0, to: 12, by: 4) {
            #expect(out[p] == 0, "blue −1 draws as 0")
            #expect(out[p + 2] == 0, "red NaN draws as 0")
            #expect(out[p + 1] == out[p + 3], "green 2 draws as 1: the channel equals the alpha")
        }
        #expect(out[7] > out[3] && out[3] > 0, "blurred: the middle keeps most, the sides get some")
    }

    @Test func unitClampsAndMapsNaNToZero() {
        #expect(ShadowBlur.unit(.nan) == 0)
        #expect(ShadowBlur.unit(-.infinity) == 0)
        #expect(ShadowBlur.unit(.infinity) == 1)
        #expect(ShadowBlur.unit(0.25) == 0.25)
    }
}
