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
        // One array, the two points written into it in place (every animation record's encoding
        // reads them).
        [Float](unsafeUninitializedCapacity: 4) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            function.getControlPoint(at: 1, values: base)
            function.getControlPoint(at: 2, values: base + 2)
            count = 4
        }
    }

    /// Equal when the control points are equal.
    public static func == (a: TimingCurve, b: TimingCurve) -> Bool { a.controlPoints == b.controlPoints }
    /// Hashes the control points.
    public func hash(into hasher: inout Hasher) { hasher.combine(controlPoints) }
}
