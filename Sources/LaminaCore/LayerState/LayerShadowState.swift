import Foundation

/// A layer's shadow, as plain values with Core Animation's defaults: the storage behind
/// `LayerState.shadow`.
///
/// Declared once as rows of `LayerPropertyDescriptor.shadowRows`. The defaults are Apple's
/// (`CALayer.h`): opaque black, opacity 0 (no shadow drawn), radius 3 and offset (0, −3).
public struct LayerShadowState: Sendable, Hashable {
    /// The shadow's colour; opaque black by default. Nil draws no shadow.
    public var color: RGBAColor? = RGBAColor.black
    /// The shadow's opacity, 0...1; 0 (no shadow) by default.
    public var opacity: Float = 0
    /// The blur radius, in the layer's points: the standard deviation of the Gaussian the shadow's
    /// shape is blurred with (docs/apple-differences.md); 3 by default.
    public var radius: CGFloat = 3
    /// How far the shadow is moved from the layer, in the layer's own coordinate space; (0, −3) by
    /// default (3 points up in Lamina's y-down space, as on iOS).
    public var offset = CGSize(width: 0, height: -3)
    /// The shadow's shape, in the layer's coordinates (an immutable copy); nil by default: the shape
    /// of what the layer draws.
    public var path: CGPath? = nil

    /// A shadow at Core Animation's defaults.
    public init() {}

    /// The defaults.
    public static let defaults = LayerShadowState()
}
