// CAShapeLayer's and CAGradientLayer's animations on the client: which properties animate implicitly
// (CAShapeLayer.h, CAGradientLayer.h), presentation values computed by the same LaminaCore code as the
// server's frames, and the wire form of path, colour-list and number-list animation values.
import Foundation
import LaminaProtocol
import Testing

@testable import Lamina

@Suite(.serialized) struct ShapeAnimationTests {
    /// A committed animation of `layer` under `key`, begun at layer time 10.
    static func attach(_ animation: CAAnimation, to layer: CALayer, key: String = "a") throws {
        layer.add(animation, forKey: key)
        let entry = try #require(layer.attachedAnimations.last)
        entry.record.timing.beginTime = 10
        entry.committed = true
        layer.hasBeenCommitted = true
    }

    static func linear(_ keyPath: String, from: Any?, to: Any?) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.duration = 1
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        return animation
    }

    /// CAShapeLayer.h marks strokeStart, strokeEnd, lineWidth, miterLimit, lineDashPhase and the colours
    /// animatable with implicit animations, and path "Animatable" but with no implicit animation; fillRule,
    /// lineCap, lineJoin and lineDashPattern do not animate (notes T30).
    @Test func whichShapePropertiesAnimateImplicitly() throws {
        let layer = CAShapeLayer()
        layer.hasBeenCommitted = true
        layer.strokeEnd = 0.5
        let implicit = try #require(layer.animation(forKey: "strokeEnd") as? CABasicAnimation)
        #expect((implicit.fromValue as? NSNumber)?.doubleValue == 1)
        layer.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        #expect(layer.animation(forKey: "fillColor") != nil)
        for (key, set) in [
            ("lineWidth", { layer.lineWidth = 3 }), ("miterLimit", { layer.miterLimit = 4 }),
            ("lineDashPhase", { layer.lineDashPhase = 2 }), ("strokeStart", { layer.strokeStart = 0.1 }),
            ("strokeColor", { layer.strokeColor = CGColor(gray: 0.5, alpha: 1) }),
        ] as [(String, () -> Void)] {
            set()
            #expect(layer.animation(forKey: key) != nil, "\(key)")
        }
        layer.path = CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 5))
        layer.lineCap = .round
        layer.lineJoin = .bevel
        layer.fillRule = .evenOdd
        layer.lineDashPattern = [1, 2]
        for key in ["path", "lineCap", "lineJoin", "fillRule", "lineDashPattern"] {
            #expect(layer.animation(forKey: key) == nil, "\(key)")
        }
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    /// CAGradientLayer.h marks colors, locations, startPoint and endPoint animatable; type does not
    /// animate.
    @Test func whichGradientPropertiesAnimateImplicitly() throws {
        let layer = CAGradientLayer()
        layer.hasBeenCommitted = true
        layer.colors = [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)]
        layer.locations = [0, 1]
        layer.startPoint = .zero
        layer.endPoint = CGPoint(x: 1, y: 1)
        layer.type = .radial
        for key in ["colors", "locations", "startPoint", "endPoint"] {
            #expect(layer.animation(forKey: key) != nil, "\(key)")
        }
        #expect(layer.animation(forKey: "type") == nil)
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    /// The presentation layer of a shape layer halfway through its animations: strokeEnd halfway, the
    /// fill colour halfway (unpremultiplied components), the path blended point by point.
    @Test func presentationValuesOfAShapeLayer() throws {
        let layer = CAShapeLayer()
        let from = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let to = CGPath(rect: CGRect(x: 10, y: 10, width: 30, height: 10))
        layer.path = to
        try Self.attach(Self.linear("strokeEnd", from: 0, to: 1), to: layer, key: "ring")
        try Self.attach(
            Self.linear(
                "fillColor", from: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                to: CGColor(red: 0, green: 0, blue: 1, alpha: 1)),
            to: layer, key: "fill")
        try Self.attach(Self.linear("path", from: from, to: to), to: layer, key: "morph")
        let half = try #require(layer.presentation(at: 10.5) as? CAShapeLayer)
        #expect(half.strokeEnd == 0.5)
        #expect(half.fillColor.map { RGBAColor($0) } == RGBAColor(red: 0.5, green: 0, blue: 0.5, alpha: 1))
        #expect(half.path == CGPath(rect: CGRect(x: 5, y: 5, width: 20, height: 10)))
        #expect(layer.strokeEnd == 1)
    }

    /// A path animation between paths of different elements jumps at the midpoint (Lamina's choice
    /// for what CAShapeLayer.h leaves undefined, documented in docs/apple-differences.md).
    @Test func aPathAnimationBetweenDifferentPathsJumpsAtTheMidpoint() throws {
        let layer = CAShapeLayer()
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        try Self.attach(Self.linear("path", from: square, to: circle), to: layer)
        #expect(try #require(layer.presentation(at: 10.4) as? CAShapeLayer).path == square)
        #expect(try #require(layer.presentation(at: 10.6) as? CAShapeLayer).path == circle)
    }

    /// Gradient colours and locations animate stop by stop while the counts agree.
    @Test func presentationValuesOfAGradientLayer() throws {
        let layer = CAGradientLayer()
        let white = CGColor(gray: 1, alpha: 1), clear = CGColor(gray: 1, alpha: 0)
        try Self.attach(Self.linear("colors", from: [white, white], to: [clear, white]), to: layer, key: "c")
        try Self.attach(
            Self.linear("locations", from: [0, 1] as [NSNumber], to: [0.5, 1] as [NSNumber]), to: layer, key: "l")
        try Self.attach(Self.linear("startPoint", from: CGPoint.zero, to: CGPoint(x: 1, y: 0)), to: layer, key: "s")
        let half = try #require(layer.presentation(at: 10.5) as? CAGradientLayer)
        let colors = try #require(half.colors as? [CGColor])
        #expect(
            colors.map { RGBAColor($0) } == [
                RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.5), RGBAColor(red: 1, green: 1, blue: 1, alpha: 1),
            ])
        #expect(half.locations == [0.25, 1])
        #expect(half.startPoint == CGPoint(x: 0.5, y: 0))
    }

    /// Path, colour-list and number-list values travel in animation records bit for bit.
    @Test func listAndPathValuesRoundTripTheWire() throws {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 2))
        path.addQuadCurve(to: CGPoint(x: 3, y: 4), control: CGPoint(x: 5, y: -6))
        path.addCurve(to: CGPoint(x: 7, y: 8), control1: .zero, control2: CGPoint(x: 9, y: 9))
        path.closeSubpath()
        let values: [(String, AnimationValue, AnimationValue)] = [
            ("path", .path(path.copy()), .path(nil)),
            ("colors", .colors([.black, RGBAColor(red: 0.25, green: 0.5, blue: 0.75, alpha: 1)]), .colors(nil)),
            ("locations", .numbers([0, 0.25, 1]), .numbers([])),
        ]
        for (key, from, to) in values {
            let record = AnimationRecord(
                timing: MediaTiming(duration: 1),
                content: .basic(
                    PropertyTarget(keyPath: try #require(LayerKeyPath(key))), BasicValues(from: from, to: to)))
            #expect(record.invalidReason == nil)
            let op = LayerOperation.addAnimation(3, AttachedAnimation(id: 9, key: key, record: record))
            let bytes = MessageCodec.encode(ClientMessage.transactionPart([op]))
            #expect(try MessageCodec.decodeClient(bytes) == .transactionPart([op]), "\(key)")
        }
        // A path with a NaN point is refused by the record's check.
        let bad = CGMutablePath()
        bad.move(to: CGPoint(x: CGFloat.nan, y: 0))
        let record = AnimationRecord(
            timing: MediaTiming(duration: 1),
            content: .basic(
                PropertyTarget(keyPath: try #require(LayerKeyPath("path"))), BasicValues(from: .path(bad), to: nil)))
        #expect(record.invalidReason != nil)
    }

    /// An animation of a shape property added to a plain layer is refused on the client, with a
    /// diagnostic, so the server never sees it (it would refuse it: wrongLayerClass).
    @Test func aShapeAnimationOnAPlainLayerIsNotAdded() throws {
        let layer = CALayer()
        layer.add(Self.linear("strokeEnd", from: 0, to: 1), forKey: "ring")
        #expect(layer.animation(forKey: "ring") == nil)
    }
}
