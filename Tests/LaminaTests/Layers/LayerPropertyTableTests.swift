// Tests of the layer property table (LayerPropertyDescriptor.table) and of everything derived from
// it: wire codes and the codec, defaults, validation and clamping, key paths and key-value coding.
import Foundation
import Testing

@testable import Lamina
import LaminaServer
@testable import LaminaProtocol

/// Core Animation's defaults, written out by hand from docs/protocol.md §7 and App. B.
private let expectedDefaults: [LayerPropertyName: LayerValue] = [
    .bounds: .rect(.zero), .position: .point(.zero), .anchorPoint: .point(CGPoint(x: 0.5, y: 0.5)),
    .anchorPointZ: .number(0), .zPosition: .number(0), .transform: .transform(CATransform3DIdentity),
    .sublayerTransform: .transform(CATransform3DIdentity), .opacity: .float(1), .hidden: .bool(false),
    .backgroundColor: .color(nil), .cornerRadius: .number(0), .maskedCorners: .corners(.all),
    .borderWidth: .number(0), .borderColor: .color(RGBAColor(red: 0, green: 0, blue: 0, alpha: 1)),
    .masksToBounds: .bool(false), .name: .string(nil), .beginTime: .number(0), .timeOffset: .number(0),
    .speed: .number(1), .geometryFlipped: .bool(false), .cornerCurve: .string("circular"),
    // CALayer.h: contentsRect and contentsCenter default to the unit rectangle, contentsScale to 1,
    // contentsGravity to resize, both filters to linear, minificationFilterBias to 0, opaque NO,
    // doubleSided YES, shouldRasterize NO, rasterizationScale 1, edgeAntialiasingMask all four
    // edges, allowsGroupOpacity YES; allowsEdgeAntialiasing is true here (decisions.md; on iOS the
    // default comes from Info.plist).
    .contentsRect: .rect(CGRect(x: 0, y: 0, width: 1, height: 1)),
    .contentsCenter: .rect(CGRect(x: 0, y: 0, width: 1, height: 1)), .contentsScale: .number(1),
    .contentsGravity: .string("resize"), .allowsEdgeAntialiasing: .bool(true), .allowsGroupOpacity: .bool(true),
    .edgeAntialiasingMask: .edges(CAEdgeAntialiasingMask(rawValue: 15)), .minificationFilter: .string("linear"),
    .magnificationFilter: .string("linear"), .minificationFilterBias: .float(0), .opaque: .bool(false),
    .doubleSided: .bool(true), .shouldRasterize: .bool(false), .rasterizationScale: .number(1),
    // CALayer.h: contents is nil by default (image id 0: no image).
    .contents: .image(0),
    // CAShapeLayer.h: path nil, fillColor opaque black, fillRule non-zero, strokeColor nil, lineWidth 1,
    // miterLimit 10, lineCap butt, lineJoin miter, lineDashPattern nil, lineDashPhase 0, strokeStart 0,
    // strokeEnd 1.
    .path: .path(nil), .fillColor: .color(.black), .fillRule: .string("non-zero"), .strokeColor: .color(nil),
    .lineWidth: .number(1), .miterLimit: .number(10), .lineCap: .string("butt"), .lineJoin: .string("miter"),
    .lineDashPattern: .numbers(nil), .lineDashPhase: .number(0), .strokeStart: .number(0), .strokeEnd: .number(1),
    // CAGradientLayer.h: colors nil, locations nil, startPoint (0.5, 0), endPoint (0.5, 1), type axial.
    .colors: .colors(nil), .locations: .numbers(nil), .startPoint: .point(CGPoint(x: 0.5, y: 0)),
    .endPoint: .point(CGPoint(x: 0.5, y: 1)), .gradientType: .string("axial"),
    // CALayer.h: shadowColor opaque black, shadowOpacity 0, shadowOffset (0, -3), shadowRadius 3,
    // shadowPath nil.
    .shadowColor: .color(.black), .shadowOpacity: .float(0), .shadowRadius: .number(3),
    .shadowOffset: .size(CGSize(width: 0, height: -3)), .shadowPath: .path(nil),
    // CATextLayer.h: string nil, fontSize 36, foregroundColor opaque white, wrapped NO, truncationMode
    // none, alignmentMode natural, allowsFontSubpixelQuantization NO; the font row holds a name given
    // (nil: Helvetica, the default font object); tintsContents is Lamina's (no coverage drawn yet).
    .textString: .string(nil), .font: .string(nil), .fontSize: .number(36),
    .foregroundColor: .color(RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)), .wrapped: .bool(false),
    .truncationMode: .string("none"), .alignmentMode: .string("natural"),
    .allowsFontSubpixelQuantization: .bool(false), .tintsContents: .bool(false),
    // CAReplicatorLayer.h: instanceCount 1, instanceDelay 0, instanceTransform identity, instanceColor
    // opaque white, the four offsets 0, preservesDepth NO.
    .instanceCount: .number(1), .instanceDelay: .number(0), .instanceTransform: .transform(CATransform3DIdentity),
    .instanceColor: .color(RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)), .instanceRedOffset: .float(0),
    .instanceGreenOffset: .float(0), .instanceBlueOffset: .float(0), .instanceAlphaOffset: .float(0),
    .preservesDepth: .bool(false),
    // CAEmitterLayer.h: birthRate, lifetime, velocity, scale, spin "default 1.0"; emitterPosition
    // (0, 0), emitterZPosition 0, emitterSize (0, 0), emitterDepth 0; emitterShape
    // kCAEmitterLayerPoint, emitterMode kCAEmitterLayerVolume, renderMode kCAEmitterLayerUnordered;
    // seed 0.
    .emitterBirthRate: .float(1), .emitterLifetime: .float(1), .emitterVelocity: .float(1), .emitterScale: .float(1),
    .emitterSpin: .float(1), .emitterPosition: .point(.zero), .emitterZPosition: .number(0),
    .emitterSize: .size(.zero), .emitterDepth: .number(0), .emitterShape: .string("point"),
    .emitterMode: .string("volume"), .renderMode: .string("unordered"), .emitterSeed: .number(0),
    // CALayer.h: filters, backgroundFilters and compositingFilter default to nil (no filters; normal).
    .filters: .filters([]), .backgroundFilters: .filters([]), .compositingFilter: .number(0),
    // CAEmitterLayer.h: preservesDepth defaults to NO.
    .emitterPreservesDepth: .bool(false),
]

