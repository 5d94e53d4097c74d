import Foundation

/// A 2D affine transformation matrix, mirroring Core Graphics' `CGAffineTransform`.
///
/// The matrix is the 3×3 matrix `[a b 0; c d 0; tx ty 1]` used with row vectors, so a point
/// `(x, y)` maps to `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`. `t1.concatenating(t2)` applies
/// `t1` first and then `t2` (the row-vector product `t1 · t2`).
public struct CGAffineTransform: Sendable, Equatable, Hashable, Codable {
    /// The entry at row 1, column 1: the x contribution to x'.
    public var a: CGFloat
    /// The entry at row 1, column 2: the x contribution to y'.
    public var b: CGFloat
    /// The entry at row 2, column 1: the y contribution to x'.
    public var c: CGFloat
    /// The entry at row 2, column 2: the y contribution to y'.
    public var d: CGFloat
    /// The x translation (row 3, column 1).
    public var tx: CGFloat
    /// The y translation (row 3, column 2).
    public var ty: CGFloat

    /// Creates an all-zero transform.
    ///
    /// Like the C struct's zero initialiser on Apple platforms, this is *not* the identity; use
    /// `CGAffineTransform.identity` for that.
    public init() {
        self.init(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0)
    }

    /// Creates a transform from its six entries.
    ///
    /// Points map as `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// Creates a transform from its six entries, given without labels.
    ///
    /// Equivalent to `init(a:b:c:d:tx:ty:)`; mirrors the unlabelled initialiser of Apple's overlay.
    public init(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) {
        self.init(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }

    /// The identity transform: `a = d = 1`, everything else 0.
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Creates a transform that translates by `(tx, ty)`.
    public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// Creates a transform that scales x by `sx` and y by `sy`.
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Creates a transform that rotates by `angle` radians.
    ///
    /// `a = cos angle`, `b = sin angle`, `c = -sin angle`, `d = cos angle`: the point (1, 0) maps to
    /// (cos angle, sin angle), counter-clockwise in a y-up coordinate system.
    public init(rotationAngle angle: CGFloat) {
        let s = sin(angle)
        let co = cos(angle)
        self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    /// Whether this transform is exactly the identity.
    public var isIdentity: Bool {
        self == .identity
    }

    /// Returns a transform that translates by `(tx, ty)` first and then applies `self`.
    ///
    /// Equals `CGAffineTransform(translationX: tx, y: ty).concatenating(self)`, as on Apple platforms.
    public func translatedBy(x tx: CGFloat, y ty: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: tx, y: ty).concatenating(self)
    }

    /// Returns a transform that scales by `(sx, sy)` first and then applies `self`.
    ///
    /// Equals `CGAffineTransform(scaleX: sx, y: sy).concatenating(self)`, as on Apple platforms.
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: sx, y: sy).concatenating(self)
    }

    /// Returns a transform that rotates by `angle` radians first and then applies `self`.
    ///
    /// Equals `CGAffineTransform(rotationAngle: angle).concatenating(self)`, as on Apple platforms.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// Returns the inverse transform, or `self` unchanged when it cannot be inverted.
    ///
    /// A transform is not invertible when its determinant `a·d − b·c` is zero or not finite, or when
    /// the inverse would contain non-finite entries; Apple returns the input unchanged in that case.
    public func inverted() -> CGAffineTransform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return self }
        let ia = d / det
        let ib = -b / det
        let ic = -c / det
        let id = a / det
        let itx = -(tx * ia + ty * ic)
        let ity = -(tx * ib + ty * id)
        let result = CGAffineTransform(a: ia, b: ib, c: ic, d: id, tx: itx, ty: ity)
        guard [ia, ib, ic, id, itx, ity].allSatisfy(\.isFinite) else { return self }
        return result
    }

    /// Returns the transform that applies `self` first and then `t2`.
    ///
    /// This is the row-vector matrix product `self · t2`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * t2.a + b * t2.c,
            b: a * t2.b + b * t2.d,
            c: c * t2.a + d * t2.c,
            d: c * t2.b + d * t2.d,
            tx: tx * t2.a + ty * t2.c + t2.tx,
            ty: tx * t2.b + ty * t2.d + t2.ty)
    }
}

extension CGPoint {
    /// Returns this point transformed by `t`: `(a·x + c·y + tx, b·x + d·y + ty)`.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// Returns this size transformed by `t`, ignoring the translation.
    ///
    /// The result is `(a·width + c·height, b·width + d·height)` and may be negative, as on Apple.
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// Returns the smallest rectangle containing the four transformed corners of this rectangle.
    ///
    /// The rectangle is standardised first (negative sizes allowed). A null rectangle stays null.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNull { return self }
        let corners = [
            CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY),
            CGPoint(x: minX, y: maxY), CGPoint(x: maxX, y: maxY),
        ].map { $0.applying(t) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let x0 = xs.min()!
        let y0 = ys.min()!
        return CGRect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }
}
