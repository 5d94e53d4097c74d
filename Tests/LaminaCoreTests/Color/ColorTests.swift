import Foundation
import LaminaCore
import Testing

@Suite("CGColor")
struct CGColorTests {
    @Test func rgbComponents() {
        let c = CGColor(red: 1, green: 0.5, blue: 0.25, alpha: 0.75)
        #expect(c.components == [1, 0.5, 0.25, 0.75])
        #expect(c.numberOfComponents == 4)
        #expect(c.alpha == 0.75)
    }

    @Test func grayComponents() {
        let c = CGColor(gray: 0.3, alpha: 0.6)
        #expect(c.components == [0.3, 0.6])
        #expect(c.numberOfComponents == 2)
        #expect(c.alpha == 0.6)
    }

    @Test func srgbInitIsTheSameAsRGB() {
        #expect(
            CGColor(srgbRed: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
                == CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))
    }

    @Test func constants() {
        #expect(CGColor.black.components == [0, 1])
        #expect(CGColor.white.components == [1, 1])
        #expect(CGColor.clear.components == [0, 0])
        #expect(CGColor.clear.alpha == 0)
        #expect(CGColor.black == CGColor(gray: 0, alpha: 1))
    }

    @Test func copyWithAlpha() throws {
        let c = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        let copy = try #require(c.copy(alpha: 0.25))
        #expect(copy.components == [1, 0.5, 0, 0.25])
        #expect(c.alpha == 1)  // the original is immutable
        let gray = try #require(CGColor.white.copy(alpha: 0.5))
        #expect(gray.components == [1, 0.5])
        #expect(gray == CGColor(gray: 1, alpha: 0.5))
    }

    @Test func equalityByModelAndComponents() {
        #expect(
            CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1) == CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1))
        #expect(
            CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1) != CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.9))
        // Same appearance, different colour model: not equal (as on Apple platforms).
        #expect(CGColor(gray: 0.5, alpha: 1) != CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1))
        let set: Set<CGColor> = [
            CGColor(gray: 0.5, alpha: 1), CGColor(gray: 0.5, alpha: 1),
            CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1),
        ]
        #expect(set.count == 2)
    }

    @Test func rgbaExpandsGray() {
        let rgba = CGColor(gray: 0.25, alpha: 0.5).rgba
        #expect(rgba.red == 0.25 && rgba.green == 0.25 && rgba.blue == 0.25 && rgba.alpha == 0.5)
        let white = CGColor.white.rgba
        #expect(white == (1, 1, 1, 1))
    }

    @Test(
        arguments: [
            (CGColor(red: 1.5, green: -0.5, blue: 0.5, alpha: 2), 1.0, 0.0, 0.5, 1.0),
            (CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4), 0.1, 0.2, 0.3, 0.4),
            (CGColor(gray: 3, alpha: -1), 1.0, 1.0, 1.0, 0.0),
        ] as [(CGColor, Double, Double, Double, Double)])
    func rgbaClampsButStorageDoesNot(_ c: CGColor, _ r: Double, _ g: Double, _ b: Double, _ a: Double) {
        let rgba = c.rgba
        #expect(rgba == (r, g, b, a))
    }

    @Test func componentsAreStoredUnclamped() {
        let c = CGColor(red: 1.5, green: -0.5, blue: 0.5, alpha: 2)
        #expect(c.components == [1.5, -0.5, 0.5, 2])
        #expect(c.alpha == 2)
    }

    @Test func nanComponentsAreAllowed() {
        let c = CGColor(red: .nan, green: 0, blue: 0, alpha: 1)
        #expect(c.components?.first?.isNaN == true)
        #expect(c.rgba.red.isNaN)
        // Equality stays reflexive, and NaN matches NaN.
        #expect(c == c)
        #expect(c == CGColor(red: .nan, green: 0, blue: 0, alpha: 1))
        #expect(Set([c, CGColor(red: .nan, green: 0, blue: 0, alpha: 1)]).count == 1)
        #expect(c != CGColor(red: 0, green: 0, blue: 0, alpha: 1))
    }

    @Test func rgbaInitRoundTrips() {
        let c = CGColor(rgba: (red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))
        #expect(c == CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))
        #expect(c.rgba == (0.1, 0.2, 0.3, 0.4))
        #expect(c.numberOfComponents == 4)
    }

    @Test func description() {
        #expect(CGColor(gray: 0, alpha: 1).description == "CGColor(gray: 0.0 1.0)")
        #expect(CGColor(red: 1, green: 0.5, blue: 0, alpha: 1).description == "CGColor(rgb: 1.0 0.5 0.0 1.0)")
    }
}
