import Foundation

/// The corners that `cornerRadius` rounds (Apple's `CACornerMask` bit values).
public struct CACornerMask: OptionSet, Sendable, Hashable, Codable {
    /// The corner bits, as in Apple's `CACornerMask`.
    public let rawValue: UInt
    /// A mask with the given corner bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The top-left corner in iOS (y-down) coordinates.
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    /// The top-right corner in iOS (y-down) coordinates.
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    /// The bottom-left corner in iOS (y-down) coordinates.
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    /// The bottom-right corner in iOS (y-down) coordinates.
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
    /// All four corners, the default.
    public static let all: CACornerMask = [
        .layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner,
    ]
}
