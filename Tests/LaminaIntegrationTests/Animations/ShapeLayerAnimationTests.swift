import Foundation
import Lamina
import LaminaTesting
import Testing

/// CAShapeLayer's animations through the real laminad: the server evaluates them at each frame's time
/// and rasterizes the shape as it is then (issue 20, point 3), so captures at chosen times show the
/// animated stroke, colour and path with no client redraw.
@Suite(.serialized) final class ShapeLayerAnimationTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    /// A 80×60 shape layer at the root's origin holding the 40×30 rectangle at (10, 10), stroked red 4
    /// wide, not filled.
    func ring() -> CAShapeLayer {
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 80, height: 60)
        shape.path = CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30))
        shape.fillColor = nil
        shape.strokeColor = Self.red
        shape.lineWidth = 4
        return shape
    }

    /// Pixels of the capture's top-left 100×100 that are pure red.
    func redPixels(_ image: CGImage) -> Int {
        var count = 0
        for y in 0..<100 {
            for x in 0..<100 where rgb(image, x, y) == (255, 0, 0) { count += 1 }
        }
        return count
    }

    static func linear(_ keyPath: String, from: Any?, to: Any?, begin: Double) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.duration = 1
        animation.beginTime = begin
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        return animation
    }

    /// A progress ring: strokeEnd animated 0 → 1. Halfway the stroke covers Apple's 280 pixels (half of
    /// the 560 of the whole stroke), a quarter of the way the top edge's first 35 points (140 pixels).
    @Test func strokeEndAnimatesOnTheServersClock() throws {
        let context = try server.connect()
        let shape = ring()
        try makeScene(context, [shape])
        let t0 = CACurrentMediaTime() + 10
        shape.add(Self.linear("strokeEnd", from: 0, to: 1, begin: t0), forKey: "progress")
        try context.synchronize()
        #expect(redPixels(try context.capture(at: t0 + 0.5)) == 280)
        #expect(redPixels(try context.capture(at: t0 + 0.25)) == 140)
        #expect(redPixels(try context.capture(at: t0 + 2)) == 560)
        let presented = try #require(shape.presentation(at: t0 + 0.25) as? CAShapeLayer)
        #expect(abs(presented.strokeEnd - 0.25) < 1e-9)
        finish()
    }

    /// The fill colour interpolates on the server: red → blue is (128, 0, 128) halfway.
    @Test func fillColorAnimates() throws {
        let context = try server.connect()
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 80, height: 60)
        shape.path = CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30))
        try makeScene(context, [shape])
        let t0 = CACurrentMediaTime() + 10
        shape.add(Self.linear("fillColor", from: Self.red, to: Self.blue, begin: t0), forKey: "tint")
        try context.synchronize()
        let half = rgb(try context.capture(at: t0 + 0.5), 30, 25)
        #expect(abs(half.r - 128) <= 1 && half.g == 0 && abs(half.b - 128) <= 1, "\(half)")
        finish()
    }

    /// A path animation between two rectangles (the same elements) moves and grows the fill: halfway
    /// from 10×10 at (10, 10) to 30×10 at (50, 30) it is 20×10 at (30, 20).
    @Test func pathAnimatesPointByPoint() throws {
        let context = try server.connect()
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        shape.fillColor = Self.red
        let from = CGPath(rect: CGRect(x: 10, y: 10, width: 10, height: 10))
        let to = CGPath(rect: CGRect(x: 50, y: 30, width: 30, height: 10))
        shape.path = to
        try makeScene(context, [shape])
        let t0 = CACurrentMediaTime() + 10
        shape.add(Self.linear("path", from: from, to: to, begin: t0), forKey: "morph")
        try context.synchronize()
        let half = try context.capture(at: t0 + 0.5)
        #expect(redPixels(half) == 200)
        #expect(rgb(half, 30, 20) == (255, 0, 0))
        #expect(rgb(half, 49, 29) == (255, 0, 0))
        #expect(rgb(half, 50, 30) == (255, 255, 255))
        finish()
    }
}
