// Shape layers as display-list data: where the raster of a CAShapeLayer's path lands, when it is made
// again and when it is reused, its place in the paint order, and the cache's memory budget. The
// recording renderer imports images without a GPU, so these run anywhere.
import Foundation
import LaminaCore
import LaminaProtocol
import LaminaTesting
import Testing

@testable import LaminaServer

@Suite struct ShapeDisplayListTests {
    /// A shape layer `id` with `frame` in its superlayer (bounds at the origin), then `extra`.
    static func shape(_ id: LayerID, frame: CGRect, _ extra: [LayerProperty] = []) -> [LayerOperation] {
        [
            .createLayer(id, .shape), .set(id, .bounds(CGRect(origin: .zero, size: frame.size))),
            .set(id, .position(CGPoint(x: frame.midX, y: frame.midY))),
        ] + extra.map { .set(id, $0) }
    }

    static let rect = CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30))

    /// Builds a 100×80 display whose root is layer 1 (a plain layer) holding `children`.
    static func build(
        _ ops: [LayerOperation], children: [LayerID], cache: ShapeRasterCache?, root: [LayerProperty] = []
    ) throws -> DisplayList {
        let rootOps: [LayerOperation] =
            [
                .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 100, height: 80))),
                .set(1, .position(CGPoint(x: 50, y: 40))),
            ] + root.map { .set(1, $0) }
        let tree = try RenderTree().applying(
            rootOps + ops + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)], displayCount: 1)
        defer { cache?.endFrame() }
        return DisplayListBuilder.build(trees: [tree], display: 0, width: 100, height: 80, shapes: cache)
    }

    static func images(_ list: DisplayList) -> [ImageInstance] {
        list.instances(of: .plainImage, as: ImageInstance.self) + list.instances(of: .image, as: ImageInstance.self)
    }

    @Test func aFilledRectangleIsOneRasterOnWholeDevicePixels() throws {
        let renderer = RecordingRenderer()
        let cache = ShapeRasterCache(renderer: renderer)
        let list = try Self.build(
            Self.shape(2, frame: CGRect(x: 5, y: 7, width: 80, height: 60), [.path(Self.rect)]), children: [2],
            cache: cache)
        let drawn = Self.images(list)
        #expect(drawn.count == 1)
        // The path's box in the layer, moved by the layer's position: exactly 40×30 device pixels.
        #expect(drawn.first?.rect == SIMD4(15, 17, 55, 47))
        #expect(drawn.first?.uv == SIMD4(0, 0, 1, 1))
        #expect(renderer.images.count == 1)
        #expect(renderer.images.values.first.map { [$0.width, $0.height] } == [40, 30])
        #expect(list.batches.first { $0.kind == DrawKind.plainImage.id }?.texture?.filter == .nearest)
    }

    @Test func theRasterIsReusedWhileNothingChangesAndAcrossWholePixelMoves() throws {
        let renderer = RecordingRenderer()
        let cache = ShapeRasterCache(renderer: renderer)
        let ops = Self.shape(2, frame: CGRect(x: 0, y: 0, width: 80, height: 60), [.path(Self.rect)])
        _ = try Self.build(ops, children: [2], cache: cache)
        _ = try Self.build(ops, children: [2], cache: cache)
        #expect(cache.rasterizations == 1)
        _ = try Self.build(ops + [.set(2, .position(CGPoint(x: 43, y: 35)))], children: [2], cache: cache)
        #expect(cache.rasterizations == 1)
        // Half a pixel moves the shape within its pixels: a new raster.
        _ = try Self.build(ops + [.set(2, .position(CGPoint(x: 43.5, y: 35)))], children: [2], cache: cache)
        #expect(cache.rasterizations == 2)
        _ = try Self.build(
            ops + [.set(2, .fillColor(nil)), .set(2, .strokeColor(.black))], children: [2], cache: cache)
        #expect(cache.rasterizations == 3)
    }

    @Test func nothingIsDrawnWithoutAPathOrWithNothingToPaint() throws {
        let cache = ShapeRasterCache(renderer: RecordingRenderer())
        for extra: [LayerProperty] in [[], [.path(Self.rect), .fillColor(nil)], [.path(CGMutablePath())]] {
            let list = try Self.build(
                Self.shape(2, frame: CGRect(x: 0, y: 0, width: 80, height: 60), extra), children: [2], cache: cache)
            #expect(Self.images(list).isEmpty)
        }
        #expect(cache.rasterizations == 0)
    }

    /// "The shape as a whole is composited between the layer's contents and its first sublayer"
    /// (CAShapeLayer documentation): background, then the shape, then the sublayer, then the border.
    @Test func theShapeLiesAboveTheBackgroundAndBelowSublayersAndTheBorder() throws {
        let cache = ShapeRasterCache(renderer: RecordingRenderer())
        let ops =
            Self.shape(
                2, frame: CGRect(x: 0, y: 0, width: 80, height: 60),
                [.path(Self.rect), .backgroundColor(.black), .borderWidth(2)])
            + [
                .createLayer(3), .set(3, .bounds(CGRect(x: 0, y: 0, width: 10, height: 10))),
                .set(3, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))), .setSublayers(2, [3]),
            ]
        let list = try Self.build(ops, children: [2], cache: cache)
        let order = list.batches.map { DrawKind.all[$0.kind].name }
        let shape = try #require(order.firstIndex(of: "plainImage"))
        #expect(order.prefix(shape).contains("opaqueFill"))
        #expect(order.suffix(from: shape + 1).contains("opaqueFill"))
    }

    @Test func masksToBoundsClipsTheShapeToItsBounds() throws {
        let cache = ShapeRasterCache(renderer: RecordingRenderer())
        let hanging = CGPath(rect: CGRect(x: 60, y: 40, width: 30, height: 30))
        let free = try Self.build(
            Self.shape(2, frame: CGRect(x: 0, y: 0, width: 80, height: 60), [.path(hanging)]), children: [2],
            cache: cache)
        #expect(Self.images(free).first?.rect == SIMD4(60, 40, 90, 70))
        let masked = try Self.build(
            Self.shape(2, frame: CGRect(x: 0, y: 0, width: 80, height: 60), [.path(hanging), .masksToBounds(true)]),
            children: [2], cache: cache)
        #expect(Self.images(masked).first?.rect == SIMD4(60, 40, 80, 60))
    }

    @Test func theCacheKeepsItsBudgetAndNeverDropsWhatAFrameUses() throws {
        let renderer = RecordingRenderer()
        // Room for one 40×30 raster (4,800 bytes) between frames.
        let cache = ShapeRasterCache(renderer: renderer, budgetBytes: 5_000)
        func frame(_ path: CGPath) throws {
            _ = try Self.build(
                Self.shape(2, frame: CGRect(x: 0, y: 0, width: 80, height: 60), [.path(path)]), children: [2],
                cache: cache)
        }
        try frame(Self.rect)
        try frame(CGPath(rect: CGRect(x: 11, y: 10, width: 40, height: 30)))
        #expect(cache.count == 1)
        #expect(renderer.images.count == 1)
        #expect(cache.totalBytes == 4_800)
        // A frame that needs more than the budget still draws everything it needs.
        let two =
            Self.shape(2, frame: CGRect(x: 0, y: 0, width: 80, height: 60), [.path(Self.rect)])
            + Self.shape(
                3, frame: CGRect(x: 0, y: 0, width: 80, height: 60),
                [.path(Self.rect), .lineWidth(2), .strokeColor(.black)])
        let list = try Self.build(two, children: [2, 3], cache: cache)
        #expect(Self.images(list).count == 2)
        #expect(renderer.images.count <= 2)
    }

    @Test func aFramesBudgetBoundsWhatOneFrameRasterizes() throws {
        let cache = ShapeRasterCache(renderer: RecordingRenderer(), budgetBytes: 0, frameBudgetBytes: 5_000)
        let two =
            Self.shape(2, frame: CGRect(x: 0, y: 0, width: 80, height: 60), [.path(Self.rect)])
            + Self.shape(
                3, frame: CGRect(x: 0, y: 0, width: 80, height: 60),
                [.path(Self.rect), .fillColor(.clear), .strokeColor(.black)])
        let list = try Self.build(two, children: [2, 3], cache: cache)
        #expect(Self.images(list).count == 1)
    }
}
