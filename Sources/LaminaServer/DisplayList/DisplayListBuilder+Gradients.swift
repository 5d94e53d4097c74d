import Foundation
import LaminaCore

/// Gradients: a `CAGradientLayer`'s colours, drawn by the `gradient` draw kind over the layer's
/// background and under its contents, shaped by its rounded bounds whether or not it masks to them
/// (Apple: "Draws a color gradient over its background color, filling the shape of the layer
/// (including rounded corners)").
///
/// Nothing is drawn with fewer than two colours, a `locations` count other than that of `colors`, an
/// axial gradient whose points coincide, or a radial one whose points share an x or a y (a zero
/// radius, as on Apple platforms). Locations are made non-decreasing (and kept within ±60,000); ones
/// outside 0...1 place stops beyond the start or end point, as a sliding shimmer's do. Each
/// instance carries eight stops; a gradient with more is drawn as several instances, and one with more
/// than `maxGradientStops` is first resampled to that many evenly spaced stops of the same colour
/// function.
extension DisplayListBuilder {
    /// Stops one `GradientInstance` carries.
    static let gradientStopsPerInstance = 8
    /// The most stops drawn; longer gradients are resampled to this many (at most 9 instances).
    static let maxGradientStops = 64

    /// A gradient's stops as drawn: locations non-decreasing, with unpremultiplied colours.
    struct GradientStop: Equatable {
        var location: Double
        var color: RGBAColor
    }

    /// The stops a gradient layer draws, or nil when it draws nothing (fewer than two colours, or a
    /// locations count other than the colours').
    static func gradientStops(_ gradient: GradientLayerState) -> [GradientStop]? {
        guard let colors = gradient.colors, colors.count >= 2 else { return nil }
        let count = colors.count
        let locations = gradient.locations ?? (0..<count).map { Double($0) / Double(count - 1) }
        guard locations.count == count else { return nil }
        var stops: [GradientStop] = []
        var previous = -60_000.0
        for (location, color) in zip(locations, colors) {
            let clamped = location.isNaN ? previous : min(max(location, previous), 60_000)
            stops.append(GradientStop(location: clamped, color: color))
            previous = clamped
        }
        guard stops.count > maxGradientStops else { return stops }
        // Resampled evenly between the first and last location, colours as the shader mixes them.
        let first = stops[0].location, last = stops[stops.count - 1].location
        return (0..<maxGradientStops).map { i in
            let t = first + (last - first) * Double(i) / Double(maxGradientStops - 1)
            return GradientStop(location: t, color: color(of: stops, at: t))
        }
    }

    /// The colour of `stops` at `t`, unpremultiplied, as `gradient.frag` computes it.
    static func color(of stops: [GradientStop], at t: Double) -> RGBAColor {
        guard t > stops[0].location else { return stops[0].color }
        for i in 0..<(stops.count - 1) where t < stops[i + 1].location {
            let (a, b) = (stops[i], stops[i + 1])
            let k = b.location > a.location ? (t - a.location) / (b.location - a.location) : 1
            guard case .color(let c?) = AnimationValue.interpolate(.color(a.color), .color(b.color), k) else {
                return a.color
            }
            return c
        }
        return stops[stops.count - 1].color
    }

