import Foundation

/// The geometry of a `CAGradientLayer` (`CAGradientLayer.type`).
///
/// String-backed like Apple's `CAGradientLayerType`. Unknown names are kept as given and drawn like
/// `axial`.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    /// The type's name, as Core Animation spells it.
    public let rawValue: String
    /// Wraps a type name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a type name without an argument label.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Colours change along the line from `startPoint` to `endPoint` (the default), `"axial"`.
    public static let axial = CAGradientLayerType("axial")
    /// Colours change from `startPoint` outwards to the ellipse whose half axes reach `endPoint`,
    /// `"radial"`.
    public static let radial = CAGradientLayerType("radial")
    /// Colours change with the angle about `startPoint`, from the direction of `endPoint`, `"conic"`.
    public static let conic = CAGradientLayerType("conic")
}
