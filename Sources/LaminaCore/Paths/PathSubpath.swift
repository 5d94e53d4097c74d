import Foundation

/// One subpath of a path as the stroker and dasher see it: its drawn segments in order and whether
/// a close ends it.
struct PathSubpath {
    /// The lines and curves, a close as a line back to the start (possibly of zero length).
    var segments: [PathSegment]
    /// Whether the subpath ends with a close.
    var closed: Bool
    /// The subpath's elements, its move first, as the path holds them.
    var elements: [PathElement]

    /// The subpaths of `elements` that have at least one line, curve or close; a move followed by
    /// nothing draws nothing and is left out.
    static func split(_ elements: [PathElement]) -> [PathSubpath] {
        var result: [PathSubpath] = []
        var current = PathSubpath(segments: [], closed: false, elements: [])
        var point = SIMD2<Double>(0, 0)
        var start = point
        func finish() {
            if !current.segments.isEmpty { result.append(current) }
            current = PathSubpath(segments: [], closed: false, elements: [])
        }
        for element in elements {
            switch element {
            case .moveTo(let p):
                finish()
                point = SIMD2<Double>(Double(p.x), Double(p.y))
                start = point
                current.elements = [element]
            case .lineTo, .quadCurveTo, .curveTo:
                let segment = PathSegment(from: point, element: element)
                current.segments.append(segment)
                current.elements.append(element)
                point = segment.end
            case .closeSubpath:
                current.segments.append(PathSegment(points: [point, start]))
                current.elements.append(element)
                current.closed = true
                point = start
                finish()
            }
        }
        finish()
        return result
    }
}
