import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import Testing

/// A layer's `filters` (spec §2.8): a `CIGaussianBlur` blurs the layer's whole drawing. Core Image's
/// Filter Reference describes `inputRadius` of `CIGaussianBlur` as the blur's radius, 10 by default;
/// Lamina (like Core Image, which computes it as a Gaussian of that standard deviation) blurs with
/// σ = `inputRadius` points (docs/apple-differences.md). Drawn by the Vulkan renderer with validation
/// on, every pixel compared with the Gaussian computed here: within 2/255 at full resolution, 3/255
/// downsampled (σ above 8 device pixels), the tolerances of `BlurPixelTests`.
@Suite(.serialized) struct FilterPixelTests {
    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// A white layer over `rect` with `filters`, optionally faded, on a `width`×`height` black display.
    static func blurredCard(
        _ rect: CGRect, filters: [LayerFilter], opacity: Float = 1, width: Int = 140, height: Int = 100,
        extra: [LayerOperation] = [], time: Double = 0, png: String
    ) throws -> OffscreenPassPixelTests.Frame {
        let ops =
            RendererTests.layer(2, frame: rect, color: Self.white, [.filters(filters), .opacity(opacity)]) + extra
        return try OffscreenPassPixelTests.draw(ops, children: [2], width: width, height: height, time: time, png: png)
    }

    /// The largest difference between the frame's red channel and `alpha` × the Gaussian-blurred
    /// coverage of `rect` with `sigma`, over the whole frame.
    static func worstError(_ frame: OffscreenPassPixelTests.Frame, rect: CGRect, sigma: Double, alpha: Double = 1)
        -> Int
    {
        var worst = 0
        for y in 0..<frame.bitmap.height {
            for x in 0..<frame.bitmap.width {
                let c =
                    BlurPixelTests.coverage(Double(x) + 0.5, rect.minX, rect.maxX, sigma: sigma)
                    * BlurPixelTests.coverage(Double(y) + 0.5, rect.minY, rect.maxY, sigma: sigma)
                let expected = Int((255 * alpha * c).rounded())
                let i = y * frame.bitmap.stride + x * 4
                worst = max(worst, abs(Int(frame.bitmap.pixels[i + 2]) - expected))
            }
        }
        return worst
    }

    static func blur(_ radius: Double, name: String = "blur") -> LayerFilter {
        LayerFilter(filterName: LayerFilter.gaussianBlurName, name: name, radius: radius)
    }

    /// A white 40×30 layer at (50, 35) with a Gaussian blur of radius 3: every pixel of the frame is
    /// within 2/255 of the square's coverage blurred with σ = 3; one content pass and two blur passes.
    @Test func gaussianBlurFilterMatchesTheGaussian() throws {
        let rect = CGRect(x: 50, y: 35, width: 40, height: 30)
        let frame = try Self.blurredCard(rect, filters: [Self.blur(3)], png: "filter-blur-3.png")
        #expect(frame.list.passes.count == 3, "the drawing's pass and two blur passes")
        let worst = Self.worstError(frame, rect: rect, sigma: 3)
        #expect(worst <= 2, "largest error \(worst)/255")
        // The blur spreads past the layer's edge: 3 pixels outside, 1 − Φ(3.5/3) of the white ≈ 31/255.
        OffscreenPassPixelTests.expect(frame, 46, 50, (31, 31, 31, 255), tolerance: 2, "outside the left edge")
    }

    /// A radius of 12 (σ above `DisplayList.directSigma`) blurs through halved passes: within 3/255.
    @Test func wideBlurFilterMatchesTheGaussian() throws {
        let rect = CGRect(x: 60, y: 40, width: 40, height: 30)
        let frame = try Self.blurredCard(
            rect, filters: [Self.blur(12)], width: 160, height: 110, png: "filter-blur-12.png")
        let worst = Self.worstError(frame, rect: rect, sigma: 12)
        #expect(worst <= 3, "largest error \(worst)/255")
    }

    /// Two blurs in a row are one blur whose variance is the sum (3 and 4 make 5); opacity 0.5 fades
    /// the blurred drawing as a whole.
    @Test func twoBlursAddTheirVariancesAndOpacityFadesTheResult() throws {
        let rect = CGRect(x: 50, y: 35, width: 40, height: 30)
        let frame = try Self.blurredCard(
            rect, filters: [Self.blur(3, name: "a"), Self.blur(4, name: "b")], opacity: 0.5,
            png: "filter-blur-3-4.png")
        let worst = Self.worstError(frame, rect: rect, sigma: 5, alpha: 0.5)
        #expect(worst <= 2, "largest error \(worst)/255")
    }

    /// A filter the server does not draw (`CIPixellate`) and a blur of radius 0 change nothing: the
    /// frame is the plain layer's, byte for byte, with no pass.
    @Test func filtersTheServerDoesNotDrawAreIgnored() throws {
        let rect = CGRect(x: 50, y: 35, width: 40, height: 30)
        let plain = try Self.blurredCard(rect, filters: [], png: "filter-none.png")
        let ignored = try Self.blurredCard(
            rect, filters: [LayerFilter(filterName: "CIPixellate", radius: 0), Self.blur(0)],
            png: "filter-ignored.png")
        #expect(ignored.list.passes.isEmpty)
        #expect(ignored.bitmap.pixels == plain.bitmap.pixels)
    }

    /// `filters.blur.inputRadius` animated linearly from 2 to 10 over one second from media time 0 on
    /// the server's clock: captured at 0.25 and 0.5, every pixel is the Gaussian at the interpolated
    /// radius (4 and 6), within 2/255.
    @Test func animatedBlurRadiusAtChosenTimes() throws {
        let record = AnimationRecord(
            timing: MediaTiming(beginTime: 0, duration: 1), timingFunction: TimingCurve(0, 0, 1, 1),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("filters.blur.inputRadius")!),
                BasicValues(from: .number(2), to: .number(10))))
        let rect = CGRect(x: 50, y: 35, width: 40, height: 30)
        for (time, sigma) in [(0.25, 4.0), (0.5, 6.0)] {
            let frame = try Self.blurredCard(
                rect, filters: [Self.blur(10)],
                extra: [.addAnimation(2, AttachedAnimation(id: 1, key: "radius", record: record))], time: time,
                png: "filter-blur-animated-\(Int(sigma)).png")
            let worst = Self.worstError(frame, rect: rect, sigma: sigma)
            #expect(worst <= 2, "t = \(time): largest error \(worst)/255 against σ = \(sigma)")
        }
    }
}
