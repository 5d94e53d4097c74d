import Foundation

/// The curve that shapes a layer's rounded corners (`CALayer.cornerCurve`).
///
/// String-backed like Apple's `CALayerCornerCurve`, with the same raw values. Unknown names are kept
/// as given and drawn like `circular`.
public struct CALayerCornerCurve: RawRepresentable, Hashable, Sendable {
    /// The curve's name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a curve name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a curve name without an argument label.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A quarter circle of radius `cornerRadius` (the default).
    public static let circular = CALayerCornerCurve("circular")
    /// A corner whose curvature rises smoothly from 0 where it meets the edges: it starts
    /// `cornerRadius × 1.528665` from the corner along each edge (`expansionFactor`).
    public static let continuous = CALayerCornerCurve("continuous")

    /// How far along each edge the corner reaches, as a multiple of `cornerRadius`: Apple's values,
    /// 1 for `circular` (and unknown names) and 1.528665 for `continuous`.
    public var expansionFactor: CGFloat { self == .continuous ? 1.528665 : 1 }
}
