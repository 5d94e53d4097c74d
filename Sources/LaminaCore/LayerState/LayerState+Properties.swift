import Foundation

extension LayerState {
    /// A layer with every property at its default, for reading defaults without building one.
    static let defaults = LayerState()

    /// The value of one property, typed by how it is stored.
    ///
    /// A class's property (a row of another class than `.layer`) reads its default on a layer of
    /// another class, and setting it there changes nothing.
    ///
    /// Setting writes the value as given (no clamping: `LayerPropertyDescriptor.clamped(_:)` does
    /// that), except that a corner or edge mask keeps only its four bits, as Apple's do; an absent
    /// contents gravity or filter name is stored as the default (other names are kept as given); a
    /// corner curve keeps only what is drawn: any name but `continuous` (or none) is stored as
    /// `circular`; a value of another kind than the property's is ignored.
    @inline(__always)
    public subscript(property: LayerPropertyName) -> LayerValue {
        get {
            switch property {
            case .bounds: .rect(bounds)
            case .position: .point(position)
            case .anchorPoint: .point(anchorPoint)
            case .anchorPointZ: .number(anchorPointZ)
            case .zPosition: .number(zPosition)
            case .transform: .transform(transform)
            case .sublayerTransform: .transform(sublayerTransform)
            case .opacity: .float(opacity)
            case .hidden: .bool(isHidden)
            case .backgroundColor: .color(backgroundColor)
            case .cornerRadius: .number(cornerRadius)
            case .maskedCorners: .corners(maskedCorners)
            case .borderWidth: .number(borderWidth)
            case .borderColor: .color(borderColor)
            case .masksToBounds: .bool(masksToBounds)
            case .name: .string(name)
            case .beginTime: .number(beginTime)
            case .timeOffset: .number(timeOffset)
            case .speed: .number(speed)
            case .geometryFlipped: .bool(isGeometryFlipped)
            case .cornerCurve: .string(cornerCurve.rawValue)
            case .contentsRect: .rect(contentsRect)
            case .contentsCenter: .rect(contentsCenter)
            case .contentsScale: .number(contentsScale)
            case .contentsGravity: .string(contentsGravity.rawValue)
            case .allowsEdgeAntialiasing: .bool(allowsEdgeAntialiasing)
            case .allowsGroupOpacity: .bool(allowsGroupOpacity)
            case .edgeAntialiasingMask: .edges(edgeAntialiasingMask)
            case .minificationFilter: .string(minificationFilter.rawValue)
            case .magnificationFilter: .string(magnificationFilter.rawValue)
            case .minificationFilterBias: .float(minificationFilterBias)
            case .opaque: .bool(isOpaque)
            case .doubleSided: .bool(isDoubleSided)
            case .shouldRasterize: .bool(shouldRasterize)
            case .rasterizationScale: .number(rasterizationScale)
            case .contents: .image(contents)
            case .path: .path(shape.path)
            case .fillColor: .color(shape.fillColor)
            case .fillRule: .string(shape.fillRule.rawValue)
            case .strokeColor: .color(shape.strokeColor)
            case .lineWidth: .number(shape.lineWidth)
            case .miterLimit: .number(shape.miterLimit)
            case .lineCap: .string(shape.lineCap.rawValue)
            case .lineJoin: .string(shape.lineJoin.rawValue)
            case .lineDashPattern: .numbers(shape.lineDashPattern)
            case .lineDashPhase: .number(shape.lineDashPhase)
            case .strokeStart: .number(shape.strokeStart)
            case .strokeEnd: .number(shape.strokeEnd)
            case .colors: .colors(gradient.colors)
            case .locations: .numbers(gradient.locations)
            case .startPoint: .point(gradient.startPoint)
            case .endPoint: .point(gradient.endPoint)
            case .gradientType: .string(gradient.type.rawValue)
            case .shadowColor: .color(shadow.color)
            case .shadowOpacity: .float(shadow.opacity)
            case .shadowRadius: .number(shadow.radius)
            case .shadowOffset: .size(shadow.offset)
            case .shadowPath: .path(shadow.path)
            case .textString: .string(text.string)
            case .font: .string(text.font)
            case .fontSize: .number(text.fontSize)
            case .foregroundColor: .color(text.foregroundColor)
            case .wrapped: .bool(text.isWrapped)
            case .truncationMode: .string(text.truncationMode)
            case .alignmentMode: .string(text.alignmentMode)
            case .allowsFontSubpixelQuantization: .bool(text.allowsFontSubpixelQuantization)
            case .tintsContents: .bool(text.tintsContents)
            case .instanceCount: .number(Double(replicator.drawnInstanceCount))
            case .instanceDelay: .number(replicator.instanceDelay)
            case .instanceTransform: .transform(replicator.instanceTransform)
            case .instanceColor: .color(replicator.instanceColor)
            case .instanceRedOffset: .float(replicator.instanceRedOffset)
            case .instanceGreenOffset: .float(replicator.instanceGreenOffset)
            case .instanceBlueOffset: .float(replicator.instanceBlueOffset)
            case .instanceAlphaOffset: .float(replicator.instanceAlphaOffset)
            case .preservesDepth: .bool(replicator.preservesDepth)
            case .emitterBirthRate: .float(emitter.birthRate)
            case .emitterLifetime: .float(emitter.lifetime)
            case .emitterVelocity: .float(emitter.velocity)
            case .emitterScale: .float(emitter.scale)
            case .emitterSpin: .float(emitter.spin)
            case .emitterPosition: .point(emitter.emitterPosition)
            case .emitterZPosition: .number(emitter.emitterZPosition)
            case .emitterSize: .size(emitter.emitterSize)
            case .emitterDepth: .number(emitter.emitterDepth)
            case .emitterShape: .string(emitter.emitterShape)
            case .emitterMode: .string(emitter.emitterMode)
            case .renderMode: .string(emitter.renderMode)
            case .emitterSeed: .number(emitter.seed)
            case .emitterPreservesDepth: .bool(emitter.preservesDepth)
            case .filters: .filters(filterState.filters)
            case .backgroundFilters: .filters(filterState.backgroundFilters)
            case .compositingFilter: .number(Double(filterState.blendMode.rawValue))
            }
        }
        set {
            switch (property, newValue) {
            case (.bounds, .rect(let v)): bounds = v
            case (.position, .point(let v)): position = v
            case (.anchorPoint, .point(let v)): anchorPoint = v
            case (.anchorPointZ, .number(let v)): anchorPointZ = v
            case (.zPosition, .number(let v)): zPosition = v
            case (.transform, .transform(let v)): transform = v
            case (.sublayerTransform, .transform(let v)): sublayerTransform = v
            case (.opacity, .float(let v)): opacity = v
            case (.hidden, .bool(let v)): isHidden = v
            case (.backgroundColor, .color(let v)): backgroundColor = v
            case (.cornerRadius, .number(let v)): cornerRadius = v
            case (.maskedCorners, .corners(let v)): maskedCorners = v.intersection(.all)
            case (.borderWidth, .number(let v)): borderWidth = v
            case (.borderColor, .color(let v)): borderColor = v
            case (.masksToBounds, .bool(let v)): masksToBounds = v
            case (.name, .string(let v)): name = v
            case (.beginTime, .number(let v)): beginTime = v
            case (.timeOffset, .number(let v)): timeOffset = v
            case (.speed, .number(let v)): speed = v
            case (.geometryFlipped, .bool(let v)): isGeometryFlipped = v
            case (.cornerCurve, .string(let v)):
                cornerCurve = v == CALayerCornerCurve.continuous.rawValue ? .continuous : .circular
            case (.contentsRect, .rect(let v)): contentsRect = v
            case (.contentsCenter, .rect(let v)): contentsCenter = v
            case (.contentsScale, .number(let v)): contentsScale = v
            case (.contentsGravity, .string(let v)):
                contentsGravity = v.map(CALayerContentsGravity.init(rawValue:)) ?? .resize
            case (.allowsEdgeAntialiasing, .bool(let v)): allowsEdgeAntialiasing = v
            case (.allowsGroupOpacity, .bool(let v)): allowsGroupOpacity = v
            case (.edgeAntialiasingMask, .edges(let v)): edgeAntialiasingMask = v.intersection(.all)
            case (.minificationFilter, .string(let v)):
                minificationFilter = v.map(CALayerContentsFilter.init(rawValue:)) ?? .linear
            case (.magnificationFilter, .string(let v)):
                magnificationFilter = v.map(CALayerContentsFilter.init(rawValue:)) ?? .linear
            case (.minificationFilterBias, .float(let v)): minificationFilterBias = v
            case (.opaque, .bool(let v)): isOpaque = v
            case (.doubleSided, .bool(let v)): isDoubleSided = v
            case (.shouldRasterize, .bool(let v)): shouldRasterize = v
            case (.rasterizationScale, .number(let v)): rasterizationScale = v
            case (.contents, .image(let v)): contents = v
            case (.path, .path(let v)): shape.path = v
            case (.fillColor, .color(let v)): shape.fillColor = v
            case (.fillRule, .string(let v)): shape.fillRule = v.map(CAShapeLayerFillRule.init(rawValue:)) ?? .nonZero
            case (.strokeColor, .color(let v)): shape.strokeColor = v
            case (.lineWidth, .number(let v)): shape.lineWidth = v
            case (.miterLimit, .number(let v)): shape.miterLimit = v
            case (.lineCap, .string(let v)): shape.lineCap = v.map(CAShapeLayerLineCap.init(rawValue:)) ?? .butt
            case (.lineJoin, .string(let v)): shape.lineJoin = v.map(CAShapeLayerLineJoin.init(rawValue:)) ?? .miter
            case (.lineDashPattern, .numbers(let v)): shape.lineDashPattern = v
            case (.lineDashPhase, .number(let v)): shape.lineDashPhase = v
            case (.strokeStart, .number(let v)): shape.strokeStart = v
            case (.strokeEnd, .number(let v)): shape.strokeEnd = v
            case (.colors, .colors(let v)): gradient.colors = v
            case (.locations, .numbers(let v)): gradient.locations = v
            case (.startPoint, .point(let v)): gradient.startPoint = v
            case (.endPoint, .point(let v)): gradient.endPoint = v
            case (.gradientType, .string(let v)): gradient.type = v.map(CAGradientLayerType.init(rawValue:)) ?? .axial
            case (.shadowColor, .color(let v)): shadow.color = v
            case (.shadowOpacity, .float(let v)): shadow.opacity = v
            case (.shadowRadius, .number(let v)): shadow.radius = v
            case (.shadowOffset, .size(let v)): shadow.offset = v
            case (.shadowPath, .path(let v)): shadow.path = v
            case (.textString, .string(let v)): text.string = v
            case (.font, .string(let v)): text.font = v
            case (.fontSize, .number(let v)): text.fontSize = v
            case (.foregroundColor, .color(let v)): text.foregroundColor = v
            case (.wrapped, .bool(let v)): text.isWrapped = v
            case (.truncationMode, .string(let v)): text.truncationMode = v ?? "none"
            case (.alignmentMode, .string(let v)): text.alignmentMode = v ?? "natural"
            case (.allowsFontSubpixelQuantization, .bool(let v)): text.allowsFontSubpixelQuantization = v
            case (.tintsContents, .bool(let v)): text.tintsContents = v
            case (.instanceCount, .number(let v)): replicator.instanceCount = ReplicatorLayerState.instanceCount(v)
            case (.instanceDelay, .number(let v)): replicator.instanceDelay = v
            case (.instanceTransform, .transform(let v)): replicator.instanceTransform = v
            case (.instanceColor, .color(let v)): replicator.instanceColor = v
            case (.instanceRedOffset, .float(let v)): replicator.instanceRedOffset = v
            case (.instanceGreenOffset, .float(let v)): replicator.instanceGreenOffset = v
            case (.instanceBlueOffset, .float(let v)): replicator.instanceBlueOffset = v
            case (.instanceAlphaOffset, .float(let v)): replicator.instanceAlphaOffset = v
            case (.preservesDepth, .bool(let v)): replicator.preservesDepth = v
            case (.emitterBirthRate, .float(let v)): emitter.birthRate = v
            case (.emitterLifetime, .float(let v)): emitter.lifetime = v
            case (.emitterVelocity, .float(let v)): emitter.velocity = v
            case (.emitterScale, .float(let v)): emitter.scale = v
            case (.emitterSpin, .float(let v)): emitter.spin = v
            case (.emitterPosition, .point(let v)): emitter.emitterPosition = v
            case (.emitterZPosition, .number(let v)): emitter.emitterZPosition = v
            case (.emitterSize, .size(let v)): emitter.emitterSize = v
            case (.emitterDepth, .number(let v)): emitter.emitterDepth = v
            case (.emitterShape, .string(let v)): emitter.emitterShape = v ?? "point"
            case (.emitterMode, .string(let v)): emitter.emitterMode = v ?? "volume"
            case (.renderMode, .string(let v)): emitter.renderMode = v ?? "unordered"
            case (.emitterSeed, .number(let v)): emitter.seed = v
            case (.emitterPreservesDepth, .bool(let v)): emitter.preservesDepth = v
            case (.filters, .filters(let v)): filterState.filters = v
            case (.backgroundFilters, .filters(let v)): filterState.backgroundFilters = v
            case (.compositingFilter, .number(let v)): filterState.blendMode = LayerBlendMode(code: v) ?? .normal
            default: break
            }
        }
    }

