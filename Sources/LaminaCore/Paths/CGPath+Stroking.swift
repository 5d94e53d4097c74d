import Foundation

extension CGPath {
    /// The outline of the path's stroke, as Core Graphics' `copy(strokingWithWidth:…)` returns it:
    /// a path that, filled with the winding rule, covers what stroking the path would.
    ///
    /// Every subpath with a line, curve or close is stroked: an open one gives one closed ring
    /// with `lineCap` at both ends, a closed one two rings (outside and inside) joined all round.
    /// `lineJoin` shapes the corners between elements (a miter longer than `miterLimit` times the
    /// width is bevelled, as Apple's is); within a curve the outline is smooth. A subpath whose
    /// points all coincide gives a disc (round cap), an axis-aligned square (square cap) or
    /// nothing (butt). Curves, round joins and round caps are flattened to lines within 0.01 (or a
    /// sixteenth of the width, if less) of the true outline, where Apple's outline keeps curves.
    /// `transform` maps the outline's points ("applies the transformation to the elements of the
    /// converted path", Apple). A width that is not positive and finite gives an empty path.
    public func copy(
        strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin, miterLimit: CGFloat,
        transform: CGAffineTransform = .identity
    ) -> CGPath {
        guard lineWidth > 0, lineWidth.isFinite else { return CGPath(pathElements: []) }
        let stroker = PathStroker(
            halfWidth: Double(lineWidth) / 2, cap: lineCap, join: lineJoin, miterLimit: Double(miterLimit),
            tolerance: min(0.01, Double(lineWidth) / 16))
        let elements = PathSubpath.split(pathElements).flatMap { stroker.outline($0) }
        return CGPath(pathElements: elements.map { $0.applying(transform) })
    }
}
