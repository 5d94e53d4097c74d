import Foundation

extension CAMediaTimingFunction {
    /// The curve parameter s at x = i / `intervals` (i = 0 … `intervals`) of one pair of inner x
    /// coordinates, which alone decide s(x); linearly interpolated, a start for Newton's method
    /// within about 1e-6 of the root away from the curve's flat ends, where s = x can be 0.1 away:
    /// Newton then stops after two steps for most x instead of about four (4 KiB per table).
    ///
    /// Tables exist for the x coordinates of the named curves (`easeIn`, `easeOut`,
    /// `easeInEaseOut`, `default`), built once, on first use, by the solve from s = x; every
    /// function with those coordinates shares one. Newton then converges to the same root: the
    /// parameters found differ from the solve from s = x by at most a few units in the last place
    /// (`TimingStartTableTests` holds the values to 1e-14 over many x).
    final class StartTable: Sendable {
        /// The number of intervals.
        static let intervals = 512
        /// The parameter at each end of each interval.
        let parameters: [Double]

        init(parameters: [Double]) {
            self.parameters = parameters
        }

        /// The linear interpolation of the table at `x`, in (0, 1).
        @inline(__always)
        func start(forX x: Double) -> Double {
            let position = x * Double(Self.intervals)
            let index = min(Int(position), Self.intervals - 1)
            let lower = parameters[index]
            return lower + (parameters[index + 1] - lower) * (position - Double(index))
        }

        /// The inner x coordinates (as `Double`s) of the named curves.
        static let namedCoordinates: [(c1x: Double, c2x: Double)] = [(0.42, 1), (0, 0.58), (0.42, 0.58), (0.25, 0.25)]

        /// The tables of the named curves, in the order of `namedCoordinates`.
        static let named: [StartTable] = namedCoordinates.map { c in
            // The coefficients of x(s), as `CAMediaTimingFunction.init` works them out.
            let cx = 3 * c.c1x
            let bx = 3 * (c.c2x - c.c1x) - cx
            let ax = 1 - cx - bx
            let n = intervals
            return StartTable(
                parameters: (0...n).map { i in
                    let x = Double(i) / Double(n)
                    return i == 0 ? 0 : i == n ? 1 : parameter(forX: x, from: x, ax: ax, bx: bx, cx: cx)
                })
        }

        /// The table shared by curves with inner x coordinates `c1x` and `c2x`, or nil.
        static func shared(c1x: Double, c2x: Double) -> StartTable? {
            guard let index = namedCoordinates.firstIndex(where: { $0.c1x == c1x && $0.c2x == c2x }) else {
                return nil
            }
            return named[index]
        }
    }
}
