import Foundation

/// The shadow: Apple's five `shadow…` properties, drawn by the render server under the layer
/// (App. A), blurred in closed form for rectangles, rounded rectangles and ellipses
/// (docs/rendering.md, "Shadows").
extension CALayer {
    /// The shadow's colour; opaque black by default (`CALayer.h`). Nil draws no shadow. Animatable.
    public var shadowColor: CGColor? {
        get { color(stored: storedShadowColor, model: modelState.shadow.color) }
        set {
            update(.shadowColor, \.shadow.color, newValue.map { RGBAColor($0) }) { self.storedShadowColor = newValue }
        }
    }

    /// The shadow's opacity, from 0 to 1; 0 by default, which draws no shadow (`CALayer.h`). Values
    /// outside 0...1 are clamped where they are drawn and animated. Animatable.
    public var shadowOpacity: Float {
        get { modelState.shadow.opacity }
        set { update(.shadowOpacity, \.shadow.opacity, newValue) }
    }

    /// The shadow's blur radius in points, 3 by default (`CALayer.h`); 0 gives a hard edge. Lamina
    /// blurs with a Gaussian whose standard deviation is this radius (docs/apple-differences.md).
    /// Animatable.
    public var shadowRadius: CGFloat {
        get { modelState.shadow.radius }
        set { update(.shadowRadius, \.shadow.radius, newValue) }
    }

    /// How far the shadow is moved from the layer, in the layer's own coordinate space; (0, −3) by
    /// default (`CALayer.h`), 3 points up in Lamina's y-down space as on iOS. Animatable.
    public var shadowOffset: CGSize {
        get { modelState.shadow.offset }
        set { update(.shadowOffset, \.shadow.offset, newValue) }
    }

    /// The shadow's shape in the layer's coordinates, independent of what the layer draws; nil by
    /// default (the shape of what the layer draws). The path is copied when it is set, so changing a
    /// `CGMutablePath` afterwards does not change the shadow. Animatable.
    public var shadowPath: CGPath? {
        get { modelState.shadow.path }
        set { update(.shadowPath, \.shadow.path, newValue.flatMap { $0.copy() }) }
    }
}
