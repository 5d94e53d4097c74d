import Foundation
import LaminaCore
import LaminaProtocol
@testable import LaminaServer
import LaminaVulkan
import Testing

/// A shared surface's new frame where what shows it is drawn through offscreen passes: a shadow cast
/// by the surface's alpha, and a rasterized subtree holding the surface (docs/surfaces.md, "Damage").
/// The display list of the second frame is the first one's (same image, same place), so only the
/// surface's revision says that it changed: the frame worker's damage (`FrameWorker.damage(_:sampling:)`)
/// must reach the shadow's blur, and no pass showing the surface may be kept from the first frame.
/// Each frame is drawn by the Vulkan renderer with validation on, the second one only inside its damage
/// into the target holding the first, and checked against the pixels the geometry gives and against a
/// full redraw.
///
/// Apple, `CALayer.shadowPath`: "If you specify nil for this property, the layer uses its standard
/// shadow shape", the alpha of its content (spec App. A); `shouldRasterize`: "the layer is rendered as
/// a bitmap in its local coordinate space".
@Suite(.serialized) struct SurfaceShadowFrameTests {
    static let width = 140
    static let height = 60
    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    /// Where the surface is shown: 32 × 32 at (10, 14), one device pixel a surface pixel.
    static let shown = CGRect(x: 10, y: 14, width: 32, height: 32)
    /// The shadow: white, opacity 1, σ = radius 2, moved 70 to the right.
    static let offset: CGFloat = 70
    static let sigma = 2.0

    /// A 32 × 32 BGRA surface in a sealed memfd (rows of 128 bytes: sampled in place on lavapipe) and the
    /// server's read-only mapping of it.
    final class Surface {
        let created: SurfaceMemory
        let pixels: SurfacePixels

        init(name: String) throws {
            created = try SurfaceMemory.create(name: name, size: 128 * 32)
            let received = try SurfaceMemory.map(OwnedFD(dup(created.fileDescriptor)), minimumSize: 128 * 32)
            pixels = SurfacePixels(memory: received, width: 32, height: 32, stride: 128)
        }

        /// Writes opaque red into `columns` and transparent black elsewhere (premultiplied BGRA).
        func paint(columns: Range<Int>) {
            let bytes = created.mutableBytes
            for y in 0..<32 {
                for x in 0..<32 {
                    let on: UInt8 = columns.contains(x) ? 255 : 0
                    let at = y * 128 + x * 4
                    bytes[at] = 0
                    bytes[at + 1] = 0
                    bytes[at + 2] = on
                    bytes[at + 3] = on
                }
            }
        }
    }

    /// The display rectangle of the surface's opaque `columns`, moved by `dx`.
    static func opaque(_ columns: Range<Int>, dx: CGFloat = 0) -> CGRect {
        CGRect(
            x: shown.minX + CGFloat(columns.lowerBound) + dx, y: shown.minY, width: CGFloat(columns.count),
            height: shown.height)
    }

    /// Layer 2 showing image 7 at `shown`, without a background, with the white shadow: its alpha is not
    /// its bounds', so the shadow is the blurred alpha of its drawing (`drawPassShadow`).
    static let shadowed: [LayerOperation] = RendererTests.layer(
        2, frame: shown, color: nil,
        [
            .shadowOpacity(1), .shadowRadius(CGFloat(sigma)), .shadowColor(white),
            .shadowOffset(CGSize(width: offset, height: 0)),
        ])

    /// A frame of `tree` over opaque black.
    static func list(_ tree: RenderTree) -> DisplayList {
        DisplayListBuilder.build(trees: [tree], display: 0, width: width, height: height, clearColor: SIMD4(0, 0, 0, 1))
    }

