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

    /// The row's value kind, read from a flat copy of the table's column (hot paths: animation
    /// evaluation, validation, every property change) instead of the row itself.
    @inlinable
    public var valueKind: LayerValue.Kind { LayerPropertyDescriptor.columns.valueKinds[Int(rawValue) - 1] }

    /// The row's constraint, from the same flat copy.
    @inlinable
    public var constraint: LayerPropertyDescriptor.Constraint {
        LayerPropertyDescriptor.columns.constraints[Int(rawValue) - 1]
    }

    /// Whether the row says the property animates, from the same flat copy.
    @inlinable
    public var isAnimatable: Bool { LayerPropertyDescriptor.columns.animatable & (1 << rawValue) != 0 }
}
