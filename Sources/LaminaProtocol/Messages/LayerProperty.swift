import Foundation
import LaminaCore

/// One layer property with its value, as carried by a set-property operation.
///
/// Each case is one row of `LayerPropertyDescriptor.table`; the code, key, validation, clamping and
/// wire layout come from that row. Only the three conversions below (`name`, `value` and
/// `init(_:_:)`) name the cases one by one.
public enum LayerProperty: Sendable, Hashable {
    case bounds(CGRect)
    case position(CGPoint)
    case anchorPoint(CGPoint)
    case anchorPointZ(CGFloat)
    case zPosition(CGFloat)
    case transform(CATransform3D)
    case sublayerTransform(CATransform3D)
    case opacity(Float)
    case isHidden(Bool)
    case backgroundColor(RGBAColor?)
    case cornerRadius(CGFloat)
    case maskedCorners(CACornerMask)
    case borderWidth(CGFloat)
    case borderColor(RGBAColor?)
    case masksToBounds(Bool)
    case name(String?)
    case beginTime(Double)
    case timeOffset(Double)
    case speed(Double)
    case isGeometryFlipped(Bool)
    case cornerCurve(CALayerCornerCurve)
    case contentsRect(CGRect)
    case contentsCenter(CGRect)
    case contentsScale(CGFloat)
    case contentsGravity(CALayerContentsGravity)
    case allowsEdgeAntialiasing(Bool)
    case allowsGroupOpacity(Bool)
    case edgeAntialiasingMask(CAEdgeAntialiasingMask)
    case minificationFilter(CALayerContentsFilter)
    case magnificationFilter(CALayerContentsFilter)
    case minificationFilterBias(Float)
    case isOpaque(Bool)
    case isDoubleSided(Bool)
    case shouldRasterize(Bool)
    case rasterizationScale(CGFloat)
    case contents(UInt64)
    // CAShapeLayer
    case path(CGPath?)
    case fillColor(RGBAColor?)
    case fillRule(CAShapeLayerFillRule)
    case strokeColor(RGBAColor?)
    case lineWidth(CGFloat)
    case miterLimit(CGFloat)
    case lineCap(CAShapeLayerLineCap)
    case lineJoin(CAShapeLayerLineJoin)
    case lineDashPattern([Double]?)
    case lineDashPhase(CGFloat)
    case strokeStart(CGFloat)
    case strokeEnd(CGFloat)
    // CAGradientLayer
    case colors([RGBAColor]?)
    case locations([Double]?)
    case startPoint(CGPoint)
    case endPoint(CGPoint)
    case gradientType(CAGradientLayerType)
    case shadowColor(RGBAColor?)
    case shadowOpacity(Float)
    case shadowRadius(CGFloat)
    case shadowOffset(CGSize)
    case shadowPath(CGPath?)
    // CATextLayer
    case textString(String?)
    case font(String?)
    case fontSize(CGFloat)
    case foregroundColor(RGBAColor?)
    case isWrapped(Bool)
    case truncationMode(String)
    case alignmentMode(String)
    case allowsFontSubpixelQuantization(Bool)
    case tintsContents(Bool)
    // CAReplicatorLayer
    /// `instanceCount` travels as a number so that a NaN, negative or too large count reaches the
    /// server's validation (`invalidValue`) instead of failing to decode; a fraction is truncated.
    case instanceCount(Double)
    case instanceDelay(Double)
    case instanceTransform(CATransform3D)
    case instanceColor(RGBAColor?)
    case instanceRedOffset(Float)
    case instanceGreenOffset(Float)
    case instanceBlueOffset(Float)
    case instanceAlphaOffset(Float)
    case preservesDepth(Bool)
    // CAEmitterLayer
    case emitterBirthRate(Float)
    case emitterLifetime(Float)
    case emitterVelocity(Float)
    case emitterScale(Float)
    case emitterSpin(Float)
    case emitterPosition(CGPoint)
    case emitterZPosition(Double)
    case emitterSize(CGSize)
    case emitterDepth(Double)
    case emitterShape(String)
    case emitterMode(String)
    case renderMode(String)
    /// The seed travels as a number; its whole part modulo 2³² seeds the draws.
    case emitterSeed(Double)
    /// `filters`: the filters of the layer's drawing, as the server draws them.
    case filters([LayerFilter])
    /// `backgroundFilters`: the filters of what lies behind the layer.
    case backgroundFilters([LayerFilter])
    /// `compositingFilter`: a `LayerBlendMode` code, 0 for none. It travels as a number so that an
    /// unknown code reaches validation, which names the property.
    case compositingFilter(Double)
    /// `CAEmitterLayer.preservesDepth` (code 93).
    case emitterPreservesDepth(Bool)