    /// Two frames of the same display list: the first drawn whole into a target, then `change` (which
    /// rewrites a surface's pixels, or the tree, and names the surfaces whose revision moved), then the
    /// second drawn only inside its damage (the damage tracker's and the frame worker's for the named
    /// surfaces) into the same target. Returns both frames, the second drawn whole, its damage and the
    /// renderer's counters for the partial frame.
    static func twoFrames(
        _ ops: [LayerOperation], children: [LayerID], contents: [LayerID: UInt64],
        change: (inout RenderTree, [UInt64: ImportedSurface], [UInt64: Surface]) throws -> Set<RenderImageID>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (before: Bitmap, after: Bitmap, redrawn: Bitmap, damage: [DamageRect], counters: RenderCounters) {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            var surfaces: [UInt64: Surface] = [:]
            var imported: [UInt64: ImportedSurface] = [:]
            var tree = try RenderTree().applying(
                RendererTests.layer(1, frame: CGRect(x: 0, y: 0, width: width, height: height), color: nil) + ops
                    + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)], displayCount: 1)
            for id: UInt64 in [7, 8] {
                let surface = try Surface(name: "lamina-test-shadow-\(id)-\(getpid())")
                surface.paint(columns: id == 7 ? 0..<16 : 16..<32)
                let done = try renderer.importSurface(surface.pixels)
                surfaces[id] = surface
                imported[id] = done
                tree.contentsImages[id] = ContentsImage(image: done.image, width: 32, height: 32)
            }
            for (layer, image) in contents { tree.layers[layer]!.state.contents = image }
            let partial = try renderer.makeTarget(width: width, height: height)
            let full = try renderer.makeTarget(width: width, height: height)
            var tracker = DamageTracker()
            var first = list(tree)
            first.damage = tracker.damage(of: first)
            #expect(first.damage == nil, "the first frame is drawn whole", sourceLocation: sourceLocation)
            try renderer.render(first, into: partial)
            let before = try renderer.readPixels(partial)
            let changed = try change(&tree, imported, surfaces)
            for (_, surface) in imported where !surface.isZeroCopy && changed.contains(surface.image) {
                _ = try renderer.refreshSurface(surface.image)
            }
            var second = list(tree)
            second.damage = tracker.damage(of: second)
            FrameWorker.damage(&second, sampling: changed)
            let damage = try #require(
                second.damage, "the second frame is drawn in part", sourceLocation: sourceLocation)
            try renderer.render(second, into: partial)
            let counters = renderer.lastRenderCounters
            let after = try renderer.readPixels(partial)
            var whole = second
            whole.damage = nil
            try renderer.render(whole, into: full)
            let redrawn = try renderer.readPixels(full)
            for surface in imported.values { try renderer.releaseImage(surface.image) }
            try renderer.waitForAllFrames()
            #expect(validation.messages.isEmpty, "validation: \(validation.messages)", sourceLocation: sourceLocation)
            return (before, after, redrawn, damage, counters)
        }
    }

    /// Expects every pixel of `bitmap` to the right of the layer (x ≥ 60) to be the white shadow of
    /// `rect` blurred with σ over black, within 2/255 (`PassShadowPixelTests.expected`).
    static func expectShadow(
        _ bitmap: Bitmap, of rect: CGRect, _ note: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var worst = (difference: 0, x: 0, y: 0)
        for y in 0..<height {
            for x in 60..<width {
                let want = PassShadowPixelTests.expected(x, y, rect: rect, hole: nil, sigma: sigma)
                let p = bitmap.rgba(x: x, y: y)
                for channel in [p.0, p.1, p.2] where abs(Int(channel) - want) > worst.difference {
                    worst = (abs(Int(channel) - want), x, y)
                }
            }
        }
        #expect(worst.difference <= 2, "\(note): largest error \(worst)", sourceLocation: sourceLocation)
    }

    /// Expects the pixels of the layer's place to show red in `columns` of the surface and black elsewhere.
    static func expectLayer(
        _ bitmap: Bitmap, red columns: Range<Int>, _ note: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for x in stride(from: 1, to: 32, by: 4) {
            let p = bitmap.rgba(x: Int(shown.minX) + x, y: Int(shown.midY))
            let want: UInt8 = columns.contains(x) ? 255 : 0
            #expect(
                p.0 == want && p.1 == 0 && p.2 == 0 && p.3 == 255, "\(note): surface column \(x): \(p)",
                sourceLocation: sourceLocation)
        }
    }

    /// Expects the frame drawn inside the damage to be the full redraw byte for byte, and every pixel
    /// that differs between the two frames to lie inside the damage.
    static func expectDamageCoversTheChange(
        _ frames: (before: Bitmap, after: Bitmap, redrawn: Bitmap, damage: [DamageRect], counters: RenderCounters),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            frames.after.pixels == frames.redrawn.pixels, "partial frame = full redraw", sourceLocation: sourceLocation)
        var outside: [(Int, Int)] = []
        var changed = 0
        for y in 0..<height {
            for x in 0..<width where frames.before.rgba(x: x, y: y) != frames.redrawn.rgba(x: x, y: y) {
                changed += 1
                let inside = frames.damage.contains {
                    x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height
                }
                if !inside { outside.append((x, y)) }
            }
        }
        #expect(changed > 0, "the frames differ", sourceLocation: sourceLocation)
        #expect(
            outside.isEmpty,
            "\(outside.count) changed pixels outside the damage \(frames.damage), first \(outside.first.map { "\($0)" } ?? "")",
            sourceLocation: sourceLocation)
    }

    /// The surface's opaque half moves from the left to the right (its pixels written in place, its
    /// revision moved, as `setContentsChanged()` does): the second frame's shadow is the new half's, the
    /// old half's shadow is gone, and the damage covers both.
    @Test func aSurfacesNewAlphaMovesItsShadow() throws {
        let frames = try Self.twoFrames(Self.shadowed, children: [2], contents: [2: 7]) { _, imported, surfaces in
            surfaces[7]!.paint(columns: 16..<32)
            return [imported[7]!.image]
        }
        Self.expectShadow(frames.before, of: Self.opaque(0..<16, dx: Self.offset), "first frame")
        Self.expectLayer(frames.before, red: 0..<16, "first frame")
        Self.expectShadow(frames.after, of: Self.opaque(16..<32, dx: Self.offset), "second frame")
        Self.expectLayer(frames.after, red: 16..<32, "second frame")
        Self.expectDamageCoversTheChange(frames)
        // Every pass samples the surface or a pass that does: none is kept from the first frame.
        #expect(frames.counters.passesKept == 0 && frames.counters.passesDrawn == 3, "\(frames.counters)")
    }

    /// A `CAVulkanLayer` presents another pool buffer: the layer's contents become another surface
    /// whose revision this display never drew (a buffer's first present names it without a
    /// `surfaceChanged`), so the damage tracker alone sees the change, inside the shadow's pass.
    @Test func anotherSurfaceAsContentsMovesTheShadow() throws {
        let frames = try Self.twoFrames(Self.shadowed, children: [2], contents: [2: 7]) { tree, _, _ in
            tree.layers[2]!.state.contents = 8
            return []
        }
        Self.expectShadow(frames.before, of: Self.opaque(0..<16, dx: Self.offset), "first frame")
        Self.expectShadow(frames.after, of: Self.opaque(16..<32, dx: Self.offset), "second frame")
        Self.expectLayer(frames.after, red: 16..<32, "second frame")
        Self.expectDamageCoversTheChange(frames)
    }

    /// A rasterized layer (3, no background) holds layer 4 showing the surface; layer 5, a red square
    /// rasterized beside it, does not change. At the surface's new frame the raster holding the surface
    /// is drawn again (a miss) and layer 5's is kept (a hit).
    @Test func aRasterHoldingASurfaceIsDrawnAgainAtItsNewFrame() throws {
        let ops =
            RendererTests.layer(3, frame: Self.shown, color: nil, [.shouldRasterize(true)])
            + RendererTests.layer(4, frame: CGRect(x: 0, y: 0, width: 32, height: 32), color: nil)
            + RendererTests.layer(
                5, frame: CGRect(x: 90, y: 20, width: 20, height: 20), color: Self.red,
                [.shouldRasterize(true)])
            + [.setSublayers(3, [4])]
        let frames = try Self.twoFrames(ops, children: [3, 5], contents: [4: 7]) { _, imported, surfaces in
            surfaces[7]!.paint(columns: 16..<32)
            return [imported[7]!.image]
        }
        Self.expectLayer(frames.before, red: 0..<16, "first frame")
        Self.expectLayer(frames.after, red: 16..<32, "second frame")
        let square = frames.after.rgba(x: 100, y: 30)
        #expect(square == (255, 0, 0, 255), "the kept raster: \(square)")
        Self.expectDamageCoversTheChange(frames)
        #expect(
            frames.counters == RenderCounters(passesDrawn: 1, passesKept: 1, rasterHits: 1, rasterMisses: 1),
            "\(frames.counters)")
    }
}
