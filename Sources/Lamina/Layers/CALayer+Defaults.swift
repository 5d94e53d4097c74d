import Foundation

extension CALayer {
    /// Core Animation's default for a built-in key, as key-value coding returns it (the answer of
    /// the base `defaultValue(forKey:)`), or nil for a key Lamina does not have.
    ///
    /// Layer properties answer from their row in `LayerPropertyDescriptor.table` (the initial value
    /// of the `LayerState` field), so a property added to the table has its default here too; the
    /// `CAMediaTiming` keys the server does not need answer from the values `CALayer` starts with.
    ///
    /// As on Apple platforms (GNUstep's QuartzCore tests run on macOS, issue 24), `bounds`,
    /// `position` and `minificationFilterBias` have no class default (nil; a layer starts with the
    /// zero rectangle, the zero point and 0), and `drawsAsynchronously` answers false.
    static func builtInDefaultValue(forKey key: String) -> Any? {
        switch key {
        case "bounds", "position", "minificationFilterBias": return nil
        case "drawsAsynchronously": return NSNumber(value: false)
        default: break
        }
        if let property = LayerPropertyName(key: key, of: .layer) {
            // `speed` is a `Float` on `CALayer`, though the table stores it as a double.
            if property == .speed { return NSNumber(value: Float(1)) }
            return property.descriptor.defaultValue.boxed
        }
        switch key {
        case "duration": return NSNumber(value: CFTimeInterval.infinity)
        case "repeatCount": return NSNumber(value: Float(0))
        case "repeatDuration": return NSNumber(value: CFTimeInterval(0))
        case "autoreverses": return NSNumber(value: false)
        case "fillMode": return CAMediaTimingFillMode.removed.rawValue
        default: return dynamicRangeDefault(forKey: key)
        }
    }
}
