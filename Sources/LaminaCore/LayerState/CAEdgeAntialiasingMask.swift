import Foundation

/// The edges of a layer that are anti-aliased when `allowsEdgeAntialiasing` is on (Apple's
/// `CAEdgeAntialiasingMask` bit values).
public struct CAEdgeAntialiasingMask: OptionSet, Sendable, Hashable {
    /// The edge bits, as in Apple's `CAEdgeAntialiasingMask`.
    public let rawValue: UInt32
    /// A mask with the given edge bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The left edge (minimum x).
    public static let layerLeftEdge = CAEdgeAntialiasingMask(rawValue: 1)
    /// The right edge (maximum x).
    public static let layerRightEdge = CAEdgeAntialiasingMask(rawValue: 2)
    /// The bottom edge (minimum y, in Core Animation's unflipped coordinates).
    public static let layerBottomEdge = CAEdgeAntialiasingMask(rawValue: 4)
    /// The top edge (maximum y, in Core Animation's unflipped coordinates).
    public static let layerTopEdge = CAEdgeAntialiasingMask(rawValue: 8)
    /// All four edges, the default.
    public static let all: CAEdgeAntialiasingMask = [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]
}
