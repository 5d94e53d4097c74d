import Foundation

/// The shape of the ends of a `CAShapeLayer`'s open strokes (`CAShapeLayer.lineCap`).
///
/// String-backed like Apple's `CAShapeLayerLineCap`. Unknown names are kept as given and drawn like
/// `butt`.
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    /// The cap's name, as Core Animation spells it.
    public let rawValue: String
    /// Wraps a cap name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a cap name without an argument label.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The stroke ends square at the end point (the default), `"butt"`.
    public static let butt = CAShapeLayerLineCap("butt")
    /// A half circle past the end point, `"round"`.
    public static let round = CAShapeLayerLineCap("round")
    /// A half square past the end point, `"square"`.
    public static let square = CAShapeLayerLineCap("square")
}
