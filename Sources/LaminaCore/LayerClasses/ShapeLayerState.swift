import Foundation

/// The properties of a `CAShapeLayer`, as plain values with Core Animation's defaults: the storage
/// behind `LayerClassState.shape`, on the client (the model) and on the server (each render-tree layer).
///
/// Declared once as rows of `LayerPropertyDescriptor.shapeRows`; `LayerState[_:]` reads and writes them.
public struct ShapeLayerState: Sendable, Hashable {
    /// The path drawn, in the layer's coordinates; nil draws nothing. Copied on set, so it never changes.
    public var path: CGPath? = nil
    /// The colour that fills the path; opaque black by default, nil for no fill.
    public var fillColor: RGBAColor? = RGBAColor.black
    /// How the inside of the path is decided.
    public var fillRule: CAShapeLayerFillRule = .nonZero
    /// The colour of the stroke; nil (no stroke) by default.
    public var strokeColor: RGBAColor? = nil
    /// The width of the stroke, in layer units.
    public var lineWidth: CGFloat = 1
    /// How far a miter join may reach, as a multiple of half the line width, before it is bevelled.
    public var miterLimit: CGFloat = 10
    /// The shape of open stroke ends.
    public var lineCap: CAShapeLayerLineCap = .butt
    /// How the stroke turns corners.
    public var lineJoin: CAShapeLayerLineJoin = .miter
    /// Painted and unpainted lengths that alternate along the stroke, starting with a painted one;
    /// nil (a solid stroke) by default.
    public var lineDashPattern: [Double]? = nil
    /// How far into the dash pattern the stroke starts.
    public var lineDashPhase: CGFloat = 0
    /// Where the stroke starts, as a fraction of the path's length (0...1).
    public var strokeStart: CGFloat = 0
    /// Where the stroke ends, as a fraction of the path's length (0...1).
    public var strokeEnd: CGFloat = 1

    /// A shape layer's properties at their defaults.
    public init() {}

    /// The defaults, read when a layer of another class is asked for a shape property.
    public static let defaults = ShapeLayerState()
}
