import Foundation

extension CAMediaTimingFunction {
    /// The curve parameter s at x = i / `intervals` (i = 0 … `intervals`) of one pair of inner x
    /// coordinates, which alone decide s(x); linearly interpolated, a start for Newton's method
    /// within about 1e-6 of the root away from the curve's flat ends, where s = x can be 0.1 away:
    /// Newton then stops after two steps for most x instead of about four (4 KiB per table).
    ///
    /// Tables exist for the x coordinates of the named curves (`easeIn`, `easeOut`,
    /// `easeInEaseOut`, `default`), built once, on first use, by the solve from s = x; every
    /// function with those coordinates uses them. Newton then converges to the same root: the
    /// parameters found differ from the solve from s = x by at most a few units in the last place
    /// (`TimingStartTableTests` holds the values to 1e-14 over many x).
    enum StartTable {
        /// The number of intervals.
        static let intervals = 512

        /// The table of each named pair of x coordinates (`index(c1x:c2x:)`), one after the other.
        static let parameters: [Double] = (0..<4).flatMap { table in
            // The coefficients of x(s), as `CAMediaTimingFunction.init` works them out.
            let (c1x, c2x) = coordinates(table)
            let cx = 3 * c1x
            let bx = 3 * (c2x - c1x) - cx
            let ax = 1 - cx - bx
            let n = intervals
            return (0...n).map { i in
                let x = Double(i) / Double(n)
                return i == 0 ? 0 : i == n ? 1 : parameter(forX: x, from: x, ax: ax, bx: bx, cx: cx)
            }
        }

        /// The inner x coordinates (widened to `Double`) of the named curves: `easeIn`, `easeOut`,
        /// `easeInEaseOut`, `default`.
        static func coordinates(_ table: Int) -> (Double, Double) {
            switch table {
            case 0: (0.42, 1)
            case 1: (0, 0.58)
            case 2: (0.42, 0.58)
            default: (0.25, 0.25)
            }
        }

        /// The table for inner x coordinates `c1x` and `c2x`, or nil.
        @inline(__always)
        static func index(c1x: Double, c2x: Double) -> Int? {
            switch (c1x, c2x) {
            case (0.42, 1): 0
            case (0, 0.58): 1
            case (0.42, 0.58): 2
            case (0.25, 0.25): 3
            default: nil
            }
        }

        /// The linear interpolation of table `table` at `x`, in (0, 1).
        @inline(__always)
        static func start(forX x: Double, table: Int) -> Double {
            let position = x * Double(intervals)
            let index = min(Int(position), intervals - 1)
            let base = table * (intervals + 1) + index
            let lower = parameters[base]
            return lower + (parameters[base + 1] - lower) * (position - Double(index))
        }
    }
}
