import Foundation
import Lamina
import LaminaTesting
import Testing

/// End to end: a CAEmitterLayer set up by a client as Apple code would (E18's sparks), simulated and
/// drawn by a real laminad and captured at chosen media times, checked against the pixels velocity ×
/// age predicts; the same time captured twice gives the same bytes, and the cells' image is uploaded
/// like layer contents.
@Suite(.serialized) final class EmitterSceneTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 100, height: 100)
    }

    deinit {
        server.stop()
    }

    /// A black 100×100 root, an emitter layer filling it whose local time 0 is `begin` in the root's
    /// time (emission starts then), emitting from (10, 50), and its cell "spark": one birth a second,
    /// living 10 s, 20 points a second (not yet set on the emitter nor added to the root).
    static func sparkScene(begin: CFTimeInterval) -> (root: CALayer, emitter: CAEmitterLayer, spark: CAEmitterCell) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let emitter = CAEmitterLayer()
        emitter.frame = root.bounds
        emitter.beginTime = begin
        emitter.emitterPosition = CGPoint(x: 10, y: 50)
        let spark = CAEmitterCell()
        spark.name = "spark"
        spark.birthRate = 1
        spark.lifetime = 10
        spark.velocity = 20
        return (root, emitter, spark)
    }

    @Test func sparksFromTheClientAreWhereVelocityTimesAgePutsThem() throws {
        let context = try server.connect(name: "emitter")
        let begin = CACurrentMediaTime() + 10
        let (root, emitter, spark) = Self.sparkScene(begin: begin)
        emitter.seed = 3
        spark.emissionLongitude = 0
        spark.color = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        spark.contents = CGImage(width: 4, height: 4, premultipliedRGBA: [UInt8](repeating: 255, count: 64))
        emitter.emitterCells = [spark]
        root.addSublayer(emitter)
        context.layer = root
        try context.synchronize()

        // 2 s after the start: sparks born at 0, 1 and 2 s are 40, 20 and 0 points from (10, 50).
        let image = try context.capture(at: begin + 2)
        try image.writePNG(to: server.directory.appendingPathComponent("emitter.png").path)
        for x in [10, 30, 50] {
            expectPixel(image, x, 50, (255, 128, 0), tolerance: 2, "orange spark at x \(x)")
        }
        for x in [20, 40, 60] {
            expectPixel(image, x, 50, (0, 0, 0), tolerance: 0, "nothing at x \(x)")
        }
        let again = try context.capture(at: begin + 2)
        #expect(again.premultipliedRGBA == image.premultipliedRGBA, "the same time is the same picture")

        // A cell's value changed through the layer's key path reaches the server with the next commit:
        // velocity 10 puts the oldest spark 20 points along at 2 s.
        emitter.setValue(10, forKeyPath: "emitterCells.spark.velocity")
        try context.synchronize()
        let slower = try context.capture(at: begin + 2)
        expectPixel(slower, 30, 50, (255, 128, 0), tolerance: 2, "the oldest spark at 10 points a second")
        expectPixel(slower, 50, 50, (0, 0, 0), tolerance: 0, "nothing where it was at 20 points a second")

        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)")
    }

    /// A cell's velocity animated through the layer (`CABasicAnimation(keyPath:
    /// "emitterCells.spark.velocity")`, CAEmitterLayer.h's key paths; `velocity` is "Animatable" in
    /// CAEmitterCell.h) at 60 from local 0.5 to 1.5 s: the spark born at 1 s moves at 60 and is 60
    /// points along at 2 s (x 70), those born at 0 and 2 s keep the model's 20 (x 50 and 10); where
    /// the middle spark would be without the animation (x 30) stays black.
    @Test func anAnimatedCellVelocityMovesTheSparksBornDuringIt() throws {
        let context = try server.connect(name: "emitter-animation")
        let begin = CACurrentMediaTime() + 10
        let (root, emitter, spark) = Self.sparkScene(begin: begin)
        spark.contents = CGImage(width: 4, height: 4, premultipliedRGBA: [UInt8](repeating: 255, count: 64))
        emitter.emitterCells = [spark]
        let faster = CABasicAnimation(keyPath: "emitterCells.spark.velocity")
        faster.fromValue = 60
        faster.toValue = 60
        faster.beginTime = 0.5
        faster.duration = 1
        emitter.add(faster, forKey: "faster")
        #expect(emitter.animation(forKey: "faster") != nil, "the animation is accepted")
        // A cell key that does not animate (a name) is refused, as Apple's KVC would fail on it.
        emitter.add(CABasicAnimation(keyPath: "emitterCells.spark.name"), forKey: "bad")
        #expect(emitter.animation(forKey: "bad") == nil, "a cell's name does not animate")
        root.addSublayer(emitter)
        context.layer = root
        try context.synchronize()

        let image = try context.capture(at: begin + 2)
        for x in [10, 50, 70] {
            expectPixel(image, x, 50, (255, 255, 255), tolerance: 2, "a spark at x \(x)")
        }
        expectPixel(image, 30, 50, (0, 0, 0), tolerance: 0, "no spark at x 30")
        let again = try context.capture(at: begin + 2)
        #expect(again.premultipliedRGBA == image.premultipliedRGBA, "the same time is the same picture")

        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)")
    }
}
