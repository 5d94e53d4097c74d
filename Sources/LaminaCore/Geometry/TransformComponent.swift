import Foundation

/// One of the virtual components of a transform that Core Animation exposes as key paths
/// (`transform.rotation.z`, `transform.scale`, `transform.translation.x`, ...).
///
/// The raw values are stable and may travel on the wire. `transform.translation` (x and y
/// together, a `CGSize`) is not a case; see `CATransform3D.translationXY`.
public enum TransformComponent: UInt8, Sendable, Hashable, CaseIterable {
    /// `rotation.x`: the Euler angle about x, in radians.
    case rotationX = 1
    /// `rotation.y`: the Euler angle about y, in radians.
    case rotationY
    /// `rotation.z` (and plain `rotation`): the Euler angle about z, in radians.
    case rotationZ
    /// `scale.x`: the scale factor along x.
    case scaleX
    /// `scale.y`: the scale factor along y.
    case scaleY
    /// `scale.z`: the scale factor along z.
    case scaleZ
    /// `scale`: reads the average of the three scale factors; setting it sets all three
    /// (decisions.md A16).
    case scale
    /// `translation.x`: the translation along x.
    case translationX
    /// `translation.y`: the translation along y.
    case translationY
    /// `translation.z`: the translation along z.
    case translationZ

    /// The component named by a key-path suffix after `transform.` or `sublayerTransform.`.
    ///
    /// Accepts `rotation.x`, `rotation.y`, `rotation.z`, `rotation` (same as `rotation.z`),
    /// `scale.x`, `scale.y`, `scale.z`, `scale`, `translation.x`, `translation.y` and
    /// `translation.z`; nil for anything else, including `translation` (a `CGSize`).
    public init?(keyPath: String) {
        switch keyPath {
        case "rotation.x": self = .rotationX
        case "rotation.y": self = .rotationY
        case "rotation.z", "rotation": self = .rotationZ
        case "scale.x": self = .scaleX
        case "scale.y": self = .scaleY
        case "scale.z": self = .scaleZ
        case "scale": self = .scale
        case "translation.x": self = .translationX
        case "translation.y": self = .translationY
        case "translation.z": self = .translationZ
        default: return nil
        }
    }

    /// The canonical key-path suffix (`"rotation.z"`, `"scale"`, ...).
    public var keyPath: String {
        switch self {
        case .rotationX: "rotation.x"
        case .rotationY: "rotation.y"
        case .rotationZ: "rotation.z"
        case .scaleX: "scale.x"
        case .scaleY: "scale.y"
        case .scaleZ: "scale.z"
        case .scale: "scale"
        case .translationX: "translation.x"
        case .translationY: "translation.y"
        case .translationZ: "translation.z"
        }
    }
}
