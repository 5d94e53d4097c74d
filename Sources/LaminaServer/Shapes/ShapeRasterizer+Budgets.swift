import Foundation
import LaminaCore

/// What bounds the work of drawing one shape, whatever a client sends: Cairo's flattening tolerance
/// grows with the size of the drawing, a drawing spanning more than `maximumSpan` pixels is not drawn,
/// and a stroke whose dashes or measuring would be too many is drawn solid or untrimmed.
extension ShapeRasterizer {
    /// The most device pixels (or, for measuring extents, layer units) the box of a shape's control
    /// points, grown by its stroke, may span; Cairo's fixed-point coordinates end at 2²³.
    static let maximumSpan = 4_194_304.0
    /// Cairo's flattening tolerance as a fraction of the drawing's span (0.1 pixel, Cairo's default,
    /// up to spans of 2,000 pixels): a curve is cut into at most a few hundred chords.
    static let relativeTolerance = 1.0 / 20_000
    /// The most dashes a stroke is cut into; a finer pattern draws the stroke solid (as Core
    /// Graphics leaves a subpath of too many periods undashed).
    static let maximumDashes = 100_000
    /// The most chords measuring a path for trimming or dashing may take.
    static let maximumMeasuringSteps = 1_000_000

    /// How far the shape's drawing reaches under `t`: the larger side of the box of its path's control
    /// points mapped by `t`, grown by the stroke's reach (half the width, times the miter limit for
    /// miter joins, √2 for square caps) scaled by `t`. Nil when it is not finite.
    static func span(of shape: ShapeLayerState, path: CGPath, transform t: CGAffineTransform) -> Double? {
        let box = path.boundingBox.applying(t)
        guard !box.isNull, box.width.isFinite, box.height.isFinite else { return nil }
        var reach = 0.0
        if strokes(shape) {
            var factor = 1.0
            if shape.lineJoin != .round && shape.lineJoin != .bevel { factor = max(factor, Double(shape.miterLimit)) }
            if shape.lineCap == .square { factor = max(factor, 2.0.squareRoot()) }
            let scale = max(hypot(Double(t.a), Double(t.b)), hypot(Double(t.c), Double(t.d)))
            reach = Double(shape.lineWidth) / 2 * factor * scale
        }
        let span = max(Double(box.width), Double(box.height)) + 2 * reach
        return span.isFinite ? span : nil
    }

    /// Cairo's tolerance for a drawing that spans `span` pixels.
    static func tolerance(forSpan span: Double) -> Double { max(0.1, span * relativeTolerance) }

    /// The tolerance trimming measures a path with: 0.01 layer units, coarser for a path so large that
    /// measuring it so finely would take more than `maximumMeasuringSteps` chords.
    static func measuringTolerance(_ path: CGPath) -> Double {
        let box = path.boundingBox
        let size = max(Double(box.width), Double(box.height))
        return max(0.01, size.isFinite ? size * 1e-5 : 0.01)
    }

    /// Whether `pattern` may dash `path`: not more than `maximumDashes` periods along its control
    /// polygon (never shorter than the path), and a path the dasher can measure within its budget.
    static func mayDash(_ path: CGPath, pattern: [Double]) -> Bool {
        let period = pattern.reduce(0, +) * (pattern.count % 2 == 1 ? 2 : 1)
        guard period > 0, period.isFinite else { return false }
        let periods = path.controlPolygonLength / period
        guard periods.isFinite, periods <= Double(maximumDashes) else { return false }
        return path.measuringSteps(tolerance: 0.001) <= maximumMeasuringSteps
    }
}
