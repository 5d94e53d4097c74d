import Foundation

extension CGPath {
    /// One stretch of a trimmed path: its elements and how far along its original subpath it starts,
    /// so that a dash pattern can stay anchored to the untrimmed path.
    public struct TrimmedPiece: Sendable, Hashable {
        /// The piece: a whole subpath as it was (a close included), or an open cut of one.
        public var path: CGPath
        /// The distance from the start of the original subpath to the start of the piece.
        public var offset: Double

        /// A piece of `path` starting `offset` along its original subpath.
        public init(path: CGPath, offset: Double) {
            self.path = path
            self.offset = offset
        }
    }

    /// The parts of the path between fractions `start` and `end` of its length, as
    /// `CAShapeLayer.strokeStart` and `strokeEnd` trim a stroke.
    ///
    /// The length is that of all subpaths together, closing segments included, measured within
    /// `tolerance` (curves are cut at the parameters of their lengths, and stay curves). A subpath that lies
    /// wholly between the two is kept as it is, close included; one that is cut becomes an open
    /// piece, which a stroke ends with caps. `start` and `end` are clamped to 0...1; nothing is left
    /// when `start` is not below `end`, nor when either is NaN. Both at 0 and 1 give the path
    /// unchanged.
    public func trimmedPieces(from start: Double, to end: Double, tolerance: Double = 0.01) -> [TrimmedPiece] {
        guard !start.isNaN, !end.isNaN else { return [] }
        let start = min(max(start, 0), 1), end = min(max(end, 0), 1)
        guard start < end else { return [] }
        let subpaths = PathSubpath.split(pathElements)
        if start <= 0 && end >= 1 {
            return subpaths.map { TrimmedPiece(path: CGPath(pathElements: $0.elements), offset: 0) }
        }
        let tolerance = tolerance > 0 && tolerance.isFinite ? tolerance : 0.01
        let measured = subpaths.map { $0.segments.map { MeasuredSegment($0, tolerance: tolerance) } }
        let lengths = measured.map { $0.reduce(0) { $0 + $1.length } }
        let total = lengths.reduce(0, +)
        guard total > 0, total.isFinite else { return [] }
        let d0 = start * total, d1 = end * total
        var pieces: [TrimmedPiece] = []
        var origin = 0.0
        for (index, subpath) in subpaths.enumerated() {
            let length = lengths[index]
            defer { origin += length }
            let a = max(d0, origin) - origin, b = min(d1, origin + length) - origin
            guard b > a || (length == 0 && d0 <= origin && d1 >= origin) else { continue }
            if a <= 0 && b >= length {
                pieces.append(TrimmedPiece(path: CGPath(pathElements: subpath.elements), offset: 0))
                continue
            }
            var elements: [PathElement] = []
            var travelled = 0.0
            for segment in measured[index] {
                let s0 = travelled, s1 = travelled + segment.length
                travelled = s1
                let lo = max(a, s0), hi = min(b, s1)
                guard hi > lo || (segment.length == 0 && lo == hi && lo > a && lo < b) else { continue }
                let u0 = segment.parameter(at: lo - s0), u1 = segment.parameter(at: hi - s0)
                let part = segment.segment.piece(from: u0, to: u1)
                if elements.isEmpty { elements.append(.moveTo(CGPoint(x: part.start.x, y: part.start.y))) }
                elements.append(part.element)
            }
            if !elements.isEmpty { pieces.append(TrimmedPiece(path: CGPath(pathElements: elements), offset: a)) }
        }
        return pieces
    }

    /// The parts of the path between fractions `start` and `end` of its length, joined into one path
    /// (`trimmedPieces(from:to:)`).
    public func trimmed(from start: Double, to end: Double) -> CGPath {
        CGPath(pathElements: trimmedPieces(from: start, to: end).flatMap { $0.path.pathElements })
    }

    /// How many chords measuring the path within `tolerance` takes (each line one, each curve as many
    /// as `PathSegment.steps(tolerance:)` gives, at most 4,096): the cost of trimming or dashing it,
    /// which a renderer can bound before it starts.
    public func measuringSteps(tolerance: Double) -> Int {
        var total = 0
        for subpath in PathSubpath.split(pathElements) {
            for segment in subpath.segments {
                total += segment.points.count == 2 ? 1 : segment.steps(tolerance: tolerance)
            }
        }
        return total
    }

    /// The length of the control polygon of every subpath, closes included: never less than the
    /// path's length.
    public var controlPolygonLength: Double {
        var total = 0.0
        for subpath in PathSubpath.split(pathElements) {
            for segment in subpath.segments {
                for i in 1..<segment.points.count {
                    let d = segment.points[i] - segment.points[i - 1]
                    total += (d * d).sum().squareRoot()
                }
            }
        }
        return total
    }
}
