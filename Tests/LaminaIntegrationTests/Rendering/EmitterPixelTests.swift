import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// CAEmitterLayer's particles drawn through the Vulkan renderer at chosen media times: E18's sparks
/// at the distance velocity × age predicts, alpha falling by `alphaSpeed`, the cell colour tinting the
/// contents, additive brightness where particles overlap, the same picture for the same time and seed,
/// and another for another seed. Each particle is the cell's 4×4 white image centred on it. Sources:
/// Apple's `CAEmitterCell.h` ("velocity: the mean initial velocity of the emitted object";
/// "alphaSpeed: the speed ... at which the alpha component changes"; "color: a color that tints the
/// contents") and `CAEmitterLayer.h` (`kCAEmitterLayerAdditive`: "particles are rendered ... with
/// their source colors added into the destination"), spec §3.8 and E18.
@Suite(.serialized) struct EmitterPixelTests: PixelTestSuite {
    /// The client's id of the 4×4 white sprite.
    static let sprite: UInt64 = 7

    /// Draws an emitter layer 2 filling a 100×100 display cleared to opaque black, with `cells`,
    /// `extra` rows, at media time `time`; asserts no validation message.
    static func render(
        _ cells: [EmitterCellState], _ extra: [LayerProperty] = [], time: Double,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bitmap {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let white = [UInt8](repeating: 255, count: 4 * 4 * 4)
            let id = try renderer.importImage(
                ImagePixels(width: 4, height: 4, stride: 16, source: .host(white)), filtering: .mipmapped)
            var tree = RenderTree()
            tree.liveImages = [sprite]
            tree = try tree.applying(
                [
                    .createLayer(2, .emitter), .set(2, .bounds(CGRect(x: 0, y: 0, width: 100, height: 100))),
                    .set(2, .position(CGPoint(x: 50, y: 50))), .setEmitterCells(2, cells),
                    .setRoot(display: 0, layer: 2),
                ] + extra.map { .set(2, $0) }, displayCount: 1)
            tree.contentsImages = [
                sprite: ContentsImage(image: id, width: 4, height: 4, mipmapped: try renderer.mipLevels(of: id) > 1)
            ]
            let list = DisplayListBuilder.build(
                trees: [tree], display: 0, width: 100, height: 100, clearColor: SIMD4(0, 0, 0, 1), time: time)
            let target = try renderer.makeTarget(width: 100, height: 100)
            try renderer.render(list, into: target)
            let bitmap = try renderer.readPixels(target)
            try renderer.releaseImage(id)
            #expect(validation.messages.isEmpty, "\(validation.messages)", sourceLocation: sourceLocation)
            return bitmap
        }
    }

    /// A spark cell: one birth a second, living 10 s, `velocity` points a second along +x, no ranges.
    static func spark(velocity: Double = 20) -> EmitterCellState {
        var cell = EmitterCellState()
        cell.birthRate = 1
        cell.lifetime = 10
        cell.velocity = velocity
        cell.emissionLongitude = 0
        cell.contents = sprite
        return cell
    }

    /// E18's sparks from (10, 50) at 20 points a second: at t = 2 s the particles born at 0, 1 and 2 s
    /// are 40, 20 and 0 points along, so their 4×4 sprites cover x 48..<52, 28..<32 and 8..<12 on rows
    /// 48..<52; between them the display stays black.
    @Test func sparksAreWhereVelocityTimesAgePutsThem() throws {
        let bitmap = try Self.render([Self.spark()], [.emitterPosition(CGPoint(x: 10, y: 50))], time: 2)
        for x in [8, 11, 28, 31, 48, 51] {
            for y in [48, 51] {
                Self.expectClose(Self.pixel(bitmap, x, y), [255, 255, 255, 255], "spark at (\(x), \(y))")
            }
        }
        for (x, y) in [(7, 50), (12, 50), (20, 50), (40, 50), (52, 50), (60, 50), (49, 47), (49, 52)] {
            Self.expectClose(Self.pixel(bitmap, x, y), [0, 0, 0, 255], "nothing at (\(x), \(y))")
        }
        // A quarter second later each spark moved 5 points: the oldest covers 53..<57.
        let later = try Self.render([Self.spark()], [.emitterPosition(CGPoint(x: 10, y: 50))], time: 2.25)
        Self.expectClose(Self.pixel(later, 53, 50), [255, 255, 255, 255], "the oldest spark at 2.25 s")
        Self.expectClose(Self.pixel(later, 49, 50), [0, 0, 0, 255], "where it was at 2 s")
    }

