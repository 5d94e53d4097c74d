import Foundation

extension CATransform3D {
    /// The transform a fraction `t` of the way from `self` to `other`, interpolated by
    /// decomposition (see `DecomposedTransform.interpolate`).
    ///
    /// `t == 0` returns `self` and `t == 1` returns `other`, exactly. When either end cannot be
    /// decomposed (singular, `m44 == 0`, not finite) the value switches discretely: `self` for
    /// `t < 1`, `other` from `t ≥ 1` (decisions.md A12). Other `t`, including values outside
    /// 0...1, extrapolate.
    public func interpolated(to other: CATransform3D, fraction t: Double) -> CATransform3D {
        if t == 0 { return self }
        if t == 1 { return other }
        guard let a = DecomposedTransform(self), let b = DecomposedTransform(other), !t.isNaN else {
            return t >= 1 ? other : self
        }
        return DecomposedTransform.interpolate(a, b, fraction: t).matrix
    }

    /// A distance between two transforms, used to pace keyframes.
    ///
    /// The Euclidean norm of the differences of the decomposed translation (3 numbers), scale
    /// (3 numbers) and the rotation angle between the two orientations in radians (0...π). Singular
    /// matrices are factored with zero scale factors (so a scale of 0 to 1 has a distance); when an
    /// entry is not finite the result is the Euclidean distance over the sixteen entries.
    public func distance(to other: CATransform3D) -> Double {
        guard let a = TransformFactors(self, allowSingular: true)?.decomposed,
            let b = TransformFactors(other, allowSingular: true)?.decomposed
        else {
            return zip(rowMajor, other.rowMajor).reduce(0.0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
        }
        let translation = SIMD3<Double>(
            a.translationX - b.translationX, a.translationY - b.translationY, a.translationZ - b.translationZ)
        let scale = SIMD3<Double>(a.scaleX - b.scaleX, a.scaleY - b.scaleY, a.scaleZ - b.scaleZ)
        let angle = DecomposedTransform.angle(between: a.quaternion, b.quaternion)
        return ((translation * translation).sum() + (scale * scale).sum() + angle * angle).squareRoot()
    }

    /// The value of one virtual component (`transform.rotation.z`, `transform.scale`, ...).
    ///
    /// The matrix is factored as scale, skew, rotation, translation and perspective (see
    /// `DecomposedTransform`); rotations are the Euler angles of `R = Rx · Ry · Rz` (x applied
    /// first, then y, then z), so `CATransform3DMakeRotation(a, 0, 0, 1)` reads `rotationZ == a`
    /// for `a` in (−π, π]. Singular matrices are accepted (a zero scale reads 0). NaN when an
    /// entry is not finite.
    public func component(_ c: TransformComponent) -> Double {
        guard let factors = TransformFactors(self, allowSingular: true) else { return .nan }
        let d = factors.decomposed
        switch c {
        case .rotationX: return factors.eulerAngles.x
        case .rotationY: return factors.eulerAngles.y
        case .rotationZ: return factors.eulerAngles.z
        case .scaleX: return d.scaleX
        case .scaleY: return d.scaleY
        case .scaleZ: return d.scaleZ
        case .scale: return (d.scaleX + d.scaleY + d.scaleZ) / 3
        case .translationX: return d.translationX
        case .translationY: return d.translationY
        case .translationZ: return d.translationZ
        }
    }

    /// This transform with one virtual component replaced: decompose, replace, recompose.
    ///
    /// Skew and perspective are kept. Setting a rotation rebuilds the rotation from the three
    /// Euler angles, so any angle is accepted (a z rotation of 2π gives the identity's rotation);
    /// setting `.scale` sets all three scale factors. On the identity, setting `rotationZ` to θ
    /// gives `CATransform3DMakeRotation(θ, 0, 0, 1)` and setting `translationX` to 10 gives
    /// `m41 == 10`. Singular matrices are accepted (see `component(_:)`); the transform is returned
    /// unchanged when `value` or an entry is not finite.
    public func setting(_ c: TransformComponent, to value: Double) -> CATransform3D {
        guard value.isFinite, var factors = TransformFactors(self, allowSingular: true) else { return self }
        switch c {
        case .rotationX, .rotationY, .rotationZ:
            var angles = factors.eulerAngles
            angles[Int(c.rawValue - TransformComponent.rotationX.rawValue)] = value
            factors.rotation = TransformFactors.rotationRows(euler: angles)
        case .scaleX: factors.decomposed.scaleX = value
        case .scaleY: factors.decomposed.scaleY = value
        case .scaleZ: factors.decomposed.scaleZ = value
        case .scale:
            factors.decomposed.scaleX = value
            factors.decomposed.scaleY = value
            factors.decomposed.scaleZ = value
        case .translationX: factors.decomposed.translationX = value
        case .translationY: factors.decomposed.translationY = value
        case .translationZ: factors.decomposed.translationZ = value
        }
        return factors.matrix
    }

    /// The virtual `translation` component: the x and y translation (`m41`, `m42`) as a size.
    public var translationXY: CGSize {
        CGSize(width: m41, height: m42)
    }

    /// This transform with its x and y translation replaced (the `transform.translation` key path).
    ///
    /// Decomposes, replaces both, recomposes, like `setting(_:to:)`; returned unchanged when a
    /// number is not finite.
    public func settingTranslationXY(_ s: CGSize) -> CATransform3D {
        guard s.width.isFinite, s.height.isFinite,
            var factors = TransformFactors(self, allowSingular: true)
        else { return self }
        factors.decomposed.translationX = s.width
        factors.decomposed.translationY = s.height
        return factors.matrix
    }
}
