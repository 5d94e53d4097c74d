import Foundation

/// Whether a layer moving along a keyframe path turns to follow it, mirroring Core Animation's
/// `CAAnimationRotationMode`.
///
/// String-backed like Apple's, with the same raw values. With either mode the layer's rotation
/// about z is the path's tangent angle (`PathTimeline.tangentAngle(at:)`); `rotateAutoReverse`
/// adds π. Without a mode (nil) the layer does not turn.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a mode name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a mode name without an argument label.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Turn to the direction of travel.
    public static let rotateAuto = CAAnimationRotationMode("auto")
    /// Turn to the opposite of the direction of travel.
    public static let rotateAutoReverse = CAAnimationRotationMode("autoReverse")
}
