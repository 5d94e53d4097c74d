import Foundation

/// Three rows of a 3×3 matrix held inline (no array storage): the rotation rows and the
/// Gram–Schmidt basis of a transform's decomposition, which is evaluated on every frame of a
/// transform animation and so must not allocate.
struct MatrixRows3: Equatable {
    /// The first row.
    var r0: SIMD3<Double>
    /// The second row.
    var r1: SIMD3<Double>
    /// The third row.
    var r2: SIMD3<Double>

    /// The rows given.
    @inline(__always)
    init(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        self.r0 = r0
        self.r1 = r1
        self.r2 = r2
    }

    /// Three rows of zeros.
    static var zero: MatrixRows3 {
        MatrixRows3(SIMD3<Double>(0, 0, 0), SIMD3<Double>(0, 0, 0), SIMD3<Double>(0, 0, 0))
    }

    /// The identity's rows.
    static var identity: MatrixRows3 {
        MatrixRows3(SIMD3<Double>(1, 0, 0), SIMD3<Double>(0, 1, 0), SIMD3<Double>(0, 0, 1))
    }

    /// Row `index` (0, 1 or 2; any other index reads and writes the last row).
    @inline(__always)
    subscript(index: Int) -> SIMD3<Double> {
        get {
            switch index {
            case 0: r0
            case 1: r1
            default: r2
            }
        }
        set {
            switch index {
            case 0: r0 = newValue
            case 1: r1 = newValue
            default: r2 = newValue
            }
        }
    }
}
