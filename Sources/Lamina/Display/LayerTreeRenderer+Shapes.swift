import Foundation

extension LayerTreeRenderer {
    /// Draws a shape layer's path as the server does: filled with `fillColor` by `fillRule`, then
    /// stroked with `strokeColor` (width, cap, join, miter limit, dashes anchored to the whole path)
    /// over the part between `strokeStart` and `strokeEnd`; above the contents, under the sublayers, not
    /// clipped to the bounds unless `clip` (the rounded bounds, for `masksToBounds`) is given.
    static func drawShape(_ layer: CAShapeLayer, in ctx: CGContext, alpha: CGFloat, clip: CGPath?) {
        guard let path = layer.path else { return }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        if let clip {
            ctx.addPath(clip)
            ctx.clip()
        }
        if let fill = layer.fillColor, fill.alpha > 0 {
            ctx.saveGState()
            ctx.setAlpha(alpha)
            ctx.setFillColor(fill)
            ctx.addPath(path)
            ctx.fillPath(using: layer.fillRule == .evenOdd ? .evenOdd : .winding)
            ctx.restoreGState()
        }
        guard let stroke = layer.strokeColor, stroke.alpha > 0, layer.lineWidth > 0, layer.lineWidth.isFinite else {
            return
        }
        let pieces = path.trimmedPieces(from: Double(layer.strokeStart), to: Double(layer.strokeEnd))
        guard !pieces.isEmpty else { return }
        ctx.saveGState()
        ctx.setAlpha(alpha)
        ctx.setStrokeColor(stroke)
        ctx.setLineWidth(layer.lineWidth)
        ctx.setMiterLimit(layer.miterLimit)
        ctx.setLineCap(layer.lineCap == .round ? .round : layer.lineCap == .square ? .square : .butt)
        ctx.setLineJoin(layer.lineJoin == .round ? .round : layer.lineJoin == .bevel ? .bevel : .miter)
        let dashes = (layer.lineDashPattern ?? []).map { CGFloat($0.doubleValue) }
        let dashed = !dashes.isEmpty && dashes.allSatisfy { $0 >= 0 && $0.isFinite } && dashes.contains { $0 > 0 }
        for piece in pieces {
            // A trimmed piece keeps the dash pattern where the whole path would have it.
            if dashed { ctx.setLineDash(phase: layer.lineDashPhase + CGFloat(piece.offset), lengths: dashes) }
            ctx.addPath(piece.path)
            ctx.strokePath()
        }
        ctx.restoreGState()
    }
}
