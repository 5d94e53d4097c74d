import Foundation
import Testing

@testable import Lamina

/// `render(in:)` of an emitter layer draws its particles where the server's simulation puts them (a
/// deliberate difference: Apple's `renderInContext:` leaves particles out, docs/apple-differences.md).
/// E18's sparks with no ranges: one birth a second, 20 points a second along +x from (10, 50), each a
/// 4×4 white image tinted orange (`color` (1, 0.5, 0, 1), which "tints the contents",
/// CAEmitterCell.h). As for every `render(in:)` into an unflipped bitmap context, the layer's y = 0 is
/// the context's bottom row.
@Suite("Display: render(in:) of emitter layers")
struct RenderEmitterInContextTests {
    static let side = 100

    static func sparks() -> CAEmitterLayer {
        let emitter = CAEmitterLayer()
        emitter.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        emitter.emitterPosition = CGPoint(x: 10, y: 50)
        let spark = CAEmitterCell()
        spark.birthRate = 1
        spark.lifetime = 10
        spark.velocity = 20
        spark.color = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        spark.contents = CGImage(width: 4, height: 4, premultipliedRGBA: [UInt8](repeating: 255, count: 64))
        emitter.emitterCells = [spark]
        return emitter
    }

    static func context() -> CGContext {
        CGContext(
            data: nil, width: side, height: side, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
    }

    /// The bytes of the pixel at (x, y), y counting up from the bottom.
    static func pixel(_ ctx: CGContext, _ x: Int, _ y: Int) -> [Int] {
        let p = ctx.data!.assumingMemoryBound(to: UInt8.self) + (side - 1 - y) * ctx.bytesPerRow + x * 4
        return (0..<4).map { Int(p[$0]) }
    }

    static func isOrange(_ p: [Int]) -> Bool {
        abs(p[0] - 255) <= 1 && abs(p[1] - 128) <= 1 && p[2] == 0 && p[3] == 255
    }

    /// At local time 2.25 s the sparks born at 0, 1 and 2 s are 45, 25 and 5 points along (x 55, 35,
    /// 15): their 4×4 squares cover x 53..<57, 33..<37 and 13..<17 on rows 48..<52; the rest is empty.
    @Test func particlesAreWhereTheSimulationPutsThem() {
        let ctx = Self.context()
        LayerTreeRenderer.drawParticles(of: Self.sparks(), at: 2.25, in: ctx, alpha: 1)
        for x in [55, 35, 15] {
            #expect(Self.isOrange(Self.pixel(ctx, x, 50)), "spark at x \(x): \(Self.pixel(ctx, x, 50))")
            #expect(Self.isOrange(Self.pixel(ctx, x - 2, 48)) && Self.isOrange(Self.pixel(ctx, x + 1, 51)))
            #expect(Self.pixel(ctx, x - 3, 50) == [0, 0, 0, 0] && Self.pixel(ctx, x + 2, 50) == [0, 0, 0, 0])
        }
        let painted = (0..<Self.side).reduce(0) { n, y in
            n + (0..<Self.side).filter { Self.pixel(ctx, $0, y) != [0, 0, 0, 0] }.count
        }
        #expect(painted == 3 * 16)
    }

    /// `render(in:)` itself uses the layer's current local time: with `beginTime` 2 s ago the sparks are
    /// about 40, 20 and 0 points along (the few milliseconds the call takes move them less than a
    /// pixel).
    @Test func renderInDrawsThemAtTheLayersCurrentTime() {
        let emitter = Self.sparks()
        emitter.beginTime = CACurrentMediaTime() - 2
        let ctx = Self.context()
        emitter.render(in: ctx)
        for x in [51, 31, 11] {
            #expect(Self.isOrange(Self.pixel(ctx, x, 50)), "spark near x \(x - 1): \(Self.pixel(ctx, x, 50))")
        }
        #expect(Self.pixel(ctx, 41, 50) == [0, 0, 0, 0])
    }
}
