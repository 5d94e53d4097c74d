import Foundation

/// A cubic Bézier curve from (0, 0) to (1, 1) that maps an animation's elapsed fraction of time to
/// its fraction of progress.
///
/// Instances are immutable. As in Core Animation, the x coordinates of the two inner control
/// points are clamped to 0...1, which keeps x non-decreasing along the curve so that the curve
/// is a function of time; the y coordinates are kept as given, so a curve may overshoot.
open class CAMediaTimingFunction: NSObject, NSSecureCoding, @unchecked Sendable {
    // The control points as given (x clamped), in Core Animation's `Float` precision.
    private let p1x: Float
    private let p1y: Float
    private let p2x: Float
    private let p2y: Float

    // Power-basis coefficients of x(s) = ((ax * s + bx) * s + cx) * s and likewise y(s).
    private let ax: Double
    private let bx: Double
    private let cx: Double
    private let ay: Double
    private let by: Double
    private let cy: Double

    /// True when y(s) == x(s) for every s, i.e. the curve is the line y = x.
    private let isIdentity: Bool

    /// The control points as `Double`s; see `widen(_:)`.
    private let widened: (c1x: Double, c1y: Double, c2x: Double, c2y: Double)

    /// Widens a `Float` control point to the `Double` nearest its shortest decimal spelling, so
    /// that 0.42 becomes 0.42 rather than 0.41999998688697815. Apple's API takes `Float`, yet the
    /// curves are written as decimals; widening this way keeps symmetric curves such as
    /// easeInEaseOut (0.42 + 0.58 == 1) symmetric to Double precision instead of to ~1e-8.
    private static func widen(_ value: Float) -> Double {
        guard value.isFinite else { return Double(value) }
        return Double(value.description) ?? Double(value)
    }

    /// Creates the predefined timing function with the given name.
    ///
    /// A name Core Animation does not define gives the linear function.
    public convenience init(name: CAMediaTimingFunctionName) {
        switch name {
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        case .default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        default: self.init(controlPoints: 0, 0, 1, 1)
        }
    }

    /// Creates a timing function whose curve runs from (0, 0) through the control points
    /// (`c1x`, `c1y`) and (`c2x`, `c2y`) to (1, 1). The x coordinates are clamped to 0...1
    /// (a NaN x becomes 0).
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        func unit(_ v: Float) -> Float { v >= 1 ? 1 : (v > 0 ? v : 0) }
        p1x = unit(c1x)
        p1y = c1y
        p2x = unit(c2x)
        p2y = c2y

