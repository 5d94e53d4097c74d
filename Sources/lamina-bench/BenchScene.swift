// BenchScene.swift — the deterministic scene every lamina-bench renderer draws.

/// One layer of the benchmark scene, in device pixels.
///
/// Semantics follow Core Animation: the background is filled inside the rounded rect of the
/// layer's bounds, then the border ring (outer = bounds, inner = bounds inset by `borderWidth`
/// with radius `max(cornerRadius - borderWidth, 0)`) is drawn over it. `opacity` multiplies the
/// alpha of both, each blended separately (no group opacity).
struct BenchLayer {
    /// Left edge of the layer's bounds in device pixels.
    var x: Double
    /// Top edge of the layer's bounds in device pixels.
    var y: Double
    /// Width of the layer's bounds in device pixels.
    var width: Double
    /// Height of the layer's bounds in device pixels.
    var height: Double
    /// Corner radius of the bounds' rounded rect.
    var cornerRadius: Double
    /// Width of the border ring, measured inwards from the bounds.
    var borderWidth: Double
    /// Background colour, non-premultiplied sRGB components in 0...1.
    var fill: (r: Double, g: Double, b: Double, a: Double)
    /// Border colour, non-premultiplied sRGB components in 0...1.
    var border: (r: Double, g: Double, b: Double, a: Double)
    /// Layer opacity; multiplies the alpha of the background and of the border.
    var opacity: Double
}

/// Builds the benchmark scene.
enum BenchScene {
    /// Side length of every layer, in device pixels.
    static let layerSize = 100
    /// Corner radius of every layer.
    static let cornerRadius = 12.0
    /// Border width of every layer.
    static let borderWidth = 3.0
    /// Opacity of every layer.
    static let opacity = 0.5
    /// Border colour of every layer (opaque dark slate).
    static let borderColor = (r: 0.10, g: 0.11, b: 0.14, a: 1.0)

    /// `count` layers of 100×100 at deterministic pseudo-random positions inside width×height
    /// (an LCG with a fixed seed, so every renderer and every run draws the same scene), corner
    /// radius 12, border width 3, fill colours varied from the LCG with alpha 1, border colour
    /// opaque dark, opacity 0.5 on every layer.
    ///
    /// Positions are integers with x in 0...(width-100) and y in 0...(height-100), so layer edges
    /// are pixel-aligned. (If the target is smaller than a layer, the position is 0 on that axis.)
    static func layers(count: Int, width: Int, height: Int, seed: UInt64 = 42) -> [BenchLayer] {
        var rng = LCG(seed: seed)
        let xRange = UInt64(max(width - layerSize, 0)) + 1
        let yRange = UInt64(max(height - layerSize, 0)) + 1
        var result: [BenchLayer] = []
        result.reserveCapacity(max(count, 0))
        for _ in 0..<max(count, 0) {
            let x = Double(rng.next() % xRange)
            let y = Double(rng.next() % yRange)
            // Channels in 0.15...1.0 so fills stay distinguishable from the dark border.
            let r = 0.15 + 0.85 * rng.nextUnit()
            let g = 0.15 + 0.85 * rng.nextUnit()
            let b = 0.15 + 0.85 * rng.nextUnit()
            result.append(
                BenchLayer(
                    x: x, y: y, width: Double(layerSize), height: Double(layerSize),
                    cornerRadius: cornerRadius, borderWidth: borderWidth,
                    fill: (r: r, g: g, b: b, a: 1.0),
                    border: borderColor,
                    opacity: opacity))
        }
        return result
    }

    /// Knuth's MMIX 64-bit linear congruential generator; the high bits are used as output.
    private struct LCG {
        /// Current generator state.
        var state: UInt64

        /// Starts the generator from `seed`.
        init(seed: UInt64) { state = seed }

        /// Advances the state and returns its upper 32 bits (the better-distributed ones).
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 32
        }

        /// Returns a value uniformly spread over 0...1 (32-bit resolution).
        mutating func nextUnit() -> Double {
            Double(next()) / Double(UInt32.max)
        }
    }
}
