// CAShapeLayer's model: Apple's documented defaults and raw values (CAShapeLayer.h, the developer
// documentation's CAShapeLayer pages; GNUstep's Apple-run tests), copying on set, hit testing and
// what a commit sends for a layer of a class.
import Foundation
import LaminaProtocol
import LaminaServer
import Testing

@testable import Lamina

@Suite struct ShapeLayerTests {
    /// CAShapeLayer.h (2008–2014): path nil, fillColor opaque black, fillRule non-zero, strokeColor nil,
    /// lineWidth 1, miterLimit 10, lineCap butt, lineJoin miter, lineDashPhase 0, lineDashPattern nil,
    /// strokeStart 0, strokeEnd 1 (text-and-shapes notes T23).
    @Test func defaultsAreApples() {
        let layer = CAShapeLayer()
        #expect(layer.path == nil)
        #expect(layer.fillColor?.components == [0, 1])
        #expect(layer.fillRule == .nonZero)
        #expect(layer.strokeColor == nil)
        #expect(layer.lineWidth == 1)
        #expect(layer.miterLimit == 10)
        #expect(layer.lineCap == .butt)
        #expect(layer.lineJoin == .miter)
        #expect(layer.lineDashPhase == 0)
        #expect(layer.lineDashPattern == nil)
        #expect(layer.strokeStart == 0)
        #expect(layer.strokeEnd == 1)
        #expect(layer.modelState.layerClass == .shape)
        #expect(CALayer().modelState.layerClass == .layer)
    }

    /// The constants' raw values as Apple spells them (CAShapeLayer.h: kCAFillRuleNonZero "non-zero",
    /// kCAFillRuleEvenOdd "even-odd", kCALineJoinMiter "miter", ..., kCALineCapSquare "square").
    @Test func constantsHaveApplesRawValues() {
        #expect(CAShapeLayerFillRule.nonZero.rawValue == "non-zero")
        #expect(CAShapeLayerFillRule.evenOdd.rawValue == "even-odd")
        #expect(CAShapeLayerLineCap.butt.rawValue == "butt")
        #expect(CAShapeLayerLineCap.round.rawValue == "round")
        #expect(CAShapeLayerLineCap.square.rawValue == "square")
        #expect(CAShapeLayerLineJoin.miter.rawValue == "miter")
        #expect(CAShapeLayerLineJoin.round.rawValue == "round")
        #expect(CAShapeLayerLineJoin.bevel.rawValue == "bevel")
    }

    /// CAShapeLayer.h: "Upon assignment the path is copied"; GNUstep PR #27 (Apple-run): the dash
    /// pattern is copied too (notes T24).
    @Test func pathAndDashPatternAreCopiedOnSet() {
        let layer = CAShapeLayer()
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        layer.path = path
        path.addLine(to: CGPoint(x: 50, y: 50))
        #expect(layer.path?.elementCount == 5)
        #expect(layer.path !== path)
        #expect(!(layer.path is CGMutablePath))
        var pattern: [NSNumber] = [4, 2]
        layer.lineDashPattern = pattern
        pattern.append(1)
        #expect(layer.lineDashPattern == [4, 2])
        #expect(layer.modelState.shape.lineDashPattern == [4, 2])
    }

    /// Hit testing of a shape layer uses its bounds, not its path (notes §4.4).
    @Test func containsIsTheBoundsNotThePath() {
        let layer = CAShapeLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(layer.contains(CGPoint(x: 50, y: 50)))
        #expect(!layer.contains(CGPoint(x: 150, y: 50)))
    }

    /// Unknown names are kept as given (as Apple keeps them), and drawn as the default.
    @Test func unknownNamesAreKept() {
        let layer = CAShapeLayer()
        layer.fillRule = CAShapeLayerFillRule("spiral")
        layer.lineCap = CAShapeLayerLineCap("pointy")
        #expect(layer.fillRule.rawValue == "spiral")
        #expect(layer.lineCap.rawValue == "pointy")
    }

    /// A shape layer's properties belong to it alone: the model of a plain layer has no storage for
    /// them, and a plain layer's "fillColor" is a custom key, as on Apple platforms.
    @Test func aPlainLayerHasNoShapeProperties() {
        let plain = CALayer()
        plain.setValue(NSNumber(value: 3), forKey: "lineWidth")
        #expect((plain.value(forKey: "lineWidth") as? NSNumber)?.doubleValue == 3)
        #expect(plain.modelState.classState == .none)
        #expect(CALayer.defaultValue(forKey: "fillColor") == nil)
        #expect(CALayer.defaultValue(forKey: "opacity") as? NSNumber == NSNumber(value: Float(1)))
    }

    /// A new shape layer travels as `createLayer` with its class, then only the properties that differ
    /// from its class's defaults; the server's copy equals the model.
    @Test func aNewShapeLayerSendsItsClassAndItsChanges() throws {
        let layer = CAShapeLayer()
        layer.path = CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30))
        layer.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let properties = LayerProperty.differences(from: LayerState(), to: layer.modelState)
        #expect(properties.map(\.name) == [.path, .strokeColor])
        var tree = try RenderTree().applying(
            [.createLayer(7, .shape)] + properties.map { .set(7, $0) }, displayCount: 1)
        #expect(tree.layers[7]?.state == layer.modelState)
        // Setting it again changes nothing; the class stays.
        tree = try tree.applying([.set(7, .lineWidth(3))], displayCount: 1)
        #expect(tree.layers[7]?.state.shape.lineWidth == 3)
    }
}

extension ShapeLayerTests {
    /// `+[CAShapeLayer defaultValueForKey:]` answers the class's keys with the defaults of
    /// CAShapeLayer.h, and every other key as CALayer does.
    @Test func defaultValueForKeyAnswersTheClassKeys() {
        #expect((CAShapeLayer.defaultValue(forKey: "lineWidth") as? NSNumber)?.doubleValue == 1)
        #expect((CAShapeLayer.defaultValue(forKey: "miterLimit") as? NSNumber)?.doubleValue == 10)
        #expect((CAShapeLayer.defaultValue(forKey: "strokeEnd") as? NSNumber)?.doubleValue == 1)
        #expect((CAShapeLayer.defaultValue(forKey: "fillColor") as? CGColor).map { RGBAColor($0) } == .black)
        #expect(CAShapeLayer.defaultValue(forKey: "fillRule") as? String == "non-zero")
        #expect(CAShapeLayer.defaultValue(forKey: "lineCap") as? String == "butt")
        #expect(CAShapeLayer.defaultValue(forKey: "path") == nil)
        #expect(CAShapeLayer.defaultValue(forKey: "strokeColor") == nil)
        #expect(CAShapeLayer.defaultValue(forKey: "lineDashPattern") == nil)
        #expect((CAShapeLayer.defaultValue(forKey: "opacity") as? NSNumber)?.floatValue == 1)
        #expect(CAShapeLayer.defaultValue(forKey: "colors") == nil)
    }
}
