import Foundation

/// A typed value of an animatable property or of one of its components, as animations carry and
/// interpolate it.
///
/// This is Lamina's form of Core Animation's boxed `id` values (`NSNumber`, `NSValue`, `CGColor`):
/// the client converts `Any?` into one of these once, when an animation is committed, so the render
/// server only ever sees typed values. Every operation is pure, so client and server compute the
/// same results.
public enum AnimationValue: Sendable, Hashable {
    /// A scalar: `opacity`, `cornerRadius`, `position.x`, `transform.rotation.z`, ...
    case number(Double)
    /// A `CGPoint`: `position`, `anchorPoint`, `bounds.origin`.
    case point(CGPoint)
    /// A `CGSize`: `bounds.size`, `transform.translation`.
    case size(CGSize)
    /// A `CGRect`: `bounds`.
    case rect(CGRect)
    /// A colour, or nil for "no colour" (drawn as nothing, interpolated as transparent black).
    case color(RGBAColor?)
    /// A `CATransform3D`: `transform`, `sublayerTransform`.
    indirect case transform(CATransform3D)
    /// A Boolean: `hidden`, `masksToBounds`. Not interpolated (decisions.md A12).
    case bool(Bool)
    /// Three numbers (x, y, z): the input of the `scale` and `translate` value functions.
    case vector(SIMD3<Double>)
    /// An image, by the client's id (0: no image): `contents`. Not interpolated: an animation between
    /// two images presents the target image with a cross-fade from the other
    /// (`LayerState.contentsCrossFade`, decisions.md A2).
    case image(UInt64)
    /// A path, or nil for none: `CAShapeLayer.path`. Interpolated point by point when both paths have
    /// the same elements (the same sequence of element types); otherwise it jumps from one to the
    /// other at the midpoint (`t` ≥ 0.5), as do nil paths.
    case path(CGPath?)
    /// A list of numbers, or nil: `CAGradientLayer.locations`, `CAShapeLayer.lineDashPattern`.
    /// Interpolated number by number when both lists have the same count; otherwise it jumps at the
    /// midpoint.
    case numbers([Double]?)
    /// A list of colours, or nil: `CAGradientLayer.colors`. Interpolated colour by colour (as
    /// `color`s are) when both lists have the same count; otherwise it jumps at the midpoint.
    case colors([RGBAColor]?)

    /// The kinds of value, for type checks and error texts.
    public enum Kind: UInt8, Sendable, Hashable, CustomStringConvertible {
        case number = 1, point, size, rect, color, transform, bool, vector, image, path, numbers, colors

        /// The value in a short readable form, for messages and logs.
        public var description: String {
            switch self {
            case .number: "a number"
            case .point: "a CGPoint"
            case .size: "a CGSize"
            case .rect: "a CGRect"
            case .color: "a CGColor"
            case .transform: "a CATransform3D"
            case .bool: "a Bool"
            case .vector: "three numbers"
            case .image: "a CGImage"
            case .path: "a CGPath"
            case .numbers: "an array of numbers"
            case .colors: "an array of CGColors"
            }
        }
    }

    /// The kind of this value.
    public var kind: Kind {
        switch self {
        case .number: .number
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .color: .color
        case .transform: .transform
        case .bool: .bool
        case .vector: .vector
        case .image: .image
        case .path: .path
        case .numbers: .numbers
        case .colors: .colors
        }
    }

    /// True when every number in the value is finite (colour components must also lie in 0...1).
    public var isValid: Bool {
        switch self {
        case .number(let v): v.isFinite
        case .point(let p): p.x.isFinite && p.y.isFinite
        case .size(let s): s.width.isFinite && s.height.isFinite
        case .rect(let r): r.origin.x.isFinite && r.origin.y.isFinite && r.width.isFinite && r.height.isFinite
        case .color(let c): c?.isValid ?? true
        case .transform(let t): t.isFinite
        case .bool, .image: true
        case .vector(let v): v.x.isFinite && v.y.isFinite && v.z.isFinite
        case .path(let p): p?.hasOnlyFinitePoints ?? true
        case .numbers(let n): n?.allSatisfy(\.isFinite) ?? true
        case .colors(let c): c?.allSatisfy(\.isValid) ?? true
        }
    }

