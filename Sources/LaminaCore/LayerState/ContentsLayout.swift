import Foundation

/// Where a layer's contents image lies in its bounds: the rules of `contentsGravity`,
/// `contentsScale`, `contentsRect` and `contentsCenter`, shared by the render server's display lists
/// and the client's `render(in:)`, so both place an image the same way.
///
/// Apple defines the vertical gravities (`top`, `bottom` and the corners) in the unflipped, y-up sense:
/// `top` is the edge at the layer's maximum y. The image itself is drawn with its first row at the
/// layer's minimum y, or at its maximum y when the layer's contents are flipped (`flipped`).
public enum ContentsLayout {
    /// One rectangle of a layer's contents: where it lies in the layer and which part of the image it
    /// shows.
    public struct Piece: Equatable, Sendable {
        /// The rectangle in layer coordinates.
        public var rect: CGRect
        /// The normalized texture coordinate at `rect.minX`.
        public var u0: CGFloat
        /// The normalized texture coordinate at `rect.minY`.
        public var v0: CGFloat
        /// The normalized texture coordinate at `rect.maxX`.
        public var u1: CGFloat
        /// The normalized texture coordinate at `rect.maxY` (below `v0` when the image is mirrored).
        public var v1: CGFloat
        /// The sides that are outer edges of the contents, anti-aliased where they do not lie on whole
        /// device pixels: minX, minY, maxX, maxY.
        public var outer: SIMD4<Float>

        /// A piece showing texture coordinates `u0`…`u1`, `v0`…`v1` over `rect`, with `outer` edges.
        public init(rect: CGRect, u0: CGFloat, v0: CGFloat, u1: CGFloat, v1: CGFloat, outer: SIMD4<Float>) {
            self.rect = rect
            self.u0 = u0
            self.v0 = v0
            self.u1 = u1
            self.v1 = v1
            self.outer = outer
        }

        /// The texture coordinate at layer position `x` (`rect`'s linear mapping, extended).
        public func u(at x: CGFloat) -> CGFloat { u0 + (x - rect.minX) / rect.width * (u1 - u0) }
        /// The texture coordinate at layer position `y`.
        public func v(at y: CGFloat) -> CGFloat { v0 + (y - rect.minY) / rect.height * (v1 - v0) }
    }

    /// Whether `gravity` places the image at its natural size (pinned to an edge, a corner or the
    /// centre) rather than scaling it.
    public static func isPositionBased(_ gravity: CALayerContentsGravity) -> Bool {
        switch gravity {
        case .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight: true
        default: false
        }
    }

    /// The rectangle, in layer coordinates, that the shown part of the image (`contentsRect`) fills
    /// before any cropping: its point size is its pixel size over `scale`. Unknown gravity names
    /// resize, like `resize`. Vertical gravities follow Apple's y-up sense (`top` at maximum y).
    public static func gravityRect(
        bounds: CGRect, width: Int, height: Int, scale: CGFloat, gravity: CALayerContentsGravity,
        contentsRect: CGRect
    ) -> CGRect {
        let scale = scale.isFinite && scale > 0 ? scale : 1
        let w = CGFloat(width) * abs(contentsRect.width) / scale
        let h = CGFloat(height) * abs(contentsRect.height) / scale
        switch gravity {
        case .resizeAspect, .resizeAspectFill:
            guard w > 0, h > 0 else { return bounds }
            let sx = bounds.width / w, sy = bounds.height / h
            let s = gravity == .resizeAspect ? min(sx, sy) : max(sx, sy)
            return CGRect(x: bounds.midX - w * s / 2, y: bounds.midY - h * s / 2, width: w * s, height: h * s)
        case _ where isPositionBased(gravity):
            let x: CGFloat
            switch gravity {
            case .left, .topLeft, .bottomLeft: x = bounds.minX
            case .right, .topRight, .bottomRight: x = bounds.maxX - w
            default: x = bounds.midX - w / 2
            }
            let y: CGFloat
            switch gravity {
            case .top, .topLeft, .topRight: y = bounds.maxY - h
            case .bottom, .bottomLeft, .bottomRight: y = bounds.minY
            default: y = bounds.midY - h / 2
            }
            return CGRect(x: x, y: y, width: w, height: h)
        default:
            return bounds
        }
    }

