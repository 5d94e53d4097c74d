import Foundation

// PLACEHOLDER: replaced by the decomposition work (see the helper's task).
extension CATransform3D {
    /// The transform a fraction `t` of the way from `self` to `other`.
    public func interpolated(to other: CATransform3D, fraction t: Double) -> CATransform3D {
        let a = AnimationValue.transform(self).components
        let b = AnimationValue.transform(other).components
        guard case .transform(let m) = AnimationValue.make(.transform, zip(a, b).map { $0 + ($1 - $0) * t }) else { return self }
        return m
    }

    /// A distance between two transforms for paced keyframes.
    public func distance(to other: CATransform3D) -> Double {
        0
    }
}

// PLACEHOLDER stubs so dependants compile until the real decomposition lands.
public enum TransformComponent: UInt8, Sendable, Hashable, CaseIterable {
    case rotationX = 1, rotationY, rotationZ, scaleX, scaleY, scaleZ, scale, translationX, translationY, translationZ
}

extension CATransform3D {
    public func component(_ c: TransformComponent) -> Double {
        switch c {
        case .translationX: m41
        case .translationY: m42
        case .translationZ: m43
        case .rotationZ: atan2(m12, m11)
        default: 0
        }
    }
    public func setting(_ c: TransformComponent, to value: Double) -> CATransform3D {
        var m = self
        switch c {
        case .translationX: m.m41 = value
        case .translationY: m.m42 = value
        case .translationZ: m.m43 = value
        case .rotationZ:
            let r = CATransform3DMakeRotation(value, 0, 0, 1)
            m.m11 = r.m11; m.m12 = r.m12; m.m21 = r.m21; m.m22 = r.m22
        default: break
        }
        return m
    }
    public var translationXY: CGSize { CGSize(width: m41, height: m42) }
    public func settingTranslationXY(_ s: CGSize) -> CATransform3D {
        var m = self
        m.m41 = s.width; m.m42 = s.height
        return m
    }
}