    /// The property this value is for.
    public var name: LayerPropertyName {
        switch self {
        case .bounds: .bounds
        case .position: .position
        case .anchorPoint: .anchorPoint
        case .anchorPointZ: .anchorPointZ
        case .zPosition: .zPosition
        case .transform: .transform
        case .sublayerTransform: .sublayerTransform
        case .opacity: .opacity
        case .isHidden: .hidden
        case .backgroundColor: .backgroundColor
        case .cornerRadius: .cornerRadius
        case .maskedCorners: .maskedCorners
        case .borderWidth: .borderWidth
        case .borderColor: .borderColor
        case .masksToBounds: .masksToBounds
        case .name: .name
        case .beginTime: .beginTime
        case .timeOffset: .timeOffset
        case .speed: .speed
        case .isGeometryFlipped: .geometryFlipped
        case .cornerCurve: .cornerCurve
        case .contentsRect: .contentsRect
        case .contentsCenter: .contentsCenter
        case .contentsScale: .contentsScale
        case .contentsGravity: .contentsGravity
        case .allowsEdgeAntialiasing: .allowsEdgeAntialiasing
        case .allowsGroupOpacity: .allowsGroupOpacity
        case .edgeAntialiasingMask: .edgeAntialiasingMask
        case .minificationFilter: .minificationFilter
        case .magnificationFilter: .magnificationFilter
        case .minificationFilterBias: .minificationFilterBias
        case .isOpaque: .opaque
        case .isDoubleSided: .doubleSided
        case .shouldRasterize: .shouldRasterize
        case .rasterizationScale: .rasterizationScale
        case .contents: .contents
        case .path: .path
        case .fillColor: .fillColor
        case .fillRule: .fillRule
        case .strokeColor: .strokeColor
        case .lineWidth: .lineWidth
        case .miterLimit: .miterLimit
        case .lineCap: .lineCap
        case .lineJoin: .lineJoin
        case .lineDashPattern: .lineDashPattern
        case .lineDashPhase: .lineDashPhase
        case .strokeStart: .strokeStart
        case .strokeEnd: .strokeEnd
        case .colors: .colors
        case .locations: .locations
        case .startPoint: .startPoint
        case .endPoint: .endPoint
        case .gradientType: .gradientType
        case .shadowColor: .shadowColor
        case .shadowOpacity: .shadowOpacity
        case .shadowRadius: .shadowRadius
        case .shadowOffset: .shadowOffset
        case .shadowPath: .shadowPath
        case .textString: .textString
        case .font: .font
        case .fontSize: .fontSize
        case .foregroundColor: .foregroundColor
        case .isWrapped: .wrapped
        case .truncationMode: .truncationMode
        case .alignmentMode: .alignmentMode
        case .allowsFontSubpixelQuantization: .allowsFontSubpixelQuantization
        case .tintsContents: .tintsContents
        case .instanceCount: .instanceCount
        case .instanceDelay: .instanceDelay
        case .instanceTransform: .instanceTransform
        case .instanceColor: .instanceColor
        case .instanceRedOffset: .instanceRedOffset
        case .instanceGreenOffset: .instanceGreenOffset
        case .instanceBlueOffset: .instanceBlueOffset
        case .instanceAlphaOffset: .instanceAlphaOffset
        case .preservesDepth: .preservesDepth
        case .emitterBirthRate: .emitterBirthRate
        case .emitterLifetime: .emitterLifetime
        case .emitterVelocity: .emitterVelocity
        case .emitterScale: .emitterScale
        case .emitterSpin: .emitterSpin
        case .emitterPosition: .emitterPosition
        case .emitterZPosition: .emitterZPosition
        case .emitterSize: .emitterSize
        case .emitterDepth: .emitterDepth
        case .emitterShape: .emitterShape
        case .emitterMode: .emitterMode
        case .renderMode: .renderMode
        case .emitterSeed: .emitterSeed
        case .filters: .filters
        case .backgroundFilters: .backgroundFilters
        case .compositingFilter: .compositingFilter
        case .emitterPreservesDepth: .emitterPreservesDepth
        }
    }

