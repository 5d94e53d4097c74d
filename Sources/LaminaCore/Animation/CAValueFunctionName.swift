import Foundation

/// The name of a function that maps an animated value to a transform (Apple's
/// `CAValueFunctionName`): one number, or three for `scale` and `translate`.
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
    /// The name, as Core Animation spells it.
    public let rawValue: String
    /// Wraps a raw name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a raw name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Rotation about the x axis by one number (radians).
    public static let rotateX = CAValueFunctionName("rotateX")
    /// Rotation about the y axis by one number (radians).
    public static let rotateY = CAValueFunctionName("rotateY")
    /// Rotation about the z axis by one number (radians).
    public static let rotateZ = CAValueFunctionName("rotateZ")
    /// Scale by three numbers (x, y, z).
    public static let scale = CAValueFunctionName("scale")
    /// Scale along x by one number.
    public static let scaleX = CAValueFunctionName("scaleX")
    /// Scale along y by one number.
    public static let scaleY = CAValueFunctionName("scaleY")
    /// Scale along z by one number.
    public static let scaleZ = CAValueFunctionName("scaleZ")
    /// Translation by three numbers (x, y, z).
    public static let translate = CAValueFunctionName("translate")
    /// Translation along x by one number.
    public static let translateX = CAValueFunctionName("translateX")
    /// Translation along y by one number.
    public static let translateY = CAValueFunctionName("translateY")
    /// Translation along z by one number.
    public static let translateZ = CAValueFunctionName("translateZ")

    /// Every name Lamina implements.
    public static let known: [CAValueFunctionName] = [
        .rotateX, .rotateY, .rotateZ, .scale, .scaleX, .scaleY, .scaleZ, .translate, .translateX, .translateY,
        .translateZ,
    ]

    /// The kind of value the function takes: three numbers for `scale` and `translate`, one
    /// otherwise.
    public var inputKind: AnimationValue.Kind {
        self == .scale || self == .translate ? .vector : .number
    }

    /// The transform for `value`; nil for an unknown name or a value of the wrong kind.
    public func transform(_ value: AnimationValue) -> CATransform3D? {
        if case .vector(let v) = value {
            switch self {
            case .scale: return CATransform3DMakeScale(v.x, v.y, v.z)
            case .translate: return CATransform3DMakeTranslation(v.x, v.y, v.z)
            default: return nil
            }
        }
        guard inputKind == .number, case .number(let v) = value else { return nil }
        return switch self {
        case .rotateX: CATransform3DMakeRotation(v, 1, 0, 0)
        case .rotateY: CATransform3DMakeRotation(v, 0, 1, 0)
        case .rotateZ: CATransform3DMakeRotation(v, 0, 0, 1)
        case .scaleX: CATransform3DMakeScale(v, 1, 1)
        case .scaleY: CATransform3DMakeScale(1, v, 1)
        case .scaleZ: CATransform3DMakeScale(1, 1, v)
        case .translateX: CATransform3DMakeTranslation(v, 0, 0)
        case .translateY: CATransform3DMakeTranslation(0, v, 0)
        case .translateZ: CATransform3DMakeTranslation(0, 0, v)
        default: nil
        }
    }

    /// The input that gives the identity transform (1 for scales, 0 otherwise).
    var neutral: AnimationValue {
        switch self {
        case .scale: .vector(SIMD3(1, 1, 1))
        case .translate: .vector(SIMD3(0, 0, 0))
        case .scaleX, .scaleY, .scaleZ: .number(1)
        default: .number(0)
        }
    }
}