/// One valid value of each property that differs from its default.
private let samples: [LayerPropertyName: LayerValue] = [
    .bounds: .rect(CGRect(x: 1, y: -2, width: 30, height: 40)), .position: .point(CGPoint(x: 5, y: 6)),
    .anchorPoint: .point(CGPoint(x: 0, y: 1)), .anchorPointZ: .number(2), .zPosition: .number(-3),
    .transform: .transform(CATransform3DMakeRotation(0.5, 0, 0, 1)),
    .sublayerTransform: .transform(CATransform3DMakeScale(2, 3, 1)), .opacity: .float(0.25),
    .hidden: .bool(true), .backgroundColor: .color(RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.75)),
    .cornerRadius: .number(8), .maskedCorners: .corners([.layerMinXMinYCorner]), .borderWidth: .number(1.5),
    .borderColor: .color(nil), .masksToBounds: .bool(true), .name: .string("named"),
    .beginTime: .number(2.5), .timeOffset: .number(-1), .speed: .number(0.5),
    .geometryFlipped: .bool(true), .cornerCurve: .string("continuous"),
    .contentsRect: .rect(CGRect(x: 0.25, y: 0, width: 0.5, height: 1)),
    .contentsCenter: .rect(CGRect(x: 0.4, y: 0.4, width: 0.2, height: 0.2)), .contentsScale: .number(2),
    .contentsGravity: .string("topLeft"), .allowsEdgeAntialiasing: .bool(false), .allowsGroupOpacity: .bool(false),
    .edgeAntialiasingMask: .edges([.layerLeftEdge, .layerTopEdge]), .minificationFilter: .string("trilinear"),
    .magnificationFilter: .string("nearest"), .minificationFilterBias: .float(-0.5), .opaque: .bool(true),
    .doubleSided: .bool(false), .shouldRasterize: .bool(true), .rasterizationScale: .number(3),
    .contents: .image(0x0102_0304_0506_0708),
    .path: .path(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 10))),
    .fillColor: .color(RGBAColor(red: 0, green: 0.5, blue: 1, alpha: 1)), .fillRule: .string("even-odd"),
    .strokeColor: .color(RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5)), .lineWidth: .number(4),
    .miterLimit: .number(2), .lineCap: .string("round"), .lineJoin: .string("bevel"),
    .lineDashPattern: .numbers([4, 2]), .lineDashPhase: .number(1.5), .strokeStart: .number(0.25),
    .strokeEnd: .number(0.75),
    .colors: .colors([RGBAColor(red: 1, green: 0, blue: 0, alpha: 1), .clear]), .locations: .numbers([0, 0.5]),
    .startPoint: .point(CGPoint(x: 0, y: 0)), .endPoint: .point(CGPoint(x: 1, y: 1)), .gradientType: .string("radial"),
    .shadowColor: .color(RGBAColor(red: 0, green: 0, blue: 1, alpha: 0.5)), .shadowOpacity: .float(0.5),
    .shadowRadius: .number(5), .shadowOffset: .size(CGSize(width: 2, height: 5)),
    .shadowPath: .path(CGPath(roundedRect: CGRect(x: 0, y: 0, width: 30, height: 20), cornerWidth: 4, cornerHeight: 4)),
    .textString: .string("Hello"), .font: .string("Times-Bold"), .fontSize: .number(12),
    .foregroundColor: .color(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)), .wrapped: .bool(true),
    .truncationMode: .string("end"), .alignmentMode: .string("center"),
    .allowsFontSubpixelQuantization: .bool(true), .tintsContents: .bool(true),
    .instanceCount: .number(12), .instanceDelay: .number(0.25),
    .instanceTransform: .transform(CATransform3DMakeRotation(.pi / 6, 0, 0, 1)),
    .instanceColor: .color(RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5)), .instanceRedOffset: .float(-0.25),
    .instanceGreenOffset: .float(0.5), .instanceBlueOffset: .float(0.125), .instanceAlphaOffset: .float(-0.6),
    .preservesDepth: .bool(true),
    .emitterBirthRate: .float(2), .emitterLifetime: .float(0.5), .emitterVelocity: .float(3),
    .emitterScale: .float(0.25),
    .emitterSpin: .float(-1), .emitterPosition: .point(CGPoint(x: 10, y: 20)), .emitterZPosition: .number(4),
    .emitterSize: .size(CGSize(width: 30, height: 5)), .emitterDepth: .number(6), .emitterShape: .string("circle"),
    .emitterMode: .string("outline"), .renderMode: .string("additive"), .emitterSeed: .number(42),
    .filters: .filters([LayerFilter(filterName: "CIGaussianBlur", name: "blur", radius: 4)]),
    .backgroundFilters: .filters([
        LayerFilter(filterName: "CIGaussianBlur", name: "frost", radius: 12), LayerFilter(filterName: "CIPixellate"),
    ]),
    .compositingFilter: .number(Double(LayerBlendMode.softLight.rawValue)),
    .emitterPreservesDepth: .bool(true),
]

