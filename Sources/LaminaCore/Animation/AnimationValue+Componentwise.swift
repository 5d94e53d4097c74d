import Foundation

extension AnimationValue {
    /// `f` applied to the paired components of two values of one fixed-size kind (number, point,
    /// size, rect, colour, vector), built in place without the arrays of `components`; nil for
    /// other or mismatched kinds.
    ///
    /// The components are those of `components`, in its order and read through the same accessors
    /// (a rect's `width` and `height`; a nil colour counts as transparent black), so the result
    /// equals `make(a.kind, zip(a.components, b.components).map(f))` bit for bit. The result of two
    /// colours is never nil.
    @inline(__always)
    static func componentwise(
        _ a: AnimationValue, _ b: AnimationValue, _ f: (Double, Double) -> Double
    ) -> AnimationValue? {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(f(x, y))
        case (.point(let p), .point(let q)):
            return .point(CGPoint(x: f(p.x, q.x), y: f(p.y, q.y)))
        case (.size(let p), .size(let q)):
            return .size(CGSize(width: f(p.width, q.width), height: f(p.height, q.height)))
        case (.rect(let p), .rect(let q)):
            return .rect(
                CGRect(
                    x: f(p.origin.x, q.origin.x), y: f(p.origin.y, q.origin.y), width: f(p.width, q.width),
                    height: f(p.height, q.height)))
        case (.color(let p), .color(let q)):
            let x = p ?? .clear
            let y = q ?? .clear
            return .color(
                RGBAColor(
                    red: f(x.red, y.red), green: f(x.green, y.green), blue: f(x.blue, y.blue),
                    alpha: f(x.alpha, y.alpha)))
        case (.vector(let p), .vector(let q)):
            return .vector(SIMD3(f(p.x, q.x), f(p.y, q.y), f(p.z, q.z)))
        default:
            return nil
        }
    }

    /// `f` applied to each component of a value of a fixed-size kind (number, point, size, rect,
    /// colour, vector), without arrays; nil for other kinds. Equals
    /// `make(v.kind, v.components.map(f))` bit for bit.
    @inline(__always)
    static func componentwise(_ v: AnimationValue, _ f: (Double) -> Double) -> AnimationValue? {
        componentwise(v, v) { x, _ in f(x) }
    }
}