    /// The value, typed by its kind.
    public var value: LayerValue {
        switch self {
        case .bounds(let v): .rect(v)
        case .position(let v), .anchorPoint(let v): .point(v)
        case .anchorPointZ(let v), .zPosition(let v), .cornerRadius(let v), .borderWidth(let v): .number(v)
        case .transform(let v), .sublayerTransform(let v): .transform(v)
        case .opacity(let v): .float(v)
        case .isHidden(let v), .masksToBounds(let v): .bool(v)
        case .backgroundColor(let v), .borderColor(let v): .color(v)
        case .maskedCorners(let v): .corners(v)
        case .name(let v): .string(v)
        case .beginTime(let v), .timeOffset(let v), .speed(let v): .number(v)
        case .isGeometryFlipped(let v): .bool(v)
        case .cornerCurve(let v): .string(v.rawValue)
        case .contentsRect(let v), .contentsCenter(let v): .rect(v)
        case .contentsScale(let v), .rasterizationScale(let v): .number(v)
        case .contentsGravity(let v): .string(v.rawValue)
        case .allowsEdgeAntialiasing(let v), .allowsGroupOpacity(let v), .isOpaque(let v), .isDoubleSided(let v),
            .shouldRasterize(let v):
            .bool(v)
        case .edgeAntialiasingMask(let v): .edges(v)
        case .minificationFilter(let v), .magnificationFilter(let v): .string(v.rawValue)
        case .minificationFilterBias(let v): .float(v)
        case .contents(let v): .image(v)
        case .path(let v): .path(v)
        case .fillColor(let v), .strokeColor(let v): .color(v)
        case .fillRule(let v): .string(v.rawValue)
        case .lineWidth(let v), .miterLimit(let v), .lineDashPhase(let v), .strokeStart(let v), .strokeEnd(let v):
            .number(v)
        case .lineCap(let v): .string(v.rawValue)
        case .lineJoin(let v): .string(v.rawValue)
        case .lineDashPattern(let v), .locations(let v): .numbers(v)
        case .colors(let v): .colors(v)
        case .startPoint(let v), .endPoint(let v): .point(v)
        case .gradientType(let v): .string(v.rawValue)
        case .shadowColor(let v): .color(v)
        case .shadowOpacity(let v): .float(v)
        case .shadowRadius(let v): .number(v)
        case .shadowOffset(let v): .size(v)
        case .shadowPath(let v): .path(v)
        case .textString(let v), .font(let v): .string(v)
        case .fontSize(let v): .number(v)
        case .foregroundColor(let v): .color(v)
        case .isWrapped(let v), .allowsFontSubpixelQuantization(let v), .tintsContents(let v): .bool(v)
        case .truncationMode(let v), .alignmentMode(let v): .string(v)
        case .instanceCount(let v): .number(v)
        case .instanceDelay(let v): .number(v)
        case .instanceTransform(let v): .transform(v)
        case .instanceColor(let v): .color(v)
        case .instanceRedOffset(let v), .instanceGreenOffset(let v), .instanceBlueOffset(let v),
            .instanceAlphaOffset(let v):
            .float(v)
        case .preservesDepth(let v): .bool(v)
        case .emitterBirthRate(let v), .emitterLifetime(let v), .emitterVelocity(let v), .emitterScale(let v),
            .emitterSpin(let v):
            .float(v)
        case .emitterPosition(let v): .point(v)
        case .emitterZPosition(let v), .emitterDepth(let v), .emitterSeed(let v): .number(v)
        case .filters(let v), .backgroundFilters(let v): .filters(v)
        case .compositingFilter(let v): .number(v)
        case .emitterPreservesDepth(let v): .bool(v)
        case .emitterSize(let v): .size(v)
        case .emitterShape(let v), .emitterMode(let v), .renderMode(let v): .string(v)
        }
    }