/// The payload size of each kind on the wire, in bytes (docs/protocol.md §2 and §7), for a value
/// that is present.
private func payloadSize(_ value: LayerValue) -> Int {
    switch value {
    case .number, .float: 8
    case .point, .size: 16
    case .rect: 32
    case .transform: 128
    case .bool: 1
    case .color(let c): 1 + (c == nil ? 0 : 32)
    case .corners, .edges: 4
    case .image: 8
    case .string(let s): 1 + (s.map { 4 + $0.utf8.count } ?? 0)
    // A path: presence, count, then per element a code and its points (1, 2 or 3 of 16 bytes).
    case .path(let p):
        1
            + (p.map { path in
                var bytes = 4
                path.applyWithBlock { element in
                    switch element.pointee.type {
                    case .moveToPoint, .addLineToPoint: bytes += 17
                    case .addQuadCurveToPoint: bytes += 33
                    case .addCurveToPoint: bytes += 49
                    case .closeSubpath: bytes += 1
                    }
                }
                return bytes
            } ?? 0)
    case .numbers(let list): 1 + (list.map { 4 + 8 * $0.count } ?? 0)
    case .colors(let list): 1 + (list.map { 4 + 32 * $0.count } ?? 0)
    // A count, then per filter two strings and a radius.
    case .filters(let list): 1 + list.reduce(0) { $0 + 8 + $1.filterName.utf8.count + $1.name.utf8.count + 8 }
    }
}

