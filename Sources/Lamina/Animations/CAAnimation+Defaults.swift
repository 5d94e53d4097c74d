import Foundation

extension CAAnimation {
    /// Core Animation's default for a key of this animation class, as key-value coding returns it
    /// (the answer of the base `defaultValue(forKey:)`), or nil for a key the class does not have.
    ///
    /// These are the values a new animation starts with: `duration` 0 (which takes the
    /// transaction's `animationDuration` when added to a layer), `speed` 1, `fillMode` removed,
    /// `removedOnCompletion` true; `calculationMode` linear for keyframe animations; `mass` 1,
    /// `stiffness` 100, `damping` 10 and `initialVelocity` 0 for springs; `type` fade and progress
    /// 0 to 1 for transitions.
    static func builtInDefaultValue(forKey key: String) -> Any? {
        if let value = timingDefault(forKey: key) { return value }
        if self is CAPropertyAnimation.Type, key == "additive" || key == "cumulative" {
            return NSNumber(value: false)
        }
        if self is CAKeyframeAnimation.Type, key == "calculationMode" {
            return CAAnimationCalculationMode.linear.rawValue
        }
        if self is CASpringAnimation.Type {
            switch key {
            case "mass": return NSNumber(value: Double(1))
            case "stiffness": return NSNumber(value: Double(100))
            case "damping": return NSNumber(value: Double(10))
            case "initialVelocity": return NSNumber(value: Double(0))
            default: break
            }
        }
        if self is CATransition.Type {
            switch key {
            case "type": return CATransitionType.fade.rawValue
            case "startProgress": return NSNumber(value: Float(0))
            case "endProgress": return NSNumber(value: Float(1))
            default: break
            }
        }
        return nil
    }

    /// The defaults of the `CAMediaTiming` keys and of `removedOnCompletion`, which every animation has.
    private static func timingDefault(forKey key: String) -> Any? {
        switch key {
        case "beginTime", "duration", "timeOffset", "repeatDuration": NSNumber(value: CFTimeInterval(0))
        case "speed", "repeatCount": NSNumber(value: Float(key == "speed" ? 1 : 0))
        case "autoreverses": NSNumber(value: false)
        case "removedOnCompletion": NSNumber(value: true)
        case "fillMode": CAMediaTimingFillMode.removed.rawValue
        default: nil
        }
    }
}
