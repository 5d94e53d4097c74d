import Foundation

extension CGPath {
    /// Calls `block` with each element of the path in order, as Core Graphics does; the element and
    /// its points are valid only during the call.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        // Room for the most points an element has (a cubic curve's three).
        let points = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        defer { points.deallocate() }
        points.initialize(repeating: .zero, count: 3)
        for element in pathElements {
            let type: CGPathElementType
            switch element {
            case .moveTo: type = .moveToPoint
            case .lineTo: type = .addLineToPoint
            case .quadCurveTo: type = .addQuadCurveToPoint
            case .curveTo: type = .addCurveToPoint
            case .closeSubpath: type = .closeSubpath
            }
            for (index, point) in element.points.enumerated() { points[index] = point }
            var handed = CGPathElement(type: type, points: points)
            withUnsafePointer(to: &handed) { block($0) }
        }
    }

    /// Whether the path is exactly one rectangle, and which (`isRect(&rect)` writes it): a move and
    /// three or four lines along the axes around it, optionally closed, as Core Graphics answers for
    /// `CGPath(rect:transform:)` and `addRect(_:)`. Nil-able out-parameter as in Apple's
    /// `isRect(_ rect: UnsafeMutablePointer<CGRect>?)`.
    public func isRect(_ rect: UnsafeMutablePointer<CGRect>?) -> Bool {
        var corners: [CGPoint] = []
        var closed = false
        for (index, element) in pathElements.enumerated() {
            switch element {
            case .moveTo(let p) where index == 0: corners.append(p)
            case .lineTo(let p) where !closed: corners.append(p)
            case .closeSubpath where !closed: closed = true
            default: return false
            }
        }
        // A trailing line back to the start closes the rectangle like a close does.
        if corners.count == 5, corners[4] == corners[0] { corners.removeLast() }
        guard corners.count == 4 else { return false }
        // Each side along an axis, alternating, around a box with area.
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            let horizontal = a.y == b.y && a.x != b.x
            let vertical = a.x == b.x && a.y != b.y
            let wanted = (i % 2 == 0) ? (corners[0].y == corners[1].y) : (corners[0].y != corners[1].y)
            guard horizontal || vertical, horizontal == wanted else { return false }
        }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let box = CGRect(
            x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        rect?.pointee = box
        return true
    }
}