    /// The value's numbers in a fixed order (point x, y; rect x, y, w, h; colour r, g, b, a
    /// unpremultiplied; transform m11…m44); empty for Booleans, images, paths and lists (which
    /// `interpolate`, `add`, `subtract`, `scale` and `distance` handle element by element).
    public var components: [Double] {
        switch self {
        case .number(let v): [v]
        case .point(let p): [p.x, p.y]
        case .size(let s): [s.width, s.height]
        case .rect(let r): [r.origin.x, r.origin.y, r.width, r.height]
        case .color(let c):
            c.map { [$0.red, $0.green, $0.blue, $0.alpha] } ?? [0, 0, 0, 0]
        case .transform(let t):
            [
                t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44,
            ]
        case .bool, .image, .path, .numbers, .colors: []
        case .vector(let v): [v.x, v.y, v.z]
        }
    }

    /// Builds a value of `kind` from `components` (the inverse of `components`); nil when the
    /// count is wrong or the kind is Boolean.
    public static func make(_ kind: Kind, _ c: [Double]) -> AnimationValue? {
        switch (kind, c.count) {
        case (.number, 1): .number(c[0])
        case (.point, 2): .point(CGPoint(x: c[0], y: c[1]))
        case (.size, 2): .size(CGSize(width: c[0], height: c[1]))
        case (.rect, 4): .rect(CGRect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case (.color, 4): .color(RGBAColor(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        case (.vector, 3): .vector(SIMD3(c[0], c[1], c[2]))
        case (.transform, 16):
            .transform(
                CATransform3D(
                    m11: c[0], m12: c[1], m13: c[2], m14: c[3], m21: c[4], m22: c[5],
                    m23: c[6], m24: c[7], m31: c[8], m32: c[9], m33: c[10], m34: c[11],
                    m41: c[12], m42: c[13], m43: c[14], m44: c[15]))
        default: nil
        }
    }

    // MARK: - Interpolation and arithmetic

    /// The value a fraction `t` of the way from `a` to `b`.
    ///
    /// - numbers, points, sizes, rects and vectors: component-wise linear;
    /// - colours: component-wise on unpremultiplied RGBA (decisions.md), clamped to 0...1; a nil
    ///   colour counts as transparent black, and the result is nil only when both ends are nil;
    /// - transforms: by decomposition (`CATransform3D.interpolated(to:fraction:)`);
    /// - paths with the same elements: point by point; lists of the same count: element by element;
    ///   other paths and lists jump from `a` to `b` at `t` = 0.5 (paths never extrapolate);
    /// - Booleans, images and mismatched kinds: discrete, `a` until `t` reaches 1, then `b`
    ///   (decisions.md A12). `t` outside 0...1 extrapolates the continuous kinds (springs and
    ///   overshooting timing functions use this).
    public static func interpolate(_ a: AnimationValue, _ b: AnimationValue, _ t: Double) -> AnimationValue {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(x + (y - x) * t)
        case (.transform(let x), .transform(let y)):
            return .transform(x.interpolated(to: y, fraction: t))
        case (.color(nil), .color(nil)):
            return .color(nil)
        case (.color, .color):
            return componentwise(a, b) { min(max($0 + ($1 - $0) * t, 0), 1) }!
        case (.point, .point), (.size, .size), (.rect, .rect), (.vector, .vector):
            return componentwise(a, b) { $0 + ($1 - $0) * t }!
        case (.path(let x), .path(let y)):
            // A path never overshoots (springs and overshooting curves are clamped), as on Apple.
            let f = min(max(t, 0), 1)
            if let x, let y, let blend = CGPath.interpolate(x, y, f) { return .path(blend) }
            return f >= 0.5 ? b : a
        case (.numbers(let x?), .numbers(let y?)) where x.count == y.count:
            return .numbers(zip(x, y).map { $0 + ($1 - $0) * t })
        case (.colors(let x?), .colors(let y?)) where x.count == y.count:
            return .colors(
                zip(x, y).map { p, q in
                    guard case .color(let c?) = interpolate(.color(p), .color(q), t) else { return p }
                    return c
                })
        case (.numbers, .numbers), (.colors, .colors):
            return t >= 0.5 ? b : a
        default:
            return t >= 1 ? b : a
        }
    }

    /// `a + b`: component-wise for numbers, points, sizes, rects, colours and lists of one count; for transforms the
    /// concatenation `a` then `b` (what additive and cumulative transform animations compose);
    /// `b` for Booleans and mismatched kinds.
    public static func add(_ a: AnimationValue, _ b: AnimationValue) -> AnimationValue {
        switch (a, b) {
        case (.transform(let x), .transform(let y)):
            return .transform(CATransform3DConcat(x, y))
        case (.number, .number), (.point, .point), (.size, .size), (.rect, .rect), (.color, .color),
            (.vector, .vector):
            return componentwise(a, b, +)!
        case (.numbers(let x?), .numbers(let y?)) where x.count == y.count:
            return .numbers(zip(x, y).map(+))
        case (.colors(let x?), .colors(let y?)) where x.count == y.count:
            return .colors(
                zip(x, y).map {
                    RGBAColor(
                        red: $0.red + $1.red, green: $0.green + $1.green, blue: $0.blue + $1.blue,
                        alpha: $0.alpha + $1.alpha)
                })
        default:
            return b
        }
    }

    /// `a − b`: component-wise; for transforms `a · b⁻¹` (so that `add(subtract(a, b), b) == a`),
    /// or `a` when `b` is singular; `a` for Booleans and mismatched kinds.
    public static func subtract(_ a: AnimationValue, _ b: AnimationValue) -> AnimationValue {
        switch (a, b) {
        case (.transform(let x), .transform(let y)):
            guard y.determinant != 0, y.determinant.isFinite else { return a }
            return .transform(CATransform3DConcat(x, CATransform3DInvert(y)))
        case (.number, .number), (.point, .point), (.size, .size), (.rect, .rect), (.color, .color),
            (.vector, .vector):
            return componentwise(a, b, -)!
        case (.numbers(let x?), .numbers(let y?)) where x.count == y.count:
            return .numbers(zip(x, y).map(-))
        case (.colors(let x?), .colors(let y?)) where x.count == y.count:
            return .colors(
                zip(x, y).map {
                    RGBAColor(
                        red: $0.red - $1.red, green: $0.green - $1.green, blue: $0.blue - $1.blue,
                        alpha: $0.alpha - $1.alpha)
                })
        default:
            return a
        }
    }

    /// `v · k`: component-wise for numbers, points, sizes, rects, colours and lists; for transforms the
    /// k-th power by decomposition (`identity.interpolated(to: v, fraction: k)`); `v` otherwise.
    /// Cumulative animations add `scaled(end, by: iteration)`.
    public static func scale(_ v: AnimationValue, by k: Double) -> AnimationValue {
        switch v {
        case .transform(let t):
            return .transform(CATransform3DIdentity.interpolated(to: t, fraction: k))
        case .number, .point, .size, .rect, .color, .vector:
            return componentwise(v) { $0 * k }!
        case .numbers(let n?):
            return .numbers(n.map { $0 * k })
        case .colors(let c?):
            return .colors(
                c.map { RGBAColor(red: $0.red * k, green: $0.green * k, blue: $0.blue * k, alpha: $0.alpha * k) })
        case .bool, .image, .path, .numbers, .colors:
            return v
        }
    }

    /// The Euclidean distance between two values of one kind (over `components`; transforms over
    /// their decomposed translation, scale and rotation angle); 0 for Booleans and mismatched
    /// kinds. Paced keyframe animations space keyframes by this distance.
    public static func distance(_ a: AnimationValue, _ b: AnimationValue) -> Double {
        guard a.kind == b.kind, a.kind != .bool, a.kind != .image else { return 0 }
        if case .transform(let x) = a, case .transform(let y) = b {
            return x.distance(to: y)
        }
        switch (a, b) {
        case (.path(let x?), .path(let y?)): return CGPath.distance(x, y)
        case (.numbers(let x?), .numbers(let y?)) where x.count == y.count:
            return zip(x, y).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
        case (.colors(let x?), .colors(let y?)) where x.count == y.count:
            return zip(x, y).reduce(0) { $0 + distance(.color($1.0), .color($1.1)) }
        case (.path, .path), (.numbers, .numbers), (.colors, .colors): return 0
        default: break
        }
        return zip(a.components, b.components).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }
}
