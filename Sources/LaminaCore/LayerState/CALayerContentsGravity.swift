import Foundation

/// How a layer's contents are placed in its bounds when their sizes differ (`CALayer.contentsGravity`).
///
/// String-backed like Apple's `CALayerContentsGravity`, with the same twelve raw values. Unknown
/// names are kept as given.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    /// The gravity's name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a gravity name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a gravity name without an argument label.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Centred, not scaled.
    public static let center = CALayerContentsGravity("center")
    /// Centred horizontally at the top edge, not scaled.
    public static let top = CALayerContentsGravity("top")
    /// Centred horizontally at the bottom edge, not scaled.
    public static let bottom = CALayerContentsGravity("bottom")
    /// Centred vertically at the left edge, not scaled.
    public static let left = CALayerContentsGravity("left")
    /// Centred vertically at the right edge, not scaled.
    public static let right = CALayerContentsGravity("right")
    /// In the top-left corner, not scaled.
    public static let topLeft = CALayerContentsGravity("topLeft")
    /// In the top-right corner, not scaled.
    public static let topRight = CALayerContentsGravity("topRight")
    /// In the bottom-left corner, not scaled.
    public static let bottomLeft = CALayerContentsGravity("bottomLeft")
    /// In the bottom-right corner, not scaled.
    public static let bottomRight = CALayerContentsGravity("bottomRight")
    /// Scaled to fill the bounds exactly (the default).
    public static let resize = CALayerContentsGravity("resize")
    /// Scaled to fit the bounds, keeping the aspect ratio.
    public static let resizeAspect = CALayerContentsGravity("resizeAspect")
    /// Scaled to cover the bounds, keeping the aspect ratio (the overflow is cut when masked).
    public static let resizeAspectFill = CALayerContentsGravity("resizeAspectFill")

    /// The twelve gravities Core Animation defines.
    public static let known: Set<CALayerContentsGravity> = [
        .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight, .resize,
        .resizeAspect, .resizeAspectFill,
    ]

    /// Whether the name is one of the twelve Core Animation defines (`CALayer.contentsGravity` turns
    /// any other into `.center`, as Apple's does).
    public var isKnown: Bool { Self.known.contains(self) }
}