    /// The property `name` with `value`; nil when the value's kind is not the property's.
    public init?(_ name: LayerPropertyName, _ value: LayerValue) {
        switch (name, value) {
        case (.bounds, .rect(let v)): self = .bounds(v)
        case (.position, .point(let v)): self = .position(v)
        case (.anchorPoint, .point(let v)): self = .anchorPoint(v)
        case (.anchorPointZ, .number(let v)): self = .anchorPointZ(v)
        case (.zPosition, .number(let v)): self = .zPosition(v)
        case (.transform, .transform(let v)): self = .transform(v)
        case (.sublayerTransform, .transform(let v)): self = .sublayerTransform(v)
        case (.opacity, .float(let v)): self = .opacity(v)
        case (.hidden, .bool(let v)): self = .isHidden(v)
        case (.backgroundColor, .color(let v)): self = .backgroundColor(v)
        case (.cornerRadius, .number(let v)): self = .cornerRadius(v)
        case (.maskedCorners, .corners(let v)): self = .maskedCorners(v)
        case (.borderWidth, .number(let v)): self = .borderWidth(v)
        case (.borderColor, .color(let v)): self = .borderColor(v)
        case (.masksToBounds, .bool(let v)): self = .masksToBounds(v)
        case (.name, .string(let v)): self = .name(v)
        case (.beginTime, .number(let v)): self = .beginTime(v)
        case (.timeOffset, .number(let v)): self = .timeOffset(v)
        case (.speed, .number(let v)): self = .speed(v)
        case (.geometryFlipped, .bool(let v)): self = .isGeometryFlipped(v)
        case (.cornerCurve, .string(let v)): self = .cornerCurve(v.map(CALayerCornerCurve.init(rawValue:)) ?? .circular)
        case (.contentsRect, .rect(let v)): self = .contentsRect(v)
        case (.contentsCenter, .rect(let v)): self = .contentsCenter(v)
        case (.contentsScale, .number(let v)): self = .contentsScale(v)
        case (.contentsGravity, .string(let v)):
            self = .contentsGravity(v.map(CALayerContentsGravity.init(rawValue:)) ?? .resize)
        case (.allowsEdgeAntialiasing, .bool(let v)): self = .allowsEdgeAntialiasing(v)
        case (.allowsGroupOpacity, .bool(let v)): self = .allowsGroupOpacity(v)
        case (.edgeAntialiasingMask, .edges(let v)): self = .edgeAntialiasingMask(v)
        case (.minificationFilter, .string(let v)):
            self = .minificationFilter(v.map(CALayerContentsFilter.init(rawValue:)) ?? .linear)
        case (.magnificationFilter, .string(let v)):
            self = .magnificationFilter(v.map(CALayerContentsFilter.init(rawValue:)) ?? .linear)
        case (.minificationFilterBias, .float(let v)): self = .minificationFilterBias(v)
        case (.opaque, .bool(let v)): self = .isOpaque(v)
        case (.doubleSided, .bool(let v)): self = .isDoubleSided(v)
        case (.shouldRasterize, .bool(let v)): self = .shouldRasterize(v)
        case (.rasterizationScale, .number(let v)): self = .rasterizationScale(v)
        case (.contents, .image(let v)): self = .contents(v)
        case (.path, .path(let v)): self = .path(v)
        case (.fillColor, .color(let v)): self = .fillColor(v)
        case (.fillRule, .string(let v)): self = .fillRule(v.map(CAShapeLayerFillRule.init(rawValue:)) ?? .nonZero)
        case (.strokeColor, .color(let v)): self = .strokeColor(v)
        case (.lineWidth, .number(let v)): self = .lineWidth(v)
        case (.miterLimit, .number(let v)): self = .miterLimit(v)
        case (.lineCap, .string(let v)): self = .lineCap(v.map(CAShapeLayerLineCap.init(rawValue:)) ?? .butt)
        case (.lineJoin, .string(let v)): self = .lineJoin(v.map(CAShapeLayerLineJoin.init(rawValue:)) ?? .miter)
        case (.lineDashPattern, .numbers(let v)): self = .lineDashPattern(v)
        case (.lineDashPhase, .number(let v)): self = .lineDashPhase(v)
        case (.strokeStart, .number(let v)): self = .strokeStart(v)
        case (.strokeEnd, .number(let v)): self = .strokeEnd(v)
        case (.colors, .colors(let v)): self = .colors(v)
        case (.locations, .numbers(let v)): self = .locations(v)
        case (.startPoint, .point(let v)): self = .startPoint(v)
        case (.endPoint, .point(let v)): self = .endPoint(v)
        case (.gradientType, .string(let v)): self = .gradientType(v.map(CAGradientLayerType.init(rawValue:)) ?? .axial)
        case (.shadowColor, .color(let v)): self = .shadowColor(v)
        case (.shadowOpacity, .float(let v)): self = .shadowOpacity(v)
        case (.shadowRadius, .number(let v)): self = .shadowRadius(v)
        case (.shadowOffset, .size(let v)): self = .shadowOffset(v)
        case (.shadowPath, .path(let v)): self = .shadowPath(v)
        case (.textString, .string(let v)): self = .textString(v)
        case (.font, .string(let v)): self = .font(v)
        case (.fontSize, .number(let v)): self = .fontSize(v)
        case (.foregroundColor, .color(let v)): self = .foregroundColor(v)
        case (.wrapped, .bool(let v)): self = .isWrapped(v)
        case (.truncationMode, .string(let v)): self = .truncationMode(v ?? "none")
        case (.alignmentMode, .string(let v)): self = .alignmentMode(v ?? "natural")
        case (.allowsFontSubpixelQuantization, .bool(let v)): self = .allowsFontSubpixelQuantization(v)
        case (.tintsContents, .bool(let v)): self = .tintsContents(v)
        case (.instanceCount, .number(let v)): self = .instanceCount(v)
        case (.instanceDelay, .number(let v)): self = .instanceDelay(v)
        case (.instanceTransform, .transform(let v)): self = .instanceTransform(v)
        case (.instanceColor, .color(let v)): self = .instanceColor(v)
        case (.instanceRedOffset, .float(let v)): self = .instanceRedOffset(v)
        case (.instanceGreenOffset, .float(let v)): self = .instanceGreenOffset(v)
        case (.instanceBlueOffset, .float(let v)): self = .instanceBlueOffset(v)
        case (.instanceAlphaOffset, .float(let v)): self = .instanceAlphaOffset(v)
        case (.preservesDepth, .bool(let v)): self = .preservesDepth(v)
        case (.emitterBirthRate, .float(let v)): self = .emitterBirthRate(v)
        case (.emitterLifetime, .float(let v)): self = .emitterLifetime(v)
        case (.emitterVelocity, .float(let v)): self = .emitterVelocity(v)
        case (.emitterScale, .float(let v)): self = .emitterScale(v)
        case (.emitterSpin, .float(let v)): self = .emitterSpin(v)
        case (.emitterPosition, .point(let v)): self = .emitterPosition(v)
        case (.emitterZPosition, .number(let v)): self = .emitterZPosition(v)
        case (.emitterSize, .size(let v)): self = .emitterSize(v)
        case (.emitterDepth, .number(let v)): self = .emitterDepth(v)
        case (.emitterShape, .string(let v)): self = .emitterShape(v ?? "point")
        case (.emitterMode, .string(let v)): self = .emitterMode(v ?? "volume")
        case (.renderMode, .string(let v)): self = .renderMode(v ?? "unordered")
        case (.emitterSeed, .number(let v)): self = .emitterSeed(v)
        case (.filters, .filters(let v)): self = .filters(v)
        case (.backgroundFilters, .filters(let v)): self = .backgroundFilters(v)
        case (.compositingFilter, .number(let v)): self = .compositingFilter(v)
        case (.emitterPreservesDepth, .bool(let v)): self = .emitterPreservesDepth(v)
        default: return nil
        }
    }

