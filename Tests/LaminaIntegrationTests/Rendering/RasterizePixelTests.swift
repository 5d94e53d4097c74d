import Foundation
import Lamina
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// `shouldRasterize` and kept offscreen passes (docs/rendering.md, "Rasterized layers", "Kept
/// passes"), drawn by the Vulkan renderer in-process with validation on, over several frames on one
/// renderer: the counters say which passes were drawn and which kept, and the pixels are the ones the
/// geometry predicts.
///
/// Apple, `CALayer.shouldRasterize`: "When the value of this property is true, the layer is rendered as
/// a bitmap in its local coordinate space and then composited to the destination with any other
/// content." `rasterizationScale`: "The scale at which to rasterize content, relative to the coordinate
/// space of the layer", default 1.0.
@Suite(.serialized) struct RasterizePixelTests {
    typealias Pixel = GeometryPixelTests.Pixel

    /// One drawn frame: its pixels and what the renderer did with its passes.
    struct Frame {
        var bitmap: Bitmap
        var list: DisplayList
        var counters: RenderCounters
    }

    /// Draws one frame per entry of `frames` on one renderer and target (60×40 unless given, cleared
    /// to opaque black), each after applying its operations to the tree so far; the first entry holds
    /// the whole scene under root layer 1. `budget` sets the renderer's kept-pass budget.
    static func draw(
        _ frames: [[LayerOperation]], width: Int = 60, height: Int = 40, budget: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Frame] {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            if let budget { renderer.keptPassBudgetBytes = budget }
            let target = try renderer.makeTarget(width: width, height: height)
            var tree = RenderTree()
            var drawn: [Frame] = []
            for ops in frames {
                tree = try tree.applying(ops, displayCount: 1)
                let list = DisplayListBuilder.build(
                    trees: [tree], display: 0, width: width, height: height, clearColor: SIMD4(0, 0, 0, 1))
                try renderer.render(list, into: target)
                drawn.append(
                    Frame(bitmap: try renderer.readPixels(target), list: list, counters: renderer.lastRenderCounters))
            }
            #expect(validation.messages.isEmpty, "validation: \(validation.messages)", sourceLocation: sourceLocation)
            return drawn
        }
    }

    /// A root (layer 1, no background) over the whole `width`×`height` display holding `children`.
    static func scene(_ ops: [LayerOperation], children: [LayerID], width: Int = 60, height: Int = 40)
        -> [LayerOperation]
    {
        RendererTests.layer(1, frame: CGRect(x: 0, y: 0, width: width, height: height), color: nil) + ops
            + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)]
    }

    static func expect(
        _ frame: Frame, _ x: Int, _ y: Int, _ expected: Pixel, tolerance: Int = 1, _ note: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        GeometryPixelTests.expectPixel(
            frame.bitmap, x, y, expected, tolerance: tolerance, note, sourceLocation: sourceLocation)
    }

    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let green = RGBAColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// Layer 2: red, 20×20 at (10, 10), rasterized, holding layer 3: blue, 10×10 at its top left.
    static let rasterized: [LayerOperation] =
        RendererTests.layer(2, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: red, [.shouldRasterize(true)])
        + RendererTests.layer(3, frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: blue)
        + [.setSublayers(2, [3])]

    /// The second frame shows the raster kept from the first; a sublayer's colour draws it again; moving
    /// the rasterized layer shows the kept raster at the new place.
    @Test func rasterIsKeptUntilItsSubtreeChanges() throws {
        let frames = try Self.draw([
            Self.scene(Self.rasterized, children: [2]),
            [],
            [.set(3, .backgroundColor(Self.green))],
            [.set(2, .position(CGPoint(x: 35, y: 25)))],
        ])
        // Frame 1: the raster is drawn (a miss); the layer and its sublayer show as drawn directly.
        #expect(frames[0].counters == RenderCounters(passesDrawn: 1, passesKept: 0, rasterHits: 0, rasterMisses: 1))
        #expect(frames[0].list.passes.count == 1 && frames[0].list.passes[0].isRaster)
        Self.expect(frames[0], 12, 12, (0, 0, 255, 255), tolerance: 0, "sublayer")
        Self.expect(frames[0], 25, 25, (255, 0, 0, 255), tolerance: 0, "layer")
        Self.expect(frames[0], 9, 20, (0, 0, 0, 255), tolerance: 0, "left of the layer")
        Self.expect(frames[0], 30, 20, (0, 0, 0, 255), tolerance: 0, "right of the layer")
        // Frame 2: nothing changed: a hit, the same bytes.
        #expect(frames[1].counters == RenderCounters(passesDrawn: 0, passesKept: 1, rasterHits: 1, rasterMisses: 0))
        #expect(frames[1].bitmap.pixels == frames[0].bitmap.pixels)
        // Frame 3: the sublayer turned green: a miss, and the new colour shows.
        #expect(frames[2].counters == RenderCounters(passesDrawn: 1, passesKept: 0, rasterHits: 0, rasterMisses: 1))
        Self.expect(frames[2], 12, 12, (0, 255, 0, 255), tolerance: 0, "sublayer, green")
        // Frame 4: the layer moved by (15, 5) whole pixels: a hit, drawn at the new place.
        #expect(frames[3].counters == RenderCounters(passesDrawn: 0, passesKept: 1, rasterHits: 1, rasterMisses: 0))
        Self.expect(frames[3], 27, 17, (0, 255, 0, 255), tolerance: 0, "sublayer, moved")
        Self.expect(frames[3], 40, 30, (255, 0, 0, 255), tolerance: 0, "layer, moved")
        Self.expect(frames[3], 44, 34, (255, 0, 0, 255), tolerance: 0, "layer's last pixel, moved")
        Self.expect(frames[3], 12, 12, (0, 0, 0, 255), tolerance: 0, "where the sublayer was")
        Self.expect(frames[3], 45, 20, (0, 0, 0, 255), tolerance: 0, "right of the moved layer")
    }

    /// A rasterized layer whose bounds do not start at 0: its sublayers are placed in its bounds'
    /// coordinates, as when it is drawn directly.
    @Test func boundsOriginPlacesTheSubtreeAsDrawnDirectly() throws {
        let ops =
            [
                .createLayer(2), .set(2, .bounds(CGRect(x: 5, y: -5, width: 20, height: 20))),
                .set(2, .position(CGPoint(x: 20, y: 20))), .set(2, .backgroundColor(Self.red)),
                .set(2, .shouldRasterize(true)),
            ]
            + RendererTests.layer(3, frame: CGRect(x: 5, y: -5, width: 10, height: 10), color: Self.blue)
            + [.setSublayers(2, [3])]
        let frame = try Self.draw([Self.scene(ops, children: [2])])[0]
        #expect(frame.counters.rasterMisses == 1)
        // The frame is (10, 10)...(30, 30); the sublayer covers its top-left quarter.
        Self.expect(frame, 10, 10, (0, 0, 255, 255), tolerance: 0, "sublayer's first pixel")
        Self.expect(frame, 19, 19, (0, 0, 255, 255), tolerance: 0, "sublayer's last pixel")
        Self.expect(frame, 20, 12, (255, 0, 0, 255), tolerance: 0, "right of the sublayer")
        Self.expect(frame, 29, 29, (255, 0, 0, 255), tolerance: 0, "layer's last pixel")
        Self.expect(frame, 9, 9, (0, 0, 0, 255), tolerance: 0, "outside")
        Self.expect(frame, 30, 30, (0, 0, 0, 255), tolerance: 0, "outside")
    }

    /// The value of the pixel whose centre is at layer x `x` + 0.5 of a 1-point white line over
    /// black at layer x `line`...`line + 1`, rasterized at `scale` and magnified back with bilinear
    /// filtering: texel t covers layer x t / scale...(t + 1) / scale, and holds the line's coverage of it.
    static func softLine(_ x: Int, line: Double, scale: Double) -> Int {
        func texel(_ t: Int) -> Double {
            GeometryPixelTests.overlap(Double(t) / scale, Double(t + 1) / scale, line, line + 1) * scale
        }
        let u = (Double(x) + 0.5) * scale - 0.5
        let t0 = Int(u.rounded(.down))
        let f = u - Double(t0)
        return Int((255 * ((1 - f) * texel(t0) + f * texel(t0 + 1))).rounded())
    }

    /// `rasterizationScale` 0.5: a 1-point line is drawn into half as many texels and magnified back
    /// with bilinear filtering, so it spreads over four pixels with the values the filter predicts;
    /// at scale 1 it stays one pixel wide.
    @Test(arguments: [0.5, 1.0])
    func rasterizationScaleSetsTheRasterResolution(scale: Double) throws {
        let ops =
            RendererTests.layer(
                2, frame: CGRect(x: 10, y: 10, width: 40, height: 20),
                color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 1),
                [.shouldRasterize(true), .rasterizationScale(CGFloat(scale))])
            + RendererTests.layer(3, frame: CGRect(x: 20, y: 0, width: 1, height: 20), color: Self.white)
            + [.setSublayers(2, [3])]
        let frame = try Self.draw([Self.scene(ops, children: [2])])[0]
        #expect(frame.counters.rasterMisses == 1)
        for x in 14...26 {
            let v = Self.softLine(x, line: 20, scale: scale)
            Self.expect(frame, 10 + x, 20, (v, v, v, 255), tolerance: 2, "layer x \(x)")
        }
        if scale == 0.5 {
            // The spread the geometry predicts: 32, 96, 96, 32 around the line.
            #expect([19, 20, 21, 22].map { Self.softLine($0, line: 20, scale: 0.5) } == [32, 96, 96, 32])
        }
    }

    /// Two rasterized layers; the second is hidden for a frame. With the default budget its raster is
    /// kept and shown again without drawing; with a budget of 0 bytes the image the hidden frame did
    /// not take is evicted, and showing the layer again draws it (a miss).
    @Test(arguments: [(nil, 2), (0, 1)] as [(Int?, Int)])
    func evictionUnderTheBudget(budget: Int?, hitsWhenShownAgain: Int) throws {
        let ops =
            Self.rasterized
            + RendererTests.layer(
                4, frame: CGRect(x: 35, y: 10, width: 20, height: 20), color: Self.green, [.shouldRasterize(true)])
        let frames = try Self.draw(
            [Self.scene(ops, children: [2, 4]), [.set(4, .isHidden(true))], [.set(4, .isHidden(false))]],
            budget: budget)
        #expect(frames[0].counters.rasterMisses == 2)
        #expect(frames[1].counters == RenderCounters(passesDrawn: 0, passesKept: 1, rasterHits: 1, rasterMisses: 0))
        #expect(frames[2].counters.rasterHits == hitsWhenShownAgain)
        #expect(frames[2].counters.rasterMisses == 2 - hitsWhenShownAgain)
        Self.expect(frames[2], 45, 20, (0, 255, 0, 255), tolerance: 0, "the layer shown again")
        #expect(frames[2].bitmap.pixels == frames[0].bitmap.pixels)
    }

    /// A faded group whose children overlap takes a pass (group opacity); a frame where only another
    /// layer changes keeps that pass (not drawn again) and gives the group the same bytes.
    @Test func anUnchangedGroupPassIsKept() throws {
        let group =
            RendererTests.layer(2, frame: CGRect(x: 5, y: 5, width: 30, height: 30), color: nil, [.opacity(0.5)])
            + RendererTests.layer(3, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: Self.red)
            + RendererTests.layer(4, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: Self.blue)
            + [.setSublayers(2, [3, 4])]
            + RendererTests.layer(5, frame: CGRect(x: 45, y: 5, width: 10, height: 10), color: Self.white)
        let frames = try Self.draw([Self.scene(group, children: [2, 5]), [.set(5, .backgroundColor(Self.green))]])
        #expect(frames[0].list.passes.count == 1)
        #expect(frames[0].counters == RenderCounters(passesDrawn: 1, passesKept: 0, rasterHits: 0, rasterMisses: 0))
        #expect(frames[1].counters == RenderCounters(passesDrawn: 0, passesKept: 1, rasterHits: 0, rasterMisses: 0))
        // The group: blue over red in the overlap, faded as one (128 of blue over black, no red).
        Self.expect(frames[1], 20, 20, (0, 0, 128, 255), "overlap, faded as one")
        Self.expect(frames[1], 8, 8, (128, 0, 0, 255), "red alone")
        for y in 0..<40 {
            for x in 0..<40 {
                let a = frames[0].bitmap.rgba(x: x, y: y), b = frames[1].bitmap.rgba(x: x, y: y)
                if a != b { Issue.record("group pixel (\(x), \(y)) changed: \(a) → \(b)") }
            }
        }
        Self.expect(frames[1], 50, 10, (0, 255, 0, 255), tolerance: 0, "the other layer changed")
    }
}
