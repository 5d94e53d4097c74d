import Foundation

/// How a `CAShapeLayer`'s stroke turns its corners (`CAShapeLayer.lineJoin`).
///
/// String-backed like Apple's `CAShapeLayerLineJoin`. Unknown names are kept as given and drawn like
/// `miter`.
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    /// The join's name, as Core Animation spells it.
    public let rawValue: String
    /// Wraps a join name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a join name without an argument label.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// A sharp corner, cut to a bevel past `miterLimit` (the default), `"miter"`.
    public static let miter = CAShapeLayerLineJoin("miter")
    /// A rounded corner, `"round"`.
    public static let round = CAShapeLayerLineJoin("round")
    /// A corner cut straight across, `"bevel"`.
    public static let bevel = CAShapeLayerLineJoin("bevel")
}
