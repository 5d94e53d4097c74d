import Foundation
import LaminaCore

/// The Gaussian blur of a shadow raster: the coverage Cairo drew for a `shadowPath` that has no
/// closed form, blurred on the frame worker before it is imported (`ShapeRasterCache`,
/// `DisplayListBuilder+Shadows.swift`).
///
/// The raster is one colour (the shape's fill), so only its alpha is blurred, by a separable kernel
/// of the Gaussian sampled at whole pixels out to three standard deviations and normalised; the
/// colour channels are then the fill colour premultiplied by the blurred alpha. Outside the raster
/// counts as empty: the raster's margin holds the blur. The builder keeps the standard deviation at
/// most `maxSigma` pixels by drawing a large blur's raster smaller (downsampling), so the kernel has at
/// most 25 taps. Pure: it touches no shared state.
enum ShadowBlur {
    /// The largest standard deviation, in raster pixels, the builder asks for.
    static let maxSigma = 4.0

    /// The kernel for `sigma` pixels: weights for offsets −r...r, summing to 1.
    static func kernel(sigma: Double) -> [Float] {
        let r = max(1, Int((3 * sigma).rounded(.up)))
        let weights = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        return weights.map { Float($0 / total) }
    }

    /// `v` in 0...1, NaN as 0: an animated colour can leave the range, or compute a NaN from finite
    /// values (a fuzzer found one), and must draw rather than trap in the conversion to bytes.
    static func unit(_ v: Double) -> Float {
        v.isNaN ? 0 : Float(min(max(v, 0), 1))
    }

    /// `pixels` (premultiplied BGRA, `width` × `height`, one colour `color`) with its alpha blurred by
    /// a Gaussian of `sigma` pixels; unchanged when `sigma` is not above 0.
    static func blurred(_ pixels: [UInt8], width: Int, height: Int, sigma: Double, color: RGBAColor) -> [UInt8] {
        guard sigma > 0, sigma.isFinite, width > 0, height > 0, pixels.count == width * height * 4 else {
            return pixels
        }
        let weights = kernel(sigma: min(sigma, maxSigma))
        let r = weights.count / 2
        var alpha = [Float](repeating: 0, count: width * height)
        for i in 0..<(width * height) { alpha[i] = Float(pixels[i * 4 + 3]) / 255 }
        var across = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = y * width
            for x in 0..<width {
                var sum: Float = 0
                for k in max(-r, -x)...min(r, width - 1 - x) { sum += weights[k + r] * alpha[row + x + k] }
                across[row + x] = sum
            }
        }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        // The raster's alpha already carries the colour's alpha; the premultiplied channels are the
        // colour's unpremultiplied components times it.
        let (b, g, red) = (unit(color.blue), unit(color.green), unit(color.red))
        for y in 0..<height {
            for x in 0..<width {
                var sum: Float = 0
                for k in max(-r, -y)...min(r, height - 1 - y) { sum += weights[k + r] * across[(y + k) * width + x] }
                let a = sum.isNaN ? 0 : min(max(sum, 0), 1)
                let p = (y * width + x) * 4
                out[p] = UInt8((b * a * 255).rounded())
                out[p + 1] = UInt8((g * a * 255).rounded())
                out[p + 2] = UInt8((red * a * 255).rounded())
                out[p + 3] = UInt8((a * 255).rounded())
            }
        }
        return out
    }
}
