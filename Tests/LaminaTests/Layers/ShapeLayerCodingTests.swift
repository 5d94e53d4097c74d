// Key-value coding and NSSecureCoding of CAShapeLayer and CAGradientLayer (issue 20, point 6): every
// property by its key, the objects the app gave kept, archives that keep every property.
import Foundation
import Testing

@testable import Lamina

@Suite struct ShapeLayerCodingTests {
    static func roundTrip<T: NSObject & NSSecureCoding>(_ object: T) throws -> T {
        let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
        return try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: T.self, from: data))
    }

    /// Core Animation's key-value coding reaches every shape property by its key, returning the objects
    /// the properties return.
    @Test func shapePropertiesByKey() throws {
        let layer = CAShapeLayer()
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.setValue(red, forKey: "fillColor")
        #expect(layer.fillColor === red)
        #expect(layer.value(forKey: "fillColor") as? CGColor === red)
        #expect(layer.modelState.shape.fillColor == RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))
        layer.setValue(NSNull(), forKey: "strokeColor")
        #expect(layer.strokeColor == nil)
        let path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        layer.setValue(path, forKey: "path")
        #expect(layer.path == path)
        #expect((layer.value(forKey: "path") as? CGPath) == path)
        layer.setValue(NSNumber(value: 3), forKey: "lineWidth")
        layer.setValue(0.5, forKeyPath: "strokeEnd")
        #expect(layer.lineWidth == 3 && layer.strokeEnd == 0.5)
        #expect((layer.value(forKey: "strokeEnd") as? NSNumber)?.doubleValue == 0.5)
        layer.setValue("round", forKey: "lineCap")
        layer.setValue(CAShapeLayerLineJoin.bevel, forKey: "lineJoin")
        layer.setValue("even-odd", forKey: "fillRule")
        #expect(layer.lineCap == .round && layer.lineJoin == .bevel && layer.fillRule == .evenOdd)
        #expect(layer.value(forKey: "lineCap") as? String == "round")
        layer.setValue([4, 2] as [NSNumber], forKey: "lineDashPattern")
        #expect(layer.lineDashPattern == [4, 2])
        #expect(layer.value(forKey: "lineDashPattern") as? [NSNumber] == [4, 2])
        // A value of the wrong type changes nothing (Apple raises).
        layer.setValue("wide", forKey: "lineWidth")
        layer.setValue(NSNumber(value: 1), forKey: "path")
        #expect(layer.lineWidth == 3 && layer.path == path)
    }

    @Test func gradientPropertiesByKey() throws {
        let layer = CAGradientLayer()
        let colors = [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)]
        layer.setValue(colors, forKey: "colors")
        #expect((layer.value(forKey: "colors") as? [CGColor]).map { zip($0, colors).allSatisfy { $0 === $1 } } == true)
        layer.setValue([0, 0.25] as [NSNumber], forKey: "locations")
        #expect(layer.locations == [0, 0.25])
        layer.setValue(CGPoint(x: 0, y: 0.5), forKey: "startPoint")
        layer.setValue(1, forKeyPath: "endPoint.x")
        #expect(layer.startPoint == CGPoint(x: 0, y: 0.5) && layer.endPoint == CGPoint(x: 1, y: 1))
        layer.setValue("conic", forKey: "type")
        #expect(layer.type == .conic)
        #expect(layer.value(forKey: "type") as? String == "conic")
        #expect((CAGradientLayer.defaultValue(forKey: "startPoint") as? CGPoint) == CGPoint(x: 0.5, y: 0))
        #expect(CAGradientLayer.defaultValue(forKey: "type") as? String == "axial")
        #expect(CAGradientLayer.defaultValue(forKey: "colors") == nil)
    }

    /// CAShapeLayer adopts NSSecureCoding through CALayer: every property survives, colours keep their
    /// objects' models.
    @Test func shapeLayersArchive() throws {
        let layer = CAShapeLayer()
        layer.name = "ring"
        layer.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 10))
        layer.fillColor = CGColor(gray: 0.5, alpha: 1)
        layer.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        layer.lineWidth = 4
        layer.miterLimit = 3
        layer.lineCap = .round
        layer.lineJoin = .bevel
        layer.fillRule = .evenOdd
        layer.lineDashPattern = [3, 1]
        layer.lineDashPhase = 2
        layer.strokeStart = 0.1
        layer.strokeEnd = 0.9
        let back = try Self.roundTrip(layer)
        #expect(back.modelState == layer.modelState)
        #expect(back.fillColor?.components == [0.5, 1])
        #expect(back.lineDashPattern == [3, 1])
        #expect(back.name == "ring")
        // A plain layer holding a shape layer.
        let root = CALayer()
        root.addSublayer(layer)
        let tree = try Self.roundTrip(root)
        let sub = try #require(tree.sublayers?.first as? CAShapeLayer)
        #expect(sub.modelState == layer.modelState)
    }

    @Test func gradientLayersArchive() throws {
        let layer = CAGradientLayer()
        layer.colors = [CGColor(gray: 1, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)]
        layer.locations = [0.2, 0.8]
        layer.startPoint = CGPoint(x: 0, y: 0)
        layer.endPoint = CGPoint(x: 1, y: 1)
        layer.type = .radial
        let back = try Self.roundTrip(layer)
        #expect(back.modelState == layer.modelState)
        #expect((back.colors as? [CGColor])?.first?.components == [1, 1])
        #expect(back.locations == [0.2, 0.8])
    }
}
