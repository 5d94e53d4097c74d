/// A flat, axis-aligned rectangle in device pixels with one premultiplied colour: the fast primitive.
///
/// On a CPU Vulkan device these keep llvmpipe's linear rasterizer engaged (see docs/architecture.md).
/// The memory layout is the vertex shader's per-instance input (`Shaders/fill.vert`): 32 bytes.
///
/// The colour is kept on the target's 8-bit steps (a multiple of 1/255 per channel, rounded to
/// nearest). llvmpipe's linear path turns a colour into 8 bits by truncating a 16-bit fixed-point value
/// (0.95 becomes 243, not 242), while the general path rounds to nearest (242). On exact steps both give the same
/// byte; the corner and shape shaders round their output to steps by the same rule, so a fill and a
/// corner or shape piece of one colour and coverage never differ by one step (a visible seam).
public struct FillInstance: Sendable, Equatable {
    /// minX, minY, maxX, maxY in device pixels.
    public var rect: SIMD4<Float>
    /// Premultiplied RGBA on 8-bit steps (see the type's comment).
    public private(set) var color: SIMD4<Float>

    /// An instance covering `rect` with the premultiplied `color`, rounded to the nearest 8-bit step.
    public init(rect: SIMD4<Float>, color: SIMD4<Float>) {
        self.rect = rect
        self.color = Self.onEightBitSteps(color)
    }

    /// `color` rounded per channel to the nearest multiple of 1/255, halves down: `ceil(c * 255 - 0.5) / 255`
    /// in single precision, the same operations `corner.frag` and `shape.frag` end with. Halves go down
    /// as the linear path's truncation took them, so an edge pixel covered exactly half keeps its byte.
    public static func onEightBitSteps(_ color: SIMD4<Float>) -> SIMD4<Float> {
        // The ceiling without a libm call per lane (it is on the builder's hot path): convert toward
        // zero, then step up where that cut off a fraction. The clamp keeps the conversion in range
        // (`min` and `max` pass NaN through, so NaN is sent to 0 first, like every negative value); for colours in 0...1 it
        // changes nothing.
        var steps = SIMD4<Float>()
        for lane in 0..<4 {
            let x = color[lane] * 255 - 0.5
            let y = x.isNaN ? -0.5 : min(max(x, -0.5), 255)
            let t = Float(Int32(y))
            steps[lane] = t < y ? t + 1 : t
        }
        return steps / 255
    }
}
