import Foundation

/// Names one layer property. The raw value is the property's code in a set-property operation on
/// the wire (docs/protocol.md §7); the property's other facts are in its `descriptor`.
public enum LayerPropertyName: UInt8, Sendable, Hashable, CaseIterable {
    case bounds = 1, position, anchorPoint, anchorPointZ, zPosition, transform, sublayerTransform
    case opacity, hidden, backgroundColor, cornerRadius, maskedCorners, borderWidth, borderColor
    case masksToBounds, name, beginTime, timeOffset, speed

    /// The property's row in `LayerPropertyDescriptor.table`.
    @inlinable
    public var descriptor: LayerPropertyDescriptor { LayerPropertyDescriptor.table[Int(rawValue) - 1] }

    /// The key Core Animation uses for the property (also the action key of a change).
    public var key: String { descriptor.key }

    /// The property whose Core Animation key is `key` (`"hidden"` for `isHidden`), or nil.
    public init?(key: String) {
        guard let name = LayerPropertyDescriptor.byKey[key] else { return nil }
        self = name
    }

    /// The animatable property whose code in an animation's target is `animationCode`, or nil.
    public init?(animationCode: UInt8) {
        guard let row = LayerPropertyDescriptor.table.first(where: { $0.animation?.code == animationCode })
        else { return nil }
        self = row.name
    }
}
