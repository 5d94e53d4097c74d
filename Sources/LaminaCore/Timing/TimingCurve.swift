import Foundation

/// A `CAMediaTimingFunction` held by value: equal when the control points are equal.
public struct TimingCurve: Sendable, Hashable {
    /// The timing function.
    public let function: CAMediaTimingFunction

    /// Wraps a timing function.
    public init(_ function: CAMediaTimingFunction) {
        self.function = function
    }

    /// A curve with the given inner control points.
    public init(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        function = CAMediaTimingFunction(controlPoints: c1x, c1y, c2x, c2y)
    }

    /// The inner control points as `Float`s (what goes on the wire).
    public var controlPoints: [Float] {
        var p1 = [Float](repeating: 0, count: 2), p2 = [Float](repeating: 0, count: 2)
        function.getControlPoint(at: 1, values: &p1)
        function.getControlPoint(at: 2, values: &p2)
        return [p1[0], p1[1], p2[0], p2[1]]
    }

    /// Equal when the control points are equal.
    public static func == (a: TimingCurve, b: TimingCurve) -> Bool { a.controlPoints == b.controlPoints }
    /// Hashes the control points.
    public func hash(into hasher: inout Hasher) { hasher.combine(controlPoints) }
}
