import Foundation

/// The properties of a `CAGradientLayer`, as plain values with Core Animation's defaults: the storage
/// behind `LayerClassState.gradient`.
///
/// Declared once as rows of `LayerPropertyDescriptor.gradientRows`.
public struct GradientLayerState: Sendable, Hashable {
    /// The colours of the gradient stops; nil (nothing drawn) by default. Fewer than two draw nothing.
    public var colors: [RGBAColor]? = nil
    /// Where each colour lies along the gradient (0...1); nil spaces them evenly. A count other than
    /// that of `colors` draws nothing.
    public var locations: [Double]? = nil
    /// Where the gradient starts, in the unit coordinates of the bounds.
    public var startPoint = CGPoint(x: 0.5, y: 0)
    /// Where the gradient ends, in the unit coordinates of the bounds.
    public var endPoint = CGPoint(x: 0.5, y: 1)
    /// The gradient's geometry: axial, radial or conic.
    public var type: CAGradientLayerType = .axial

    /// A gradient layer's properties at their defaults.
    public init() {}

    /// The defaults, read when a layer of another class is asked for a gradient property.
    public static let defaults = GradientLayerState()
}