    /// Draws the gradient of gradient layer `state`, clipped by `clip` (the superlayer's: the layer's
    /// own rounded bounds shape it in the shader).
    mutating func drawGradient(
        _ state: LayerState, radius: CGFloat, opacity: Double, toDevice m: CATransform3D, clip: Clip
    ) {
        let gradient = state.gradient
        let b = state.bounds
        guard !b.isEmpty, let stops = Self.gradientStops(gradient) else { return }
        func inLayer(_ u: CGPoint) -> CGPoint { CGPoint(x: b.minX + u.x * b.width, y: b.minY + u.y * b.height) }
        let start = inLayer(gradient.startPoint), end = inLayer(gradient.endPoint)
        // The type, and what the shaders need of the end point: axial, the axis over its squared
        // length; radial, the reciprocals of the half axes; conic, the start angle.
        let type: Float
        let shape: (CGFloat, CGFloat)
        let axis = (end.x - start.x, end.y - start.y)
        switch gradient.type {
        case .radial:
            guard gradient.startPoint.x != gradient.endPoint.x, gradient.startPoint.y != gradient.endPoint.y else {
                return
            }
            type = 1
            shape = (1 / abs(axis.0), 1 / abs(axis.1))
        case .conic:
            type = 2
            shape = (axis.0 == 0 && axis.1 == 0 ? 0 : atan2(axis.1, axis.0), 0)
        default:
            let squared = axis.0 * axis.0 + axis.1 * axis.1
            guard squared > 0, squared.isFinite else { return }
            type = 0
            shape = (axis.0 / squared, axis.1 / squared)
        }
        guard shape.0.isFinite, shape.1.isFinite else { return }
        let alpha = RGBAColor.onEightBitStep(opacity)
        guard alpha > 0, let box = Self.deviceBoundingBox(b, m), box.intersects(clip.deviceRect) else { return }
        let scale = max(1e-6, min(hypot(m.m11, m.m12), hypot(m.m21, m.m22)) / max(abs(m.m44), 1e-6))
        let margin = min(1.5 / scale, max(b.width, b.height) + 1)
        func v(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> SIMD4<Float> {
            SIMD4(Float(a), Float(b), Float(c), Float(d))
        }
        // One general clip rides along (the innermost); an outer one cuts to its device box, already in
        // the device rectangle (docs/architecture.md, "Known limits").
        let general = clip.general.last
        let per = Self.gradientStopsPerInstance
        var first = 0
        while first < stops.count - 1 {
            let lastIndex = min(first + per - 1, stops.count - 1)
            let chunk = Array(stops[first...lastIndex])
            let from: Float = first == 0 ? -.greatestFiniteMagnitude : Float(chunk[0].location)
            let to: Float =
                lastIndex == stops.count - 1 ? .greatestFiniteMagnitude : Float(chunk[chunk.count - 1].location)
            let instance = GradientInstance(
                row1: v(m.m11, m.m12, m.m13, m.m14), row2: v(m.m21, m.m22, m.m23, m.m24),
                row4: v(m.m41, m.m42, m.m43, m.m44),
                piece: v(b.minX - margin, b.minY - margin, b.maxX + margin, b.maxY + margin),
                rect: v(b.minX, b.minY, b.maxX, b.maxY),
                params: SIMD4(
                    Float(radius),
                    Self.maskValue(state.maskedCorners.rawValue, continuous: Self.isContinuous(state))
                        + Float(32 * Self.hardEdges(state)),
                    general == nil ? 0 : 1, type),
                points: v(start.x, start.y, shape.0, shape.1),
                deviceClip: v(clip.deviceRect.minX, clip.deviceRect.minY, clip.deviceRect.maxX, clip.deviceRect.maxY),
                clip: general ?? .none, range: SIMD4(from, to, alpha, Float(chunk.count)),
                locations: Self.packedLocations(chunk), colorsLow: Self.packedColors(chunk, from: 0),
                colorsHigh: Self.packedColors(chunk, from: 4))
            emit(instance, kind: DrawKind.gradient.id, box: box.insetBy(dx: -2, dy: -2).intersection(clip.deviceRect))
            first = lastIndex
        }
        batcher.endGroup()
    }

    /// Up to eight locations as half-precision floats (`unpackHalf2x16`), two a word, the first in
    /// the low half.
    static func packedLocations(_ stops: [GradientStop]) -> SIMD4<UInt32> {
        var words = SIMD4<UInt32>(repeating: 0)
        for (i, stop) in stops.prefix(8).enumerated() {
            let value = UInt32(Float16(Float(stop.location)).bitPattern)
            words[i / 2] |= value << (16 * UInt32(i % 2))
        }
        return words
    }

    /// Four colours from index `from` as unpremultiplied 8-bit RGBA words, red in the low byte.
    static func packedColors(_ stops: [GradientStop], from: Int) -> SIMD4<UInt32> {
        var words = SIMD4<UInt32>(repeating: 0)
        for i in 0..<4 where from + i < stops.count {
            let c = stops[from + i].color
            let bytes = [c.red, c.green, c.blue, c.alpha].map { UInt32((min(max($0, 0), 1) * 255).rounded()) }
            words[i] = bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24
        }
        return words
    }
}