    /// The pieces that draw an image of `width`×`height` pixels in `bounds`: the gravity's rectangle,
    /// cut in nine by `contentsCenter` (the edges keep their point size and the centre stretches; when
    /// the rectangle is smaller than the two fixed edges together, both shrink in proportion), cropped
    /// to the bounds for position-based gravities, each showing its part of `contentsRect`.
    public static func pieces(
        bounds: CGRect, width: Int, height: Int, scale: CGFloat, gravity: CALayerContentsGravity,
        contentsRect: CGRect, contentsCenter: CGRect, flipped: Bool
    ) -> [Piece] {
        let values = [
            bounds.minX, bounds.minY, bounds.width, bounds.height, contentsRect.minX, contentsRect.minY,
            contentsRect.width, contentsRect.height, contentsCenter.minX, contentsCenter.minY,
            contentsCenter.width, contentsCenter.height, scale,
        ]
        guard values.allSatisfy(\.isFinite), contentsRect.width != 0, contentsRect.height != 0 else { return [] }
        let drawn = gravityRect(
            bounds: bounds, width: width, height: height, scale: scale, gravity: gravity,
            contentsRect: contentsRect)
        // Far beyond any display (a hostile contentsRect or scale): nothing a device could show.
        let limit: CGFloat = 1e9
        guard !drawn.isEmpty, abs(drawn.minX) < limit, abs(drawn.minY) < limit, drawn.width < limit,
            drawn.height < limit
        else { return [] }
        let region = isPositionBased(gravity) ? drawn.intersection(bounds) : drawn
        guard !region.isNull, !region.isEmpty else { return [] }
        // The fixed edges in points: the shown image's point size times the centre's unit margins.
        let center = contentsCenter.standardized
        let cx0 = min(max(center.minX, 0), 1), cx1 = min(max(center.maxX, cx0), 1)
        let cy0 = min(max(center.minY, 0), 1), cy1 = min(max(center.maxY, cy0), 1)
        let scale = scale > 0 ? scale : 1
        let w = CGFloat(width) * abs(contentsRect.width) / scale
        let h = CGFloat(height) * abs(contentsRect.height) / scale
        func edges(_ lead: CGFloat, _ trail: CGFloat, span: CGFloat) -> (CGFloat, CGFloat) {
            let total = lead + trail
            guard total > span, total > 0 else { return (lead, trail) }
            return (lead * span / total, trail * span / total)
        }
        let (left, right) = edges(cx0 * w, (1 - cx1) * w, span: drawn.width)
        let (top, bottom) = edges(cy0 * h, (1 - cy1) * h, span: drawn.height)
        // Breaks along each axis: layer positions and the unit image coordinates they show.
        let xs = [drawn.minX, drawn.minX + left, drawn.maxX - right, drawn.maxX]
        let us = [0, cx0, cx1, 1]
        let ys =
            flipped
            ? [drawn.maxY, drawn.maxY - top, drawn.minY + bottom, drawn.minY]
            : [drawn.minY, drawn.minY + top, drawn.maxY - bottom, drawn.maxY]
        let vs = [0, cy0, cy1, 1]
        func texU(_ u: CGFloat) -> CGFloat { contentsRect.minX + u * contentsRect.width }
        func texV(_ v: CGFloat) -> CGFloat { contentsRect.minY + v * contentsRect.height }
        var pieces: [Piece] = []
        for j in 0..<3 {
            let ya = ys[j], yb = ys[j + 1]
            guard abs(yb - ya) > 0 else { continue }
            for i in 0..<3 {
                let xa = xs[i], xb = xs[i + 1]
                guard xb - xa > 0 else { continue }
                let (minY, maxY) = ya < yb ? (ya, yb) : (yb, ya)
                let (vMin, vMax) = ya < yb ? (vs[j], vs[j + 1]) : (vs[j + 1], vs[j])
                var piece = Piece(
                    rect: CGRect(x: xa, y: minY, width: xb - xa, height: maxY - minY),
                    u0: texU(us[i]), v0: texV(vMin), u1: texU(us[i + 1]), v1: texV(vMax), outer: .zero)
                let cut = piece.rect.intersection(region)
                guard !cut.isNull, !cut.isEmpty else { continue }
                piece = Piece(
                    rect: cut, u0: piece.u(at: cut.minX), v0: piece.v(at: cut.minY), u1: piece.u(at: cut.maxX),
                    v1: piece.v(at: cut.maxY),
                    outer: SIMD4(
                        cut.minX == region.minX ? 1 : 0, cut.minY == region.minY ? 1 : 0,
                        cut.maxX == region.maxX ? 1 : 0, cut.maxY == region.maxY ? 1 : 0))
                pieces.append(piece)
            }
        }
        return pieces
    }
}