/// Each property with a value its rule refuses, and today's reason text; nil where every value is accepted.
private let refusals: [LayerPropertyName: (LayerValue, String)?] = [
    .bounds: (.rect(CGRect(x: 0, y: 0, width: -1, height: 1)), "bounds has a negative size"),
    .position: (.point(CGPoint(x: CGFloat.nan, y: 0)), "position has a NaN or infinite component"),
    .anchorPoint: (.point(CGPoint(x: 0, y: CGFloat.infinity)), "anchorPoint has a NaN or infinite component"),
    .anchorPointZ: (.number(.nan), "anchorPointZ is NaN or infinite"),
    .zPosition: (.number(-.infinity), "zPosition is NaN or infinite"),
    .transform: (.transform(CATransform3DMakeTranslation(.nan, 0, 0)), "transform has a NaN or infinite entry"),
    .sublayerTransform: (
        .transform(CATransform3DMakeScale(.infinity, 1, 1)),
        "sublayerTransform has a NaN or infinite entry"
    ),
    .opacity: (.float(.nan), "opacity is NaN or infinite"),
    .hidden: nil,
    .backgroundColor: (
        .color(RGBAColor(red: 1.5, green: 0, blue: 0, alpha: 1)),
        "backgroundColor has a component outside 0...1 or not finite"
    ),
    .cornerRadius: (.number(-1), "cornerRadius is negative"),
    .maskedCorners: (.corners(CACornerMask(rawValue: 16)), "maskedCorners has unknown bits"),
    .borderWidth: (.number(.infinity), "borderWidth is NaN or infinite"),
    .borderColor: (
        .color(RGBAColor(red: 0, green: .nan, blue: 0, alpha: 1)),
        "borderColor has a component outside 0...1 or not finite"
    ),
    .masksToBounds: nil,
    .name: (.string(String(repeating: "x", count: 4097)), "name is longer than 4096 bytes"),
    .beginTime: (.number(.nan), "beginTime is NaN or infinite"),
    .timeOffset: (.number(.infinity), "timeOffset is NaN or infinite"),
    .speed: (.number(-.infinity), "speed is NaN or infinite"),
    .geometryFlipped: nil,
    .cornerCurve: (.string(String(repeating: "c", count: 4097)), "cornerCurve is longer than 4096 bytes"),
    .contentsRect: (
        .rect(CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)), "contentsRect has a NaN or infinite component"
    ),
    .contentsCenter: (
        .rect(CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 1)), "contentsCenter has a NaN or infinite component"
    ),
    .contentsScale: (.number(-1), "contentsScale is negative"),
    .contentsGravity: (.string(String(repeating: "g", count: 4097)), "contentsGravity is longer than 4096 bytes"),
    .allowsEdgeAntialiasing: nil,
    .allowsGroupOpacity: nil,
    .edgeAntialiasingMask: (.edges(CAEdgeAntialiasingMask(rawValue: 16)), "edgeAntialiasingMask has unknown bits"),
    .minificationFilter: (.string(String(repeating: "f", count: 4097)), "minificationFilter is longer than 4096 bytes"),
    .magnificationFilter: (
        .string(String(repeating: "f", count: 4097)), "magnificationFilter is longer than 4096 bytes"
    ),
    .minificationFilterBias: (.float(.nan), "minificationFilterBias is NaN or infinite"),
    .opaque: nil,
    .doubleSided: nil,
    .shouldRasterize: nil,
    .rasterizationScale: (.number(.nan), "rasterizationScale is NaN or infinite"),
    // Every image id is well formed; an id the client has not uploaded is refused when the commit is
    // applied (RenderTree.applying: unknownImage), not by the value's own check.
    .contents: nil,
    .path: (.path(CGPath(rect: CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1))), "path has a NaN or infinite point"),
    .fillColor: (
        .color(RGBAColor(red: 2, green: 0, blue: 0, alpha: 1)), "fillColor has a component outside 0...1 or not finite"
    ),
    .fillRule: (.string(String(repeating: "r", count: 4097)), "fillRule is longer than 4096 bytes"),
    .strokeColor: (
        .color(RGBAColor(red: 0, green: 0, blue: 0, alpha: -1)),
        "strokeColor has a component outside 0...1 or not finite"
    ),
    .lineWidth: (.number(-1), "lineWidth is negative"),
    .miterLimit: (.number(.nan), "miterLimit is NaN or infinite"),
    .lineCap: (.string(String(repeating: "c", count: 4097)), "lineCap is longer than 4096 bytes"),
    .lineJoin: (.string(String(repeating: "j", count: 4097)), "lineJoin is longer than 4096 bytes"),
    // A pattern of zeros would dash forever: refused (issue 20, hostile input).
    .lineDashPattern: (.numbers([0, 0]), "lineDashPattern has no length above 0"),
    .lineDashPhase: (.number(.infinity), "lineDashPhase is NaN or infinite"),
    .strokeStart: (.number(.nan), "strokeStart is NaN or infinite"),
    .strokeEnd: (.number(-.infinity), "strokeEnd is NaN or infinite"),
    .colors: (
        .colors([RGBAColor(red: .nan, green: 0, blue: 0, alpha: 1)]),
        "colors has a component outside 0...1 or not finite"
    ),
    .locations: (.numbers([0, .nan]), "locations has a NaN or infinite entry"),
    .startPoint: (.point(CGPoint(x: CGFloat.nan, y: 0)), "startPoint has a NaN or infinite component"),
    .endPoint: (.point(CGPoint(x: 0, y: -CGFloat.infinity)), "endPoint has a NaN or infinite component"),
    .gradientType: (.string(String(repeating: "t", count: 4097)), "type is longer than 4096 bytes"),
    .shadowColor: (
        .color(RGBAColor(red: 0, green: 0, blue: 0, alpha: 1.5)),
        "shadowColor has a component outside 0...1 or not finite"
    ),
    .shadowOpacity: (.float(.nan), "shadowOpacity is NaN or infinite"),
    .shadowRadius: (.number(-1), "shadowRadius is negative"),
    .shadowOffset: (.size(CGSize(width: CGFloat.nan, height: 0)), "shadowOffset has a NaN or infinite component"),
    .shadowPath: (
        .path(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: CGFloat.infinity))),
        "shadowPath has a NaN or infinite point"
    ),
    .textString: (.string(String(repeating: "s", count: 4097)), "string is longer than 4096 bytes"),
    .font: (.string(String(repeating: "f", count: 4097)), "font is longer than 4096 bytes"),
    .fontSize: (.number(.nan), "fontSize is NaN or infinite"),
    .foregroundColor: (
        .color(RGBAColor(red: 2, green: 0, blue: 0, alpha: 1)),
        "foregroundColor has a component outside 0...1 or not finite"
    ),
    .wrapped: nil,
    .truncationMode: (.string(String(repeating: "t", count: 4097)), "truncationMode is longer than 4096 bytes"),
    .alignmentMode: (.string(String(repeating: "a", count: 4097)), "alignmentMode is longer than 4096 bytes"),
    .allowsFontSubpixelQuantization: nil,
    .tintsContents: nil,
    // A count below 0 or NaN is refused, and so is one above the server's limit of 10,000 copies
    // (hostile input: a replicator of 10^9 must not stall the server).
    .instanceCount: (.number(10_001), "instanceCount is above 10000"),
    .instanceDelay: (.number(.nan), "instanceDelay is NaN or infinite"),
    .instanceTransform: (
        .transform(CATransform3DMakeTranslation(0, .infinity, 0)), "instanceTransform has a NaN or infinite entry"
    ),
    .instanceColor: (
        .color(RGBAColor(red: 0, green: 0, blue: 1.5, alpha: 1)),
        "instanceColor has a component outside 0...1 or not finite"
    ),
    .instanceRedOffset: (.float(.nan), "instanceRedOffset is NaN or infinite"),
    .instanceGreenOffset: (.float(.infinity), "instanceGreenOffset is NaN or infinite"),
    .instanceBlueOffset: (.float(-.infinity), "instanceBlueOffset is NaN or infinite"),
    .instanceAlphaOffset: (.float(.nan), "instanceAlphaOffset is NaN or infinite"),
    .preservesDepth: nil, .emitterPreservesDepth: nil,
    .emitterBirthRate: (.float(.nan), "birthRate is NaN or infinite"),
    .emitterLifetime: (.float(.infinity), "lifetime is NaN or infinite"),
    .emitterVelocity: (.float(.nan), "velocity is NaN or infinite"),
    .emitterScale: (.float(-.infinity), "scale is NaN or infinite"),
    .emitterSpin: (.float(.nan), "spin is NaN or infinite"),
    .emitterPosition: (.point(CGPoint(x: CGFloat.nan, y: 0)), "emitterPosition has a NaN or infinite component"),
    .emitterZPosition: (.number(.infinity), "emitterZPosition is NaN or infinite"),
    .emitterSize: (.size(CGSize(width: 0, height: CGFloat.nan)), "emitterSize has a NaN or infinite component"),
    .emitterDepth: (.number(.nan), "emitterDepth is NaN or infinite"),
    .emitterShape: (.string(String(repeating: "s", count: 4097)), "emitterShape is longer than 4096 bytes"),
    .emitterMode: (.string(String(repeating: "m", count: 4097)), "emitterMode is longer than 4096 bytes"),
    .renderMode: (.string(String(repeating: "r", count: 4097)), "renderMode is longer than 4096 bytes"),
    .emitterSeed: (.number(.nan), "seed is NaN or infinite"),
    // A radius must be finite and not negative, a list hold at most 16 filters, and a blend code be a
    // whole number 0...11 (LayerBlendMode).
    .filters: (
        .filters([LayerFilter(filterName: "CIGaussianBlur", name: "blur", radius: .nan)]),
        "filters has a NaN or infinite inputRadius"
    ),
    .backgroundFilters: (
        .filters([LayerFilter(filterName: "CIGaussianBlur", name: "blur", radius: -1)]),
        "backgroundFilters has a negative inputRadius"
    ),
    .compositingFilter: (.number(12), "compositingFilter has an unknown blend mode code 12.0"),
]

