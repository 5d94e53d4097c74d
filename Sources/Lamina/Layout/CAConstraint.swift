import Foundation

/// One geometric relation for constraint layout (Apple's `CAConstraint`): an attribute of the layer
/// that holds the constraint equals an attribute of a reference layer times `scale` plus `offset`.
///
/// The reference layer is named: `"superlayer"` is the layer's superlayer (its bounds), any other
/// name the first sibling with that `name`. A `CAConstraintLayoutManager` set on the superlayer applies
/// the constraints at each layout pass. Constraints are immutable and may be shared.
open class CAConstraint: NSObject, NSSecureCoding, @unchecked Sendable {
    /// The attribute of the layer that the constraint sets.
    public let attribute: CAConstraintAttribute
    /// The name of the reference layer: `"superlayer"` or a sibling's `name`.
    public let sourceName: String
    /// The attribute of the reference layer that the value is computed from.
    public let sourceAttribute: CAConstraintAttribute
    /// The factor applied to the reference attribute's value.
    public let scale: CGFloat
    /// The constant added after scaling.
    public let offset: CGFloat

    /// A constraint setting `attr` to `srcAttr` of the layer named `srcId`, times `m`, plus `c`.
    public init(
        attribute attr: CAConstraintAttribute, relativeTo srcId: String, attribute srcAttr: CAConstraintAttribute,
        scale m: CGFloat, offset c: CGFloat
    ) {
        attribute = attr
        sourceName = srcId
        sourceAttribute = srcAttr
        scale = m
        offset = c
        super.init()
    }

    /// A constraint setting `attr` to `srcAttr` of the layer named `srcId` plus `c` (scale 1).
    public convenience init(
        attribute attr: CAConstraintAttribute, relativeTo srcId: String, attribute srcAttr: CAConstraintAttribute,
        offset c: CGFloat
    ) {
        self.init(attribute: attr, relativeTo: srcId, attribute: srcAttr, scale: 1, offset: c)
    }

    /// A constraint setting `attr` equal to `srcAttr` of the layer named `srcId` (scale 1, offset 0).
    public convenience init(
        attribute attr: CAConstraintAttribute, relativeTo srcId: String, attribute srcAttr: CAConstraintAttribute
    ) {
        self.init(attribute: attr, relativeTo: srcId, attribute: srcAttr, scale: 1, offset: 0)
    }

    /// A constraint from an archive written by `encode(with:)`; nil when the archive is damaged.
    public required init?(coder: NSCoder) {
        guard let attr = CAConstraintAttribute(rawValue: coder.decodeInt32(forKey: "attribute")),
            let srcAttr = CAConstraintAttribute(rawValue: coder.decodeInt32(forKey: "sourceAttribute")),
            let name = coder.decodeObject(of: [NSString.self], forKey: "sourceName") as? String,
            coder.containsValue(forKey: "attribute"), coder.containsValue(forKey: "sourceAttribute")
        else { return nil }
        attribute = attr
        sourceName = name
        sourceAttribute = srcAttr
        scale = coder.containsValue(forKey: "scale") ? CGFloat(coder.decodeDouble(forKey: "scale")) : 1
        offset = CGFloat(coder.decodeDouble(forKey: "offset"))
        super.init()
    }

    /// True: constraints decode safely from a secure archive.
    open class var supportsSecureCoding: Bool { true }

    /// Archives the attributes, the reference name, the scale and the offset.
    open func encode(with coder: NSCoder) {
        coder.encode(attribute.rawValue, forKey: "attribute")
        coder.encode(NSString(string: sourceName), forKey: "sourceName")
        coder.encode(sourceAttribute.rawValue, forKey: "sourceAttribute")
        coder.encode(Double(scale), forKey: "scale")
        coder.encode(Double(offset), forKey: "offset")
    }

    /// The value the constraint gives its attribute when the reference attribute has `source`.
    func value(from source: CGFloat) -> CGFloat { source * scale + offset }
}