        // B(s) = 3(1-s)^2 s P1 + 3(1-s) s^2 P2 + s^3, expanded into powers of s.
        let x1 = Self.widen(p1x), x2 = Self.widen(p2x), y1 = Self.widen(p1y), y2 = Self.widen(p2y)
        widened = (x1, y1, x2, y2)
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
        isIdentity = p1x == p1y && p2x == p2y
        super.init()
    }

    /// Creates the timing function an archive holds (its two inner control points); nil when the
    /// archive lacks them.
    public required convenience init?(coder: NSCoder) {
        let keys = ["c1x", "c1y", "c2x", "c2y"]
        guard keys.allSatisfy(coder.containsValue(forKey:)) else { return nil }
        let p = keys.map { coder.decodeFloat(forKey: $0) }
        self.init(controlPoints: p[0], p[1], p[2], p[3])
    }

    /// True: timing functions decode safely from a secure archive.
    open class var supportsSecureCoding: Bool { true }

    /// Archives the two inner control points as given (x clamped), in `Float` precision.
    open func encode(with coder: NSCoder) {
        coder.encode(p1x, forKey: "c1x")
        coder.encode(p1y, forKey: "c1y")
        coder.encode(p2x, forKey: "c2x")
        coder.encode(p2y, forKey: "c2y")
    }

    /// Writes control point `idx` (0...3) as two floats, x then y, to `ptr`: index 0 is (0, 0),
    /// 1 and 2 are the inner control points, 3 is (1, 1).
    open func getControlPoint(at idx: Int, values ptr: UnsafeMutablePointer<Float>) {
        precondition((0...3).contains(idx), "CAMediaTimingFunction control point index \(idx) is not in 0...3")
        switch idx {
        case 0: ptr[0] = 0; ptr[1] = 0
        case 1: ptr[0] = p1x; ptr[1] = p1y
        case 2: ptr[0] = p2x; ptr[1] = p2y
        default: ptr[0] = 1; ptr[1] = 1
        }
    }

    /// The two inner control points (x clamped to 0...1) as the `Double`s that `evaluate(_:)`
    /// uses: each `Float` widened to the `Double` nearest its shortest decimal spelling (0.42, not
    /// 0.41999998688697815).
    ///
    /// A Lamina addition; Apple's API has only `getControlPoint(at:values:)`.
    public var controlPoints: (c1x: Double, c1y: Double, c2x: Double, c2y: Double) {
        widened
    }

    /// The curve's progress (y) at the fraction of time `t` (x).
    ///
    /// A Lamina addition; Core Animation evaluates timing functions internally. `t` is clamped
    /// to 0...1 (NaN counts as 0), `evaluate(0)` is exactly 0 and `evaluate(1)` exactly 1. The
    /// result is accurate to well within 1e-6. The curve parameter s with x(s) = t is found by
    /// Newton–Raphson, falling back to bisection when Newton leaves 0...1, meets a flat slope or
    /// has not converged after a few steps; both loops are bounded. Newton starts from s = t, or, for
    /// the curves Core Animation names, from a table of the curve (two steps for most t instead of
    /// about four).
    public func evaluate(_ t: Double) -> Double {
        guard t > 0 else { return 0 }
        guard t < 1 else { return 1 }
        if isIdentity { return t }
        // The named curves' x coordinates are looked up here, not kept in a stored property: a new
        // field would move the class's method table, which code built against it relies on.
        guard let table = StartTable.index(c1x: widened.c1x, c2x: widened.c2x) else {
            return yAt(parameter(forX: t, from: t))
        }
        return yAt(parameter(forX: t, from: StartTable.start(forX: t, table: table)))
    }

    /// `evaluate(_:)` with Newton started from s = t whatever the curve: the solve before the start
    /// tables, which the tests hold the tables' results to. `final`, as `hasStartTable` is: neither
    /// takes a slot in the class's method table, whose layout code built against it relies on.
    final func evaluateFromLinearStart(_ t: Double) -> Double {
        guard t > 0 else { return 0 }
        guard t < 1 else { return 1 }
        if isIdentity { return t }
        return yAt(parameter(forX: t, from: t))
    }

    /// Whether Newton starts from a `StartTable` (the x coordinates of a named curve).
    final var hasStartTable: Bool { !isIdentity && StartTable.index(c1x: widened.c1x, c2x: widened.c2x) != nil }

    /// The curve as plain numbers, which `TimingPolynomial.evaluate(_:)` evaluates as `evaluate(_:)`
    /// does without a call into the class. `final`: it takes no slot in the method table.
    final var polynomial: TimingPolynomial {
        TimingPolynomial(
            ax: ax, bx: bx, cx: cx, ay: ay, by: by, cy: cy, isIdentity: isIdentity,
            startTable: StartTable.index(c1x: widened.c1x, c2x: widened.c2x))
    }

    // MARK: Curve arithmetic

    @inline(__always) private func yAt(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }

    /// The curve parameter s in 0...1 where x(s) == `x`, for `x` in (0, 1), with Newton started at
    /// `start` (in 0...1).
    ///
    /// With both inner x coordinates in 0...1, x(s) never decreases on 0...1 (its derivative is a
    /// quadratic Bernstein polynomial with a non-negative minimum), so the root is bracketed by
    /// 0...1 and bisection always succeeds.
    private func parameter(forX x: Double, from start: Double) -> Double {
        Self.parameter(forX: x, from: start, ax: ax, bx: bx, cx: cx)
    }

    /// The root finding of `parameter(forX:from:)` for the x polynomial with power-basis
    /// coefficients `ax`, `bx`, `cx` (`StartTable` builds its tables with it).
    @inline(__always)
    static func parameter(forX x: Double, from start: Double, ax: Double, bx: Double, cx: Double) -> Double {
        @inline(__always) func xAt(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
        @inline(__always) func slopeXAt(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
        // Newton–Raphson: quadratic convergence wherever the slope is healthy.
        var s = start
        for _ in 0..<8 {
            let error = xAt(s) - x
            if error == 0 { return s }
            let slope = slopeXAt(s)
            guard abs(slope) > 1e-9 else { break }
            let next = s - error / slope
            guard next >= 0, next <= 1 else { break }
            if abs(next - s) < 1e-12 { return next }
            s = next
        }

        // Bisection: each step halves the bracket; 64 steps exhaust a Double's precision.
        var lo = 0.0
        var hi = 1.0
        for _ in 0..<64 {
            let mid = 0.5 * (lo + hi)
            if mid <= lo || mid >= hi { break }
            let value = xAt(mid)
            if value == x { return mid }
            if value < x { lo = mid } else { hi = mid }
        }
        return 0.5 * (lo + hi)
    }

    // MARK: NSObject

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CAMediaTimingFunction else { return false }
        if other === self { return true }
        return p1x == other.p1x && p1y == other.p1y && p2x == other.p2x && p2y == other.p2y
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(p1x)
        hasher.combine(p1y)
        hasher.combine(p2x)
        hasher.combine(p2y)
        return hasher.finalize()
    }

    open override var description: String {
        "<CAMediaTimingFunction: (\(p1x), \(p1y)) (\(p2x), \(p2y))>"
    }
}
