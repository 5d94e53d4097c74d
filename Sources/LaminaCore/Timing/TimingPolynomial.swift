import Foundation

/// A `CAMediaTimingFunction`'s curve as plain numbers: the power-basis coefficients of x(s) and
/// y(s), whether the curve is the line y = x, and the `StartTable` its Newton solve starts from.
///
/// `EvaluationPlan` keeps one inline so that a frame evaluates the curve without calling into the
/// class (a call the optimiser cannot see through, which made Swift copy and retain the animation
/// record around it). `evaluate(_:)` is `CAMediaTimingFunction.evaluate(_:)`'s arithmetic in its
/// order, so the two agree bit for bit (`EvaluationPlanTests`).
struct TimingPolynomial: Sendable {
    /// Coefficients of x(s) = ((ax * s + bx) * s + cx) * s.
    var ax, bx, cx: Double
    /// Coefficients of y(s) = ((ay * s + by) * s + cy) * s.
    var ay, by, cy: Double
    /// True when the curve is the line y = x.
    var isIdentity: Bool
    /// The `StartTable` of the curve's x coordinates, or nil (Newton then starts from s = t).
    var startTable: Int?

    /// The curve's progress (y) at the fraction of time `t` (x), as `CAMediaTimingFunction.evaluate`
    /// gives it.
    @inline(__always)
    func evaluate(_ t: Double) -> Double {
        guard t > 0 else { return 0 }
        guard t < 1 else { return 1 }
        if isIdentity { return t }
        let start = startTable.map { CAMediaTimingFunction.StartTable.start(forX: t, table: $0) } ?? t
        let s = CAMediaTimingFunction.parameter(forX: t, from: start, ax: ax, bx: bx, cx: cx)
        return ((ay * s + by) * s + cy) * s
    }
}
