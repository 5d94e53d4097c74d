import Foundation

/// The geometric attribute of a layer that a `CAConstraint` sets or reads (Apple's
/// `CAConstraintAttribute`, with Apple's raw values).
///
/// Attributes are values of the layer's frame in its superlayer's coordinate space (for the reference
/// `"superlayer"`, of the superlayer's bounds): `minY` is `frame.minY`, the top edge on screen in
/// Lamina's y-down space.
public enum CAConstraintAttribute: Int32, Sendable {
    /// The left edge, `frame.minX`.
    case minX = 0
    /// The horizontal centre, `frame.midX`.
    case midX = 1
    /// The right edge, `frame.maxX`.
    case maxX = 2
    /// The width, `frame.width`.
    case width = 3
    /// The edge at `frame.minY` (the top in Lamina's y-down space).
    case minY = 4
    /// The vertical centre, `frame.midY`.
    case midY = 5
    /// The edge at `frame.maxY` (the bottom in Lamina's y-down space).
    case maxY = 6
    /// The height, `frame.height`.
    case height = 7

    /// True for the attributes of the x axis.
    var isHorizontal: Bool { rawValue < 4 }

    /// The attribute's value for a rectangle.
    func value(in rect: CGRect) -> CGFloat {
        switch self {
        case .minX: rect.minX
        case .midX: rect.midX
        case .maxX: rect.maxX
        case .width: rect.width
        case .minY: rect.minY
        case .midY: rect.midY
        case .maxY: rect.maxY
        case .height: rect.height
        }
    }
}
