import Foundation

extension CGPath {
    /// The path cut into dashes, as Core Graphics' `copy(dashingWithPhase:lengths:transform:)`
    /// returns it: one open subpath per dash.
    ///
    /// `lengths` alternates painted and unpainted lengths, starting with a painted one, and
    /// repeats; an odd count is repeated once more so that painted and unpainted alternate (`[10]`
    /// is 10 on, 10 off), as Core Graphics cycles it. `phase` is how far into the pattern each
    /// subpath starts (every subpath restarts the pattern); a negative phase counts back from the
    /// pattern's end. Dashes continue around corners within a subpath and keep curves as curves
    /// (cut at the parameters of their lengths, measured within 0.001). A painted length of 0
    /// gives a dash of zero length (a move and a line to the same point, which round or square caps
    /// draw as a dot). A subpath that one dash covers entirely is kept as it is, close included.
    /// Empty `lengths`, a negative or non-finite length, or a pattern of zero total length return
    /// the path undashed, as does a subpath longer than `maximumDashPeriods` periods. `transform` maps
    /// the result's points.
    public func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat], transform: CGAffineTransform = .identity)
        -> CGPath
    {
        let values = lengths.map(Double.init)
        let total = values.reduce(0, +)
        guard !values.isEmpty, values.allSatisfy({ $0 >= 0 && $0.isFinite }), total > 0, total.isFinite,
            phase.isFinite
        else { return CGPath(pathElements: pathElements.map { $0.applying(transform) }) }
        let pattern = values.count % 2 == 1 ? values + values : values
        var elements: [PathElement] = []
        for subpath in PathSubpath.split(pathElements) {
            elements += dashes(of: subpath, pattern: pattern, phase: Double(phase))
        }
        return CGPath(pathElements: elements.map { $0.applying(transform) })
    }

    /// The most repetitions of the dash pattern along one subpath; a subpath longer than that many
    /// periods is left undashed rather than cut into an unbounded number of dashes.
    public static let maximumDashPeriods = 100_000

    /// The dashes of one subpath.
    private func dashes(of subpath: PathSubpath, pattern: [Double], phase: Double) -> [PathElement] {
        let period = pattern.reduce(0, +)
        var offset = phase.truncatingRemainder(dividingBy: period)
        if offset < 0 { offset += period }
        var index = 0
        while offset >= pattern[index] && offset > 0 {
            offset -= pattern[index]
            index = (index + 1) % pattern.count
        }
        var remaining = pattern[index] - offset
        let measured = subpath.segments.map { MeasuredSegment($0, tolerance: 0.001) }
        let total = measured.reduce(0) { $0 + $1.length }
        // A pattern too fine for the subpath would make millions of dashes: it is left undashed.
        guard total / period <= Double(Self.maximumDashPeriods) else { return subpath.elements }
        let epsilon = 1e-9 * max(1, total)
        // One dash covering the whole subpath leaves it as it is.
        if index % 2 == 0 && remaining >= total - epsilon { return subpath.elements }
        var elements: [PathElement] = []
        var open = false
        func cgPoint(_ v: SIMD2<Double>) -> CGPoint { CGPoint(x: v.x, y: v.y) }
        func advance(at point: SIMD2<Double>) {
            open = false
            index = (index + 1) % pattern.count
            remaining = pattern[index]
            // Painted lengths of zero are dots; unpainted ones of zero are skipped.
            while remaining <= epsilon {
                if index % 2 == 0 { elements += [.moveTo(cgPoint(point)), .lineTo(cgPoint(point))] }
                index = (index + 1) % pattern.count
                remaining = pattern[index]
            }
        }
        if index % 2 == 0 && remaining <= epsilon, let first = measured.first {
            elements += [.moveTo(cgPoint(first.segment.start)), .lineTo(cgPoint(first.segment.start))]
            advance(at: first.segment.start)
        }
        for piece in measured {
            var travelled = 0.0
            while piece.length - travelled > epsilon {
                let step = min(remaining, piece.length - travelled)
                if index % 2 == 0 {
                    let u0 = piece.parameter(at: travelled), u1 = piece.parameter(at: travelled + step)
                    let part = piece.segment.piece(from: u0, to: u1)
                    if !open {
                        elements.append(.moveTo(cgPoint(part.start)))
                        open = true
                    }
                    elements.append(part.element)
                }
                travelled += step
                remaining -= step
                if remaining <= epsilon {
                    advance(at: piece.segment.point(at: piece.parameter(at: travelled)))
                }
            }
        }
        return elements
    }
}
