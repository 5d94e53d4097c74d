import Foundation
import Lamina
import LaminaCore
import LaminaServer
import LaminaVulkan
import Testing

/// The separable Gaussian blur of an offscreen pass (`DisplayList.appendBlur`), drawn by the Vulkan
/// renderer with validation on and compared at every pixel with the continuous Gaussian computed here:
/// a white rectangle blurred with standard deviation σ has, at a pixel centre (x, y), the value
/// 255 · F(x, x0, x1) · F(y, y0, y1), where F(t, a, b) = (erf((b − t) / σ√2) − erf((a − t) / σ√2)) / 2.
@Suite(.serialized) struct BlurPixelTests {
    /// The coverage of [a, b) blurred by a Gaussian of standard deviation `sigma`, at `t`.
    static func coverage(_ t: Double, _ a: Double, _ b: Double, sigma: Double) -> Double {
        (erf((b - t) / (sigma * 2.0.squareRoot())) - erf((a - t) / (sigma * 2.0.squareRoot()))) / 2
    }

    /// Draws `square` (device pixels) in opaque white into a pass, blurs it with `sigma` (tinted by
    /// `tint` when given) and draws the result over opaque black on a `width`×`height` display.
    /// Returns the frame's pixels and the number of passes drawn.
    static func blurred(
        _ square: DamageRect, sigma: Double, tint: SIMD4<Float>? = nil, width: Int = 160, height: Int = 120,
        png: String
    ) throws -> (Bitmap, Int) {
        var list = DisplayList(width: width, height: height, clearColor: SIMD4(0, 0, 0, 1))
        let fill = list.append(
            FillInstance(
                rect: SIMD4(
                    Float(square.x), Float(square.y), Float(square.x + square.width), Float(square.y + square.height)),
                color: SIMD4(1, 1, 1, 1)), kind: DrawKind.opaqueFill.id)
        list.passes.append(
            OffscreenPass(
                rect: DisplayList.blurPassRect(covering: square, sigma: sigma),
                batches: [DrawBatch(kind: DrawKind.opaqueFill.id, instances: [Int32(fill)])],
                image: .offscreenPass(0)))
        let blur = list.appendBlur(of: 0, sigma: sigma, tint: tint)
        let r = blur.rect
        let image = list.append(
            ImageInstance(
                rect: SIMD4(Float(r.x), Float(r.y), Float(r.x + r.width), Float(r.y + r.height)), uv: blur.uv,
                opacity: 1), kind: DrawKind.image.id)
        list.batches.append(
            DrawBatch(
                kind: DrawKind.image.id, instances: [Int32(image)],
                texture: TextureSampling(image: blur.image, filter: blur.filter)))
        return try SharedVulkanDevice.withRenderer { renderer, validation in
            let target = try renderer.makeTarget(width: width, height: height)
            try renderer.render(list, into: target)
            let bitmap = try renderer.readPixels(target)
            #expect(validation.messages.isEmpty, "validation: \(validation.messages)")
            let cg = CGImage(
                width: bitmap.width, height: bitmap.height, stride: bitmap.stride, premultipliedBGRA: bitmap.pixels)!
            try cg.writePNG(to: NSTemporaryDirectory() + png)
            return (bitmap, list.passes.count)
        }
    }

    /// The largest difference, over every pixel and colour channel, between `bitmap` and the blurred
    /// white rectangle `square` (times `tint`'s channels, blue green red) over black.
    static func largestError(
        _ bitmap: Bitmap, _ square: DamageRect, sigma: Double, tint: SIMD4<Double> = SIMD4(1, 1, 1, 1)
    ) -> Int {
        var worst = 0
        for y in 0..<bitmap.height {
            let fy = coverage(
                Double(y) + 0.5, Double(square.y), Double(square.y + square.height), sigma: sigma)
            for x in 0..<bitmap.width {
                let fx = coverage(
                    Double(x) + 0.5, Double(square.x), Double(square.x + square.width), sigma: sigma)
                let i = y * bitmap.stride + x * 4
                for (channel, weight) in [(0, tint.z), (1, tint.y), (2, tint.x)] {
                    let expected = Int((255 * fx * fy * weight).rounded())
                    worst = max(worst, abs(Int(bitmap.pixels[i + channel]) - expected))
                }
            }
        }
        return worst
    }

    /// At full resolution (σ up to `DisplayList.directSigma`): a content pass and two blur passes, every
    /// pixel within 2/255 of the continuous Gaussian.
    @Test(arguments: [2.0, 3.0, 5.0, 8.0]) func fullResolutionBlurIsGaussian(sigma: Double) throws {
        let square = DamageRect(x: 60, y: 40, width: 40, height: 30)
        let (bitmap, passes) = try Self.blurred(square, sigma: sigma, png: "blur-sigma-\(Int(sigma)).png")
        #expect(passes == 3)
        let error = Self.largestError(bitmap, square, sigma: sigma)
        #expect(error <= 2, "σ \(sigma): largest error \(error)/255")
    }

    /// Downsampled (σ beyond `directSigma`): halved log2(scale) times, blurred, drawn back bilinearly;
    /// every pixel within 3/255 of the continuous Gaussian.
    @Test(arguments: [12.0, 20.0, 32.0, 64.0]) func downsampledBlurIsGaussian(sigma: Double) throws {
        let scale = DisplayList.blurScale(sigma: sigma)
        #expect(scale == (sigma <= 16 ? 2 : sigma <= 32 ? 4 : 8))
        let square = DamageRect(x: 40, y: 30, width: 80, height: 60)
        let (bitmap, passes) = try Self.blurred(square, sigma: sigma, png: "blur-sigma-\(Int(sigma)).png")
        #expect(passes == 3 + scale.trailingZeroBitCount)
        let error = Self.largestError(bitmap, square, sigma: sigma)
        #expect(error <= 3, "σ \(sigma): largest error \(error)/255")
    }

    /// A tinted blur (a shadow's) is the blurred alpha times the tint.
    @Test func tintedBlurIsAlphaTimesTint() throws {
        let square = DamageRect(x: 60, y: 40, width: 40, height: 30)
        let tint = SIMD4<Float>(0.5, 0.25, 0, 0.5)
        let (bitmap, _) = try Self.blurred(square, sigma: 4, tint: tint, png: "blur-tinted.png")
        let error = Self.largestError(bitmap, square, sigma: 4, tint: SIMD4(0.5, 0.25, 0, 0.5))
        #expect(error <= 2, "largest error \(error)/255")
    }

    /// A hostile standard deviation is clamped: infinite, huge or negative ones cost at most
    /// log2(8) + 2 passes and `3 · directSigma` taps on each side.
    @Test func hostileSigmaIsBounded() {
        for sigma in [Double.infinity, 1e12, -5, .nan] {
            var list = DisplayList(width: 10, height: 10)
            let rect = DisplayList.blurPassRect(covering: DamageRect(x: 0, y: 0, width: 4, height: 4), sigma: sigma)
            list.passes.append(OffscreenPass(rect: rect, batches: [], image: .offscreenPass(0)))
            _ = list.appendBlur(of: 0, sigma: sigma)
            #expect(list.passes.count <= 1 + 3 + 2, "σ \(sigma)")
            let taps = list.instances(of: DrawKind.blur, as: BlurInstance.self).map { Int($0.params.w) }
            #expect(taps.allSatisfy { $0 <= 3 * Int(DisplayList.directSigma) }, "σ \(sigma): \(taps)")
        }
    }
}