    /// Whether `property` has another value in `other`: the commit diff's question, asked for every
    /// property of every changed layer, so it compares the stored fields directly instead of building
    /// two `LayerValue`s (a transform's is 128 bytes).
    @inlinable
    public func differs(in property: LayerPropertyName, from other: LayerState) -> Bool {
        switch property {
        case .bounds: bounds != other.bounds
        case .position: position != other.position
        case .anchorPoint: anchorPoint != other.anchorPoint
        case .anchorPointZ: anchorPointZ != other.anchorPointZ
        case .zPosition: zPosition != other.zPosition
        case .transform: transform != other.transform
        case .sublayerTransform: sublayerTransform != other.sublayerTransform
        case .opacity: opacity != other.opacity
        case .hidden: isHidden != other.isHidden
        case .backgroundColor: backgroundColor != other.backgroundColor
        case .cornerRadius: cornerRadius != other.cornerRadius
        case .maskedCorners: maskedCorners != other.maskedCorners
        case .borderWidth: borderWidth != other.borderWidth
        case .borderColor: borderColor != other.borderColor
        case .masksToBounds: masksToBounds != other.masksToBounds
        case .name: name != other.name
        case .beginTime: beginTime != other.beginTime
        case .timeOffset: timeOffset != other.timeOffset
        case .speed: speed != other.speed
        case .geometryFlipped: isGeometryFlipped != other.isGeometryFlipped
        case .cornerCurve: cornerCurve != other.cornerCurve
        case .contentsRect: contentsRect != other.contentsRect
        case .contentsCenter: contentsCenter != other.contentsCenter
        case .contentsScale: contentsScale != other.contentsScale
        case .contentsGravity: contentsGravity != other.contentsGravity
        case .allowsEdgeAntialiasing: allowsEdgeAntialiasing != other.allowsEdgeAntialiasing
        case .allowsGroupOpacity: allowsGroupOpacity != other.allowsGroupOpacity
        case .edgeAntialiasingMask: edgeAntialiasingMask != other.edgeAntialiasingMask
        case .minificationFilter: minificationFilter != other.minificationFilter
        case .magnificationFilter: magnificationFilter != other.magnificationFilter
        case .minificationFilterBias: minificationFilterBias != other.minificationFilterBias
        case .opaque: isOpaque != other.isOpaque
        case .doubleSided: isDoubleSided != other.isDoubleSided
        case .shouldRasterize: shouldRasterize != other.shouldRasterize
        case .rasterizationScale: rasterizationScale != other.rasterizationScale
        case .contents: contents != other.contents
        case .path: !Self.samePath(shape.path, other.shape.path)
        case .fillColor: shape.fillColor != other.shape.fillColor
        case .fillRule: shape.fillRule != other.shape.fillRule
        case .strokeColor: shape.strokeColor != other.shape.strokeColor
        case .lineWidth: shape.lineWidth != other.shape.lineWidth
        case .miterLimit: shape.miterLimit != other.shape.miterLimit
        case .lineCap: shape.lineCap != other.shape.lineCap
        case .lineJoin: shape.lineJoin != other.shape.lineJoin
        case .lineDashPattern: shape.lineDashPattern != other.shape.lineDashPattern
        case .lineDashPhase: shape.lineDashPhase != other.shape.lineDashPhase
        case .strokeStart: shape.strokeStart != other.shape.strokeStart
        case .strokeEnd: shape.strokeEnd != other.shape.strokeEnd
        case .colors: gradient.colors != other.gradient.colors
        case .locations: gradient.locations != other.gradient.locations
        case .startPoint: gradient.startPoint != other.gradient.startPoint
        case .endPoint: gradient.endPoint != other.gradient.endPoint
        case .gradientType: gradient.type != other.gradient.type
        case .shadowColor: shadow.color != other.shadow.color
        case .shadowOpacity: shadow.opacity != other.shadow.opacity
        case .shadowRadius: shadow.radius != other.shadow.radius
        case .shadowOffset: shadow.offset != other.shadow.offset
        case .shadowPath: !Self.samePath(shadow.path, other.shadow.path)
        case .textString: text.string != other.text.string
        case .font: text.font != other.text.font
        case .fontSize: text.fontSize != other.text.fontSize
        case .foregroundColor: text.foregroundColor != other.text.foregroundColor
        case .wrapped: text.isWrapped != other.text.isWrapped
        case .truncationMode: text.truncationMode != other.text.truncationMode
        case .alignmentMode: text.alignmentMode != other.text.alignmentMode
        case .allowsFontSubpixelQuantization:
            text.allowsFontSubpixelQuantization != other.text.allowsFontSubpixelQuantization
        case .tintsContents: text.tintsContents != other.text.tintsContents
        case .instanceCount: replicator.instanceCount != other.replicator.instanceCount
        case .instanceDelay: replicator.instanceDelay != other.replicator.instanceDelay
        case .instanceTransform: replicator.instanceTransform != other.replicator.instanceTransform
        case .instanceColor: replicator.instanceColor != other.replicator.instanceColor
        case .instanceRedOffset: replicator.instanceRedOffset != other.replicator.instanceRedOffset
        case .instanceGreenOffset: replicator.instanceGreenOffset != other.replicator.instanceGreenOffset
        case .instanceBlueOffset: replicator.instanceBlueOffset != other.replicator.instanceBlueOffset
        case .instanceAlphaOffset: replicator.instanceAlphaOffset != other.replicator.instanceAlphaOffset
        case .preservesDepth: replicator.preservesDepth != other.replicator.preservesDepth
        case .emitterBirthRate: emitter.birthRate != other.emitter.birthRate
        case .emitterLifetime: emitter.lifetime != other.emitter.lifetime
        case .emitterVelocity: emitter.velocity != other.emitter.velocity
        case .emitterScale: emitter.scale != other.emitter.scale
        case .emitterSpin: emitter.spin != other.emitter.spin
        case .emitterPosition: emitter.emitterPosition != other.emitter.emitterPosition
        case .emitterZPosition: emitter.emitterZPosition != other.emitter.emitterZPosition
        case .emitterSize: emitter.emitterSize != other.emitter.emitterSize
        case .emitterDepth: emitter.emitterDepth != other.emitter.emitterDepth
        case .emitterShape: emitter.emitterShape != other.emitter.emitterShape
        case .emitterMode: emitter.emitterMode != other.emitter.emitterMode
        case .renderMode: emitter.renderMode != other.emitter.renderMode
        case .emitterSeed: emitter.seed != other.emitter.seed
        case .emitterPreservesDepth: emitter.preservesDepth != other.emitter.preservesDepth
        case .filters: filterState.filters != other.filterState.filters
        case .backgroundFilters: filterState.backgroundFilters != other.filterState.backgroundFilters
        case .compositingFilter: filterState.blendMode != other.filterState.blendMode
        }
    }

    /// Whether two optional paths are equal, the same object answering at once (a path is immutable
    /// once a layer holds it, so comparing its elements again is needless).
    @inlinable
    static func samePath(_ a: CGPath?, _ b: CGPath?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x?, let y?): x === y || x == y
        default: false
        }
    }
}