    /// `preservesDepth` (Apple's `CAEmitterLayer.h`: "Defines whether or not the layer flattens the
    /// particles into its plane"). The emitter fills a 100×100 root whose `sublayerTransform` has
    /// m34 = −1/200; a still spark is born at (70, 50) at `emitterZPosition` 100. Flattened (the
    /// default) it is drawn at (70, 50) at its size. Keeping its depth, it is 20 right of the root's
    /// centre at z 100, where w = 1 − 100/200 = 0.5: it lands at 50 + 20/0.5 = 90, twice as large (8×8,
    /// x 86..<94, y 46..<54).
    @Test func preservesDepthProjectsParticlesAtTheirZ() throws {
        func render(preservesDepth: Bool) throws -> Bitmap {
            try SharedVulkanDevice.withRenderer { renderer, validation in
                let white = [UInt8](repeating: 255, count: 4 * 4 * 4)
                let id = try renderer.importImage(
                    ImagePixels(width: 4, height: 4, stride: 16, source: .host(white)), filtering: .mipmapped)
                var perspective = CATransform3DIdentity
                perspective.m34 = -1.0 / 200
                var tree = RenderTree()
                tree.liveImages = [Self.sprite]
                tree = try tree.applying(
                    [
                        .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 100, height: 100))),
                        .set(1, .position(CGPoint(x: 50, y: 50))), .set(1, .sublayerTransform(perspective)),
                        .createLayer(2, .emitter), .set(2, .bounds(CGRect(x: 0, y: 0, width: 100, height: 100))),
                        .set(2, .position(CGPoint(x: 50, y: 50))), .setEmitterCells(2, [Self.spark(velocity: 0)]),
                        .set(2, .emitterPosition(CGPoint(x: 70, y: 50))), .set(2, .emitterZPosition(100)),
                        .set(2, .emitterPreservesDepth(preservesDepth)), .setSublayers(1, [2]),
                        .setRoot(display: 0, layer: 1),
                    ], displayCount: 1)
                tree.contentsImages = [
                    Self.sprite: ContentsImage(
                        image: id, width: 4, height: 4, mipmapped: try renderer.mipLevels(of: id) > 1)
                ]
                let list = DisplayListBuilder.build(
                    trees: [tree], display: 0, width: 100, height: 100, clearColor: SIMD4(0, 0, 0, 1), time: 0.5)
                let target = try renderer.makeTarget(width: 100, height: 100)
                try renderer.render(list, into: target)
                let bitmap = try renderer.readPixels(target)
                try renderer.releaseImage(id)
                #expect(validation.messages.isEmpty, "\(validation.messages)")
                return bitmap
            }
        }
        let flat = try render(preservesDepth: false)
        Self.expectClose(Self.pixel(flat, 69, 49), [255, 255, 255, 255], "flattened: at (70, 50)")
        Self.expectClose(Self.pixel(flat, 89, 49), [0, 0, 0, 255], "flattened: nothing at (90, 50)")
        let deep = try render(preservesDepth: true)
        for (x, y) in [(87, 47), (92, 52), (89, 50)] {
            Self.expectClose(Self.pixel(deep, x, y), [255, 255, 255, 255], "kept depth: at (\(x), \(y))")
        }
        for (x, y) in [(69, 49), (84, 50), (95, 50), (90, 44), (90, 55)] {
            Self.expectClose(Self.pixel(deep, x, y), [0, 0, 0, 255], "kept depth: nothing at (\(x), \(y))")
        }
    }

    /// alphaSpeed −0.25: at t = 2 s the spark born at 0 has alpha 0.5, the one born at 1 s 0.75, the
    /// newest 1: white over black at 128, 191 and 255 (±2 for 8-bit steps).
    @Test func alphaFallsWithAlphaSpeed() throws {
        var cell = Self.spark()
        cell.colorSpeed = SIMD4(0, 0, 0, -0.25)
        let bitmap = try Self.render([cell], [.emitterPosition(CGPoint(x: 10, y: 50))], time: 2)
        Self.expectClose(Self.pixel(bitmap, 50, 50), [128, 128, 128, 255], "alpha 0.5")
        Self.expectClose(Self.pixel(bitmap, 30, 50), [191, 191, 191, 255], "alpha 0.75")
        Self.expectClose(Self.pixel(bitmap, 10, 50), [255, 255, 255, 255], "alpha 1")
    }

    /// The cell's colour multiplies the white sprite: orange (1, 0.5, 0).
    @Test func theCellColourTintsTheContents() throws {
        var cell = Self.spark()
        cell.color = RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        let bitmap = try Self.render([cell], [.emitterPosition(CGPoint(x: 10, y: 50))], time: 1)
        Self.expectClose(Self.pixel(bitmap, 30, 50), [255, 128, 0, 255], "tinted spark")
    }

    /// Two cells put a particle on the same spot, each grey 0.25 at alpha 0.5: premultiplied 0.125, 32
    /// of 255. Over black, additive sums the two, 32 + 32 = 64; source-over gives 32 + 32 × (1 − 0.5) = 48.
    @Test func additiveAddsWhereParticlesOverlap() throws {
        var cell = Self.spark()
        cell.color = RGBAColor(red: 0.25, green: 0.25, blue: 0.25, alpha: 0.5)
        let at = [LayerProperty.emitterPosition(CGPoint(x: 10, y: 50))]
        let over = try Self.render([cell, cell], at, time: 1)
        let added = try Self.render([cell, cell], at + [.renderMode("additive")], time: 1)
        // One particle alone: 0.25 × 0.5 = 0.125 → 32.
        let one = Int((0.125 * 255).rounded())
        Self.expectClose(Self.pixel(over, 30, 50), [48, 48, 48, 255], "source-over of two")
        Self.expectClose(Self.pixel(added, 30, 50), [2 * one, 2 * one, 2 * one, 255], "sum of two")
        // Saturation: five white particles at alpha 0.5 add to white, where "over" stays below.
        var bright = Self.spark()
        bright.color = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.5)
        let five = try Self.render(Array(repeating: bright, count: 5), at + [.renderMode("additive")], time: 1)
        Self.expectClose(Self.pixel(five, 30, 50), [255, 255, 255, 255], "saturated sum")
    }

    /// The picture is a function of the seed and the time: two captures at the same time are identical
    /// byte for byte, another seed moves the particles.
    @Test func sameTimeAndSeedGiveTheSamePicture() throws {
        var cell = Self.spark(velocity: 15)
        cell.birthRate = 20
        cell.lifetime = 3
        cell.velocityRange = 10
        cell.emissionRange = 2 * .pi
        cell.scaleRange = 0.5
        cell.spinRange = 3
        cell.colorRange = SIMD4(0.5, 0.5, 0.5, 0)
        let rows: [LayerProperty] = [.emitterPosition(CGPoint(x: 50, y: 50)), .emitterSeed(11)]
        let a = try Self.render([cell], rows, time: 2.5)
        let b = try Self.render([cell], rows, time: 2.5)
        let c = try Self.render([cell], [.emitterPosition(CGPoint(x: 50, y: 50)), .emitterSeed(12)], time: 2.5)
        #expect(a.pixels == b.pixels)
        #expect(a.pixels != c.pixels)
        #expect(a.pixels.contains { $0 != 0 && $0 != 255 }, "something was drawn")
    }

    /// A cell without contents draws nothing, as on Apple platforms.
    @Test func aCellWithoutContentsDrawsNothing() throws {
        var cell = Self.spark()
        cell.contents = 0
        let bitmap = try Self.render([cell], [.emitterPosition(CGPoint(x: 10, y: 50))], time: 2)
        #expect(stride(from: 0, to: bitmap.pixels.count, by: 4).allSatisfy { bitmap.pixels[$0] == 0 })
    }
}