    /// The property's row in the table.
    public var descriptor: LayerPropertyDescriptor { name.descriptor }

    /// The wire code of this property.
    public var code: UInt8 { name.rawValue }

    /// The Core Animation key path this property is known by.
    public var keyPath: String { descriptor.key }

    /// Why the value cannot be applied, or nil when it is valid: every number must be finite; sizes,
    /// radii and widths non-negative; colour components in 0...1. Opacity is clamped to 0...1 on apply.
    public var invalidReason: String? {
        descriptor.invalidReason(value, maxStringBytes: WireLimits.maxStringBytes)
    }

    /// Writes this property's value into `state`, clamped by its constraint (opacity into 0...1).
    public func apply(to state: inout LayerState) {
        let name = self.name
        state[name] = LayerPropertyDescriptor.clamped(value, by: name.constraint)
    }

    /// Every property of `state` that differs from `old` (all of them when `old` is nil), in table
    /// order: the properties every layer has, then those of `new`'s class (a layer's class never
    /// changes, so `old` has the same one).
    public static func differences(from old: LayerState?, to new: LayerState) -> [LayerProperty] {
        var out: [LayerProperty] = []
        let names = Self.names(of: new.layerClass)
        guard let old else {
            // A new layer: every property, so the server's copy starts from the client's values.
            for name in names {
                if let property = LayerProperty(name, new[name]) { out.append(property) }
            }
            return out
        }
        return differences(from: old, to: new)
    }

