import Foundation

/// How a `CAShapeLayer` decides what is inside its path (`CAShapeLayer.fillRule`).
///
/// String-backed like Apple's `CAShapeLayerFillRule`, with the same raw values. Unknown names are
/// kept as given and filled like `nonZero`.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    /// The rule's name, as Core Animation spells it.
    public let rawValue: String
    /// Wraps a rule name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a rule name without an argument label.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Inside where the path winds a non-zero number of times (the default), `"non-zero"`.
    public static let nonZero = CAShapeLayerFillRule("non-zero")
    /// Inside where the path crosses an odd number of times, `"even-odd"`.
    public static let evenOdd = CAShapeLayerFillRule("even-odd")
}
