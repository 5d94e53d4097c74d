import Foundation
import LaminaCore
import Testing

/// Core Graphics' constants with Apple's raw values, so code that stores or compares them (or
/// builds a `CGBitmapInfo` from an alpha's raw value) ports unchanged. The values are those of
/// Apple's headers: `CGPath.h` (line cap and join), `CGContext.h` (interpolation quality, blend
/// mode), `CGColorSpace.h` (rendering intent) and `CGImage.h` (alpha info, bitmap info).
@Suite struct CoreGraphicsConstantsTests {
    @Test func strokeConstants() {
        #expect([CGLineCap.butt, .round, .square].map(\.rawValue) == [0, 1, 2])
        #expect([CGLineJoin.miter, .round, .bevel].map(\.rawValue) == [0, 1, 2])
    }

    @Test func interpolationQualityPutsMediumAfterHigh() {
        // CGContext.h: kCGInterpolationDefault 0, None 1, Low 2, High 3, Medium 4.
        #expect([CGInterpolationQuality.default, .none, .low, .high, .medium].map(\.rawValue) == [0, 1, 2, 3, 4])
    }

    @Test func renderingIntents() {
        let intents: [CGColorRenderingIntent] = [
            .defaultIntent, .absoluteColorimetric, .relativeColorimetric, .perceptual, .saturation,
        ]
        #expect(intents.map(\.rawValue) == [0, 1, 2, 3, 4])
    }

    @Test func blendModesAreNumberedAsInCGContextH() {
        // kCGBlendModeNormal 0 … kCGBlendModeLuminosity 15, then Clear 16 … PlusLighter 27.
        #expect(CGBlendMode.normal.rawValue == 0)
        #expect(CGBlendMode.luminosity.rawValue == 15)
        #expect(CGBlendMode.clear.rawValue == 16)
        #expect(CGBlendMode.copy.rawValue == 17)
        #expect(CGBlendMode.xor.rawValue == 25)
        #expect(CGBlendMode.plusLighter.rawValue == 27)
        #expect((0...27).allSatisfy { CGBlendMode(rawValue: $0) != nil })
        #expect(CGBlendMode(rawValue: 28) == nil)
    }

    @Test func alphaInfoAndBitmapInfo() {
        let alphas: [CGImageAlphaInfo] = [
            .none, .premultipliedLast, .premultipliedFirst, .last, .first, .noneSkipLast, .noneSkipFirst, .alphaOnly,
        ]
        #expect(alphas.map(\.rawValue) == Array(0...7))
        // CGImage.h: kCGBitmapAlphaInfoMask 0x1F, kCGBitmapFloatComponents 1 << 8,
        // kCGBitmapByteOrder32Little 2 << 12 (0x2000), kCGBitmapByteOrder32Big 4 << 12 (0x4000).
        #expect(CGBitmapInfo.alphaInfoMask.rawValue == 0x1F)
        #expect(CGBitmapInfo.floatComponents.rawValue == 0x100)
        #expect(CGBitmapInfo.byteOrderMask.rawValue == 0x7000)
        #expect(CGBitmapInfo.byteOrder32Little.rawValue == 0x2000)
        #expect(CGBitmapInfo.byteOrder32Big.rawValue == 0x4000)
        #expect(CGBitmapInfo.byteOrderDefault.rawValue == 0)
        // The usual BGRA layout: premultiplied alpha first, 32-bit little-endian (0x2002).
        let bgra = CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue).union(.byteOrder32Little)
        #expect(bgra.rawValue == 0x2002)
        #expect(bgra.alphaInfo == .premultipliedFirst)
        #expect(bgra.intersection(.byteOrderMask) == .byteOrder32Little)
    }
}