    /// The properties whose values differ between `old` and `new`, in table order: what a commit
    /// sends for a layer the server has (taken unwrapped, so the caller's sent state, several hundred
    /// bytes, is compared where it is rather than copied into an optional).
    public static func differences(from old: LayerState, to new: LayerState) -> [LayerProperty] {
        var out: [LayerProperty] = []
        for name in names(of: new.layerClass) where new.differs(in: name, from: old) {
            if let property = LayerProperty(name, new[name]) { out.append(property) }
        }
        return out
    }

    /// The properties among `compared` whose values differ between `old` and `new`, in table order:
    /// `differences(from:to:)` limited to the properties a client marked as written since `old`
    /// (bit n % 64 of word n / 64 for wire code n), so an unmarked property is not compared.
    public static func differences(
        from old: LayerState, to new: LayerState, among compared: SIMD2<UInt64>
    ) -> [LayerProperty] {
        var out: [LayerProperty] = []
        for name in names(of: new.layerClass) {
            let code = Int(name.rawValue)
            guard compared[code >> 6] & (1 << UInt64(code & 63)) != 0, new.differs(in: name, from: old) else {
                continue
            }
            if let property = LayerProperty(name, new[name]) { out.append(property) }
        }
        return out
    }

    /// The properties a layer of class `owner` has, in table order (`LayerPropertyName.all(of:)`).
    @inline(__always)
    public static func names(of owner: LayerClass) -> [LayerPropertyName] { LayerPropertyName.all(of: owner) }
}
