import Foundation

/// Names one layer property. The raw value is the property's code in a set-property operation on
/// the wire (docs/protocol.md §7); the property's other facts are in its `descriptor`.
public enum LayerPropertyName: UInt8, Sendable, Hashable, CaseIterable {
    case bounds = 1, position, anchorPoint, anchorPointZ, zPosition, transform, sublayerTransform
    case opacity, hidden, backgroundColor, cornerRadius, maskedCorners, borderWidth, borderColor
    case masksToBounds, name, beginTime, timeOffset, speed, geometryFlipped, cornerCurve
    case contentsRect, contentsCenter, contentsScale, contentsGravity, allowsEdgeAntialiasing, allowsGroupOpacity
    case edgeAntialiasingMask, minificationFilter, magnificationFilter, minificationFilterBias, opaque, doubleSided
    case shouldRasterize, rasterizationScale, contents
    // CAShapeLayer (LayerPropertyDescriptor.shapeRows)
    case path, fillColor, fillRule, strokeColor, lineWidth, miterLimit, lineCap, lineJoin, lineDashPattern
    case lineDashPhase, strokeStart, strokeEnd
    // CAGradientLayer (LayerPropertyDescriptor.gradientRows)
    case colors, locations, startPoint, endPoint, gradientType
    // Every layer's shadow (LayerPropertyDescriptor.shadowRows), after the class blocks so that no
    // earlier code moved
    case shadowColor, shadowOpacity, shadowRadius, shadowOffset, shadowPath
    // CATextLayer (LayerPropertyDescriptor.textRows)
    case textString, font, fontSize, foregroundColor, wrapped, truncationMode, alignmentMode
    case allowsFontSubpixelQuantization, tintsContents
    // CAReplicatorLayer (LayerPropertyDescriptor.replicatorRows)
    case instanceCount, instanceDelay, instanceTransform, instanceColor, instanceRedOffset, instanceGreenOffset
    case instanceBlueOffset, instanceAlphaOffset, preservesDepth
    // CAEmitterLayer (LayerPropertyDescriptor.emitterRows)
    case emitterBirthRate, emitterLifetime, emitterVelocity, emitterScale, emitterSpin, emitterPosition
    case emitterZPosition, emitterSize, emitterDepth, emitterShape, emitterMode, renderMode, emitterSeed
    // Every layer's Core Image filters (LayerPropertyDescriptor.filterRows)
    case filters, backgroundFilters, compositingFilter
    // CAEmitterLayer's preservesDepth (LayerPropertyDescriptor.emitterDepthRows), after the filters so
    // that no earlier code moved
    case emitterPreservesDepth

    /// The property's row in `LayerPropertyDescriptor.table`.
    @inlinable
    public var descriptor: LayerPropertyDescriptor { LayerPropertyDescriptor.table[Int(rawValue) - 1] }

    /// The key Core Animation uses for the property (also the action key of a change).
    public var key: String { descriptor.key }

    /// The property whose Core Animation key is `key` (`"hidden"` for `isHidden`), of any layer
    /// class, or nil.
    public init?(key: String) {
        guard let name = LayerPropertyDescriptor.byKey[key] else { return nil }
        self = name
    }

    /// The property whose key is `key` among those a layer of class `owner` has, or nil (a shape
    /// layer's `"strokeEnd"` is a property; a plain layer's is a custom key).
    public init?(key: String, of owner: LayerClass) {
        guard let name = LayerPropertyDescriptor.byKey[key], name.descriptor.belongs(to: owner) else { return nil }
        self = name
    }

    /// The class whose layers have the property (`.layer`: every layer).
    public var layerClass: LayerClass { descriptor.layerClass }

    /// The properties a layer of each class has, in table order, by class raw value.
    static let allByClass: [[LayerPropertyName]] = (0...LayerClass.allCases.map(\.rawValue).max()!).map { raw in
        LayerClass(rawValue: raw).map { owner in allCases.filter { $0.descriptor.belongs(to: owner) } } ?? []
    }

    /// The properties a layer of class `owner` has, in table order: every layer's, then the class's.
    @inline(__always)
    public static func all(of owner: LayerClass) -> [LayerPropertyName] { allByClass[Int(owner.rawValue)] }

    /// The animatable property whose code in an animation's target is `animationCode`, or nil.
    public init?(animationCode: UInt8) {
        guard let row = LayerPropertyDescriptor.table.first(where: { $0.animation?.code == animationCode })
        else { return nil }
        self = row.name
    }

    /// The row's value kind, read from the table's packed columns (hot paths: animation evaluation,
    /// validation, every property change) instead of the row itself.
    @inlinable
    public var valueKind: LayerValue.Kind {
        let code = Int(rawValue)
        let byte = LayerPropertyDescriptor.columns.kinds[(code >> 3) & 15] >> (8 * UInt64(code & 7))
        return LayerValue.Kind(rawValue: UInt8(truncatingIfNeeded: byte & 0xFF)) ?? .number
    }

    /// The row's constraint, from the same packed columns.
    @inlinable
    public var constraint: LayerPropertyDescriptor.Constraint {
        let code = Int(rawValue)
        let bits = LayerPropertyDescriptor.columns.constraints[(code >> 5) & 3] >> (2 * UInt64(code & 31))
        switch bits & 3 {
        case 1: return .nonNegative
        case 2: return .unitInterval
        case 3: return .dashPattern
        default: return LayerPropertyDescriptor.Constraint.none
        }
    }

    /// Whether the row says the property animates, from the same packed columns.
    @inlinable
    public var isAnimatable: Bool {
        let code = Int(rawValue)
        return LayerPropertyDescriptor.columns.animatable[(code >> 6) & 1] & (1 << UInt64(code & 63)) != 0
    }
}
