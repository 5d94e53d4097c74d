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

    /// The kinds of value, for type checks and error texts.
    public enum Kind: UInt8, Sendable, Hashable, CustomStringConvertible {
        case number = 1, point, size, rect, color, transform, bool, vector, image

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
        }
    }

    /// The value's numbers in a fixed order (point x, y; rect x, y, w, h; colour r, g, b, a
    /// unpremultiplied; transform m11…m44); empty for Booleans and images.
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
        case .bool, .image: []
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
            let c = zip(a.components, b.components).map { min(max($0 + ($1 - $0) * t, 0), 1) }
            return make(.color, c)!
        case (.point, .point), (.size, .size), (.rect, .rect), (.vector, .vector):
            let c = zip(a.components, b.components).map { $0 + ($1 - $0) * t }
            return make(a.kind, c)!
        default:
            return t >= 1 ? b : a
        }
    }

    /// `a + b`: component-wise for numbers, points, sizes, rects and colours; for transforms the
    /// concatenation `a` then `b` (what additive and cumulative transform animations compose);
    /// `b` for Booleans and mismatched kinds.
    public static func add(_ a: AnimationValue, _ b: AnimationValue) -> AnimationValue {
        switch (a, b) {
        case (.transform(let x), .transform(let y)):
            return .transform(CATransform3DConcat(x, y))
        case (.number, .number), (.point, .point), (.size, .size), (.rect, .rect), (.color, .color),
            (.vector, .vector):
            return make(a.kind, zip(a.components, b.components).map(+))!
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
            return make(a.kind, zip(a.components, b.components).map(-))!
        default:
            return a
        }
    }

    /// `v · k`: component-wise for numbers, points, sizes, rects and colours; for transforms the
    /// k-th power by decomposition (`identity.interpolated(to: v, fraction: k)`); `v` otherwise.
    /// Cumulative animations add `scaled(end, by: iteration)`.
    public static func scale(_ v: AnimationValue, by k: Double) -> AnimationValue {
        switch v {
        case .transform(let t):
            return .transform(CATransform3DIdentity.interpolated(to: t, fraction: k))
        case .number, .point, .size, .rect, .color, .vector:
            return make(v.kind, v.components.map { $0 * k })!
        case .bool, .image:
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
        return zip(a.components, b.components).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }
}