/// A new layer of the class that has `name` (a plain `CALayer` for the rows every layer has).
private func layer(having name: LayerPropertyName) -> CALayer {
    switch name.layerClass {
    case .layer: CALayer()
    case .shape: CAShapeLayer()
    case .gradient: CAGradientLayer()
    case .text: CATextLayer()
    case .replicator: CAReplicatorLayer()
    case .tiled: CATiledLayer()
    case .emitter: CAEmitterLayer()
    case .transform: CATransformLayer()
    }
}

@Suite struct LayerPropertyTableTests {
    static let names = LayerPropertyName.allCases

    @Test func rowsAreInCodeOrderWithDistinctKeysAndCodes() {
        let table = LayerPropertyDescriptor.table
        #expect(table.count == 93)
        #expect(table.map(\.code) == Array(1...93))
        // The rows every layer has, then CAShapeLayer's, then CAGradientLayer's, then the shadow's
        // (every layer's, added later), then CATextLayer's.
        #expect(
            table.map(\.layerClass) == Array(repeating: .layer, count: 36) + Array(repeating: .shape, count: 12)
                + Array(repeating: .gradient, count: 5) + Array(repeating: .layer, count: 5)
                + Array(repeating: .text, count: 9) + Array(repeating: .replicator, count: 9)
                + Array(repeating: .emitter, count: 13) + Array(repeating: .layer, count: 3) + [.emitter])
        // Keys are distinct but for the emitter's preservesDepth, the replicator's key too: that row is
        // kept by the client (not found by key), so the key still names one row.
        #expect(Set(table.map(\.key)).count == table.count - 1)
        #expect(LayerPropertyName(key: "preservesDepth") == .preservesDepth)
        #expect(
            LayerPropertyDescriptor.table.filter { $0.key == "preservesDepth" }.map(\.name) == [
                .preservesDepth, .emitterPreservesDepth,
            ])
        for row in table { #expect(row.name.descriptor.key == row.key) }
        #expect(LayerPropertyName.hidden.key == "hidden")
        #expect(LayerPropertyName(key: "hidden") == .hidden)
        #expect(LayerPropertyName(key: "isHidden") == nil)
        // The text rows the client keeps are not found by key (the text layer's own keys); its
        // foregroundColor, animated by the server, is.
        #expect(
            table.filter(\.isClientKept).map(\.name) == [
                .textString, .font, .fontSize, .wrapped, .truncationMode, .alignmentMode,
                .allowsFontSubpixelQuantization, .tintsContents, .filters, .backgroundFilters, .compositingFilter,
                .emitterPreservesDepth,
            ])
        #expect(LayerPropertyName(key: "fontSize") == nil && LayerPropertyName(key: "string") == nil)
        #expect(LayerPropertyName(key: "foregroundColor", of: .text) == .foregroundColor)
        #expect(LayerPropertyName(key: "foregroundColor", of: .layer) == nil)
    }

    @Test func animationCodesAreTodaysAndKeyPathsParseExactlyTheAnimatableRows() {
        // The codes animation targets have always used, 1...14 over the first animatable rows in order,
        // then 15...21 for contentsRect, contentsCenter, contentsScale, minificationFilterBias,
        // doubleSided, shouldRasterize and rasterizationScale (CALayer.h marks them animatable), then
        // 22 for contents (CALayer.h: Animatable; App. B: a basic implicit animation, a cross-fade).
        // 23...30 are CAShapeLayer's (path, the colours, lineWidth, miterLimit, lineDashPhase, strokeStart,
        // strokeEnd: CAShapeLayer.h marks them animatable), 31...34 CAGradientLayer's (colors, locations,
        // startPoint, endPoint), 35...39 the shadow's (App. B: each a basic implicit animation), 40
        // CATextLayer's foregroundColor (CATextLayer.h: animatable; its fontSize animates on the
        // client, by redrawing).
        let animatable = LayerPropertyDescriptor.table.filter(\.isAnimatable)
        // 41...48 are CAReplicatorLayer's (CAReplicatorLayer.h: every property but preservesDepth
        // animates), 49...57 CAEmitterLayer's (CAEmitterLayer.h marks the five multipliers and the
        // emitter's position, z position, size and depth "Animatable"; the shape, modes and seed not).
        // 58 and 59 are the radii of filters and backgroundFilters (`filters.NAME.inputRadius`: App. B,
        // filter sub-properties animate).
        #expect(animatable.compactMap(\.animation?.code) == Array(1...59))
        #expect(
            animatable.filter { $0.layerClass == .layer }.suffix(15).map(\.name) == [
                .contentsRect, .contentsCenter, .contentsScale, .minificationFilterBias, .doubleSided,
                .shouldRasterize, .rasterizationScale, .contents, .shadowColor, .shadowOpacity, .shadowRadius,
                .shadowOffset, .shadowPath, .filters, .backgroundFilters,
            ])
        for name in [LayerPropertyName.shadowColor, .shadowOpacity, .shadowRadius, .shadowOffset, .shadowPath] {
            #expect(name.descriptor.animation?.isImplicit == true, "\(name)")
        }
        #expect(
            animatable.filter { $0.layerClass != .layer }.map(\.name) == [
                .path, .fillColor, .strokeColor, .lineWidth, .miterLimit, .lineDashPhase, .strokeStart, .strokeEnd,
                .colors, .locations, .startPoint, .endPoint, .foregroundColor, .instanceCount, .instanceDelay,
                .instanceTransform, .instanceColor, .instanceRedOffset, .instanceGreenOffset, .instanceBlueOffset,
                .instanceAlphaOffset, .emitterBirthRate, .emitterLifetime, .emitterVelocity, .emitterScale,
                .emitterSpin, .emitterPosition, .emitterZPosition, .emitterSize, .emitterDepth,
            ])
        // CAShapeLayer.h: path animates, but with no implicit animation.
        #expect(LayerPropertyName.path.descriptor.animation?.isImplicit == false)
        #expect(LayerPropertyName.strokeEnd.descriptor.animation?.isImplicit == true)
        #expect(LayerPropertyName.contents.descriptor.animation?.isImplicit == true)
        #expect(!LayerPropertyName.maskedCorners.descriptor.isAnimatable)
        #expect(LayerPropertyName.borderWidth.descriptor.animation?.code == 12)
        // The filter lists animate only through a filter's radius, not as a whole.
        for row in LayerPropertyDescriptor.table where row.name != .filters && row.name != .backgroundFilters {
            #expect((LayerKeyPath(row.key) != nil) == row.isAnimatable, "\(row.key)")
            if let code = row.animation?.code { #expect(LayerPropertyName(animationCode: code) == row.name) }
        }
        #expect(LayerKeyPath("filters") == nil && LayerKeyPath("backgroundFilters") == nil)
        #expect(LayerKeyPath("filters.blur.inputRadius") == LayerKeyPath(.filters, .filterRadius("blur")))
        #expect(LayerKeyPath("backgroundFilters.b.inputRadius") == LayerKeyPath(.backgroundFilters, .filterRadius("b")))
        #expect(LayerKeyPath("filters.blur.inputScale") == nil && LayerKeyPath("filters..inputRadius") == nil)
        #expect(LayerPropertyName(animationCode: 58) == .filters)
        #expect(LayerPropertyName(animationCode: 60) == nil)
    }

    @Test(arguments: names)
    func defaultIsCoreAnimationsAndNewLayerStatesHoldIt(_ name: LayerPropertyName) {
        #expect(name.descriptor.defaultValue == expectedDefaults[name])
        #expect(LayerState()[name] == expectedDefaults[name])
        #expect(LayerState(layerClass: name.layerClass)[name] == expectedDefaults[name])
        #expect(name.descriptor.defaultValue.kind == name.descriptor.kind)
    }

    @Test(arguments: names)
    func stateSubscriptWritesOnlyItsOwnField(_ name: LayerPropertyName) throws {
        let sample = try #require(samples[name])
        var state = LayerState(layerClass: name.layerClass)
        state[name] = sample
        #expect(state[name] == sample)
        for other in Self.names where other != name { #expect(state[other] == expectedDefaults[other]) }
        // A value of another kind is ignored.
        var untouched = LayerState(layerClass: name.layerClass)
        untouched[name] = sample.kind == .bool ? .number(1) : .bool(true)
        #expect(untouched == LayerState(layerClass: name.layerClass))
        // A class's property on a layer of another class keeps its default: there is no storage for it.
        if name.layerClass != .layer {
            var plain = LayerState()
            plain[name] = sample
            #expect(plain == LayerState())
        }
    }

    @Test(arguments: names)
    func everyPropertyRoundTripsThroughTheCodec(_ name: LayerPropertyName) throws {
        let sample = try #require(samples[name])
        let initial = try #require(expectedDefaults[name])
        for value in [sample, initial] {
            let property = try #require(LayerProperty(name, value))
            #expect(property.name == name && property.value == value && property.code == name.rawValue)
            let op = LayerOperation.set(0x0102_0304_0506_0708, property)
            let bytes = MessageCodec.encode(ClientMessage.transactionPart([op]))
            // Header 8, count 4, operation code 1, id 8, property code 1, then the value's layout.
            #expect(bytes.count == 22 + payloadSize(value))
            #expect(bytes[21] == name.rawValue)
            #expect(try MessageCodec.decodeClient(bytes) == .transactionPart([op]))
            #expect(MessageCodec.encodedSize(of: op) == 10 + payloadSize(value))
        }
    }

    @Test(arguments: names)
    func validValuesPassAndBadOnesAreRefusedWithTheirReason(_ name: LayerPropertyName) throws {
        let sampleValue = try #require(samples[name])
        let sample = try #require(LayerProperty(name, sampleValue))
        #expect(sample.invalidReason == nil)
        #expect(sample.keyPath == name.key)
        guard let (bad, reason) = try #require(refusals[name]) else { return }
        let property = try #require(LayerProperty(name, bad))
        #expect(property.invalidReason == reason)
        // The server refuses it, leaving the tree as it was.
        let base = try RenderTree().applying([.createLayer(1, name.layerClass)], displayCount: 1)
        #expect(throws: TransactionError.invalidValue("layer 1: \(reason)")) {
            try base.applying([.set(1, property)], displayCount: 1)
        }
    }

    @Test func oneClampingForTheServerAndForKeyPaths() throws {
        // Opacity is clamped into 0...1 on apply and when a key path writes it; never refused.
        var state = LayerState()
        LayerProperty.opacity(1.5).apply(to: &state)
        #expect(state.opacity == 1)
        LayerProperty.opacity(-2).apply(to: &state)
        #expect(state.opacity == 0)
        #expect(LayerProperty.opacity(7).invalidReason == nil)
        #expect(LayerKeyPath("opacity")?.set(.number(3), in: &state) == true)
        #expect(state.opacity == 1)
        // Negative radii, widths and sizes are refused on the wire, clamped to 0 through key paths.
        #expect(LayerKeyPath("cornerRadius")?.set(.number(-4), in: &state) == true)
        #expect(state.cornerRadius == 0)
        #expect(LayerKeyPath("bounds.size.width")?.set(.number(-4), in: &state) == true)
        // (CGRect.width reads the magnitude, so a negative width comes through as its absolute value.)
        #expect(state.bounds.size.width == 4)
        #expect(LayerKeyPath("position.x")?.set(.number(-4), in: &state) == true)
        #expect(state.position.x == -4)
        // The model keeps what the app set; only the server clamps.
        let layer = CALayer()
        layer.opacity = 2
        layer.cornerRadius = -1
        #expect(layer.opacity == 2 && layer.cornerRadius == -1)
    }

    // contents takes a CGImage, whose id the sample cannot choose: ContentsImageTests checks it.
    // The filter lists are CIFilter arrays to key-value coding: CIFilterTests checks them.
    @Test(
        arguments: LayerPropertyDescriptor.table.filter {
            $0.isAnimatable && $0.name != .contents && $0.name != .filters && $0.name != .backgroundFilters
        }.map(\.name))
    func keyValueCodingReadsBackWhatWasSet(_ name: LayerPropertyName) throws {
        let sample = try #require(samples[name])
        let animationValue = try #require(sample.animationValue)
        let boxed: Any? =
            switch animationValue {
            case .number(let v): name == .opacity || name == .shadowOpacity ? Float(v) as Any : CGFloat(v) as Any
            case .point(let p): p
            case .rect(let r): r
            case .transform(let t): t
            case .bool(let b): b
            case .color(let c): c.map { CGColor(rgba: ($0.red, $0.green, $0.blue, $0.alpha)) }
            case .path(let p): p
            case .numbers(let list): list.map { $0.map { NSNumber(value: $0) } }
            case .colors(let list): list.map { $0.map { CGColor(rgba: ($0.red, $0.green, $0.blue, $0.alpha)) } }
            case .size(let size): size
            case .vector, .image: nil
            }
        let layer = layer(having: name)
        layer.setValue(boxed, forKey: name.key)
        #expect(layer.modelState[name] == sample)
        let read = layer.value(forKey: name.key)
        #expect(try AnimationValue.unbox(read ?? NSNull(), as: name.kind, what: "read") == animationValue)
        if name == .opacity { #expect(read is Float) }
    }

    @Test func accessorsWriteTheirOwnRow() throws {
        let layer = CALayer()
        layer.isHidden = true
        layer.maskedCorners = [.layerMaxXMaxYCorner]
        layer.name = "n"
        layer.speed = 0.5
        layer.beginTime = 3
        #expect(layer.modelState[.hidden] == .bool(true))
        #expect(layer.modelState[.maskedCorners] == .corners([.layerMaxXMaxYCorner]))
        #expect(layer.modelState[.name] == .string("n"))
        #expect(layer.modelState[.speed] == .number(0.5))
        #expect(layer.modelState[.beginTime] == .number(3))
        let changed = LayerProperty.differences(from: LayerState(), to: layer.modelState).map(\.name)
        #expect(changed == [.hidden, .maskedCorners, .name, .beginTime, .speed])
    }
}
