import Foundation
import Lamina
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// Offscreen passes (issue 21): masks (E11, E14), group opacity (E13) and back faces (E28), drawn by
/// the Vulkan renderer in-process with validation on, each checked at pixels whose value the geometry
/// and the blend equations predict, with the number of passes each list spends.
@Suite(.serialized) struct OffscreenPassPixelTests {
    typealias Pixel = GeometryPixelTests.Pixel

    /// A drawn frame: its pixels and the list they were drawn from.
    struct Frame {
        var bitmap: Bitmap
        var list: DisplayList
    }

    /// Draws `ops` under a root (layer 1, no background, the whole display) holding `children`, on a
    /// `width`×`height` display cleared to opaque black, at media time `time`; `images` (client id →
    /// BGRA premultiplied pixels) are imported and `contents` gives layers their image. Writes the
    /// frame to `png` in the temporary folder when named.
    static func draw(
        _ ops: [LayerOperation], children: [LayerID], width: Int = 60, height: Int = 40, time: Double = 0,
        images: [UInt64: (Int, Int, [UInt8])] = [:], contents: [LayerID: UInt64] = [:], png: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Frame {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            var imported: [UInt64: ContentsImage] = [:]
            for (client, (w, h, bytes)) in images {
                let id = try renderer.importImage(
                    ImagePixels(width: w, height: h, stride: w * 4, source: .host(bytes)), filtering: .nearest)
                imported[client] = ContentsImage(image: id, width: w, height: h, mipmapped: false)
            }
            let root = RendererTests.layer(1, frame: CGRect(x: 0, y: 0, width: width, height: height), color: nil)
            var tree = try RenderTree().applying(
                root + ops + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)], displayCount: 1)
            for (id, image) in contents { tree.layers[id]!.state.contents = image }
            tree.contentsImages = imported
            let cache = ShapeRasterCache(renderer: renderer)
            let list = DisplayListBuilder.build(
                trees: [tree], display: 0, width: width, height: height, clearColor: SIMD4(0, 0, 0, 1), time: time,
                shapes: cache)
            cache.endFrame()
            let target = try renderer.makeTarget(width: width, height: height)
            try renderer.render(list, into: target)
            let bitmap = try renderer.readPixels(target)
            #expect(validation.messages.isEmpty, "validation: \(validation.messages)", sourceLocation: sourceLocation)
            if let png {
                let image = CGImage(
                    width: bitmap.width, height: bitmap.height, stride: bitmap.stride, premultipliedBGRA: bitmap.pixels)!
                try image.writePNG(to: NSTemporaryDirectory() + png)
            }
            return Frame(bitmap: bitmap, list: list)
        }
    }

    static func expect(
        _ frame: Frame, _ x: Int, _ y: Int, _ expected: Pixel, tolerance: Int = 1, _ note: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        GeometryPixelTests.expectPixel(
            frame.bitmap, x, y, expected, tolerance: tolerance, note, sourceLocation: sourceLocation)
    }

    /// A colour channel after premultiplied "over": `source` (premultiplied, 0...1) with alpha `alpha`
    /// over the opaque channel `under`, as a byte.
    static func over(_ source: Double, alpha: Double, under: Double) -> Int {
        Int((255 * (source + under * (1 - alpha))).rounded())
    }

    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// A 40×20 mask image: opaque in columns 0..<16, alpha 128/255 in 16..<24, clear from 24 on
    /// (white, premultiplied BGRA).
    static let maskImage: (Int, Int, [UInt8]) = {
        var bytes: [UInt8] = []
        for _ in 0..<20 {
            for x in 0..<40 {
                let a: UInt8 = x < 16 ? 255 : x < 24 ? 128 : 0
                bytes += [a, a, a, a]
            }
        }
        return (40, 20, bytes)
    }()

    /// Layer 2, red, 40×20 at (10, 10), masked by layer 3 (the mask image over its bounds).
    static func maskedLayer(opacity: Float = 1) -> [LayerOperation] {
        RendererTests.layer(2, frame: CGRect(x: 10, y: 10, width: 40, height: 20), color: red, [.opacity(opacity)])
            + RendererTests.layer(3, frame: CGRect(x: 0, y: 0, width: 40, height: 20), color: nil)
            + [.setMask(2, mask: 3)]
    }

    /// E11: the masked layer shows only where the mask image is opaque, by half where it is half
    /// transparent, and nothing where it is clear; the mask itself is not drawn (its white never shows).
    /// Apple: "the layer's content shows only where the mask's alpha is opaque" (CALayer.mask).
    @Test func imageMaskShowsTheLayerOnlyWhereTheMaskIsOpaque() throws {
        let frame = try Self.draw(
            Self.maskedLayer(), children: [2], images: [7: Self.maskImage], contents: [3: 7], png: "mask-image.png")
        Self.expect(frame, 12, 20, (255, 0, 0, 255), "opaque mask")
        Self.expect(frame, 25, 15, (255, 0, 0, 255), "opaque mask")
        let half = Self.over(128.0 / 255, alpha: 128.0 / 255, under: 0)
        Self.expect(frame, 30, 20, (half, 0, 0, 255), "mask alpha 128")
        Self.expect(frame, 40, 20, (0, 0, 0, 255), "clear mask")
        Self.expect(frame, 5, 5, (0, 0, 0, 255), "outside the layer")
        // The layer's pass and the mask's.
        #expect(frame.list.passes.count == 2)
    }

    /// E14: the masked layer at opacity 0.5 shows the background through by half where the mask is
    /// opaque, and still nothing where it is clear: opacity and mask apply last (App. A).
    @Test func maskedLayerAtHalfOpacity() throws {
        let frame = try Self.draw(
            Self.maskedLayer(opacity: 0.5), children: [2], images: [7: Self.maskImage], contents: [3: 7],
            png: "mask-half-opacity.png")
        // The pass is drawn with opacity 0.5: red 255 × 0.5 over black.
        Self.expect(frame, 15, 20, (Self.over(0.5, alpha: 0.5, under: 0), 0, 0, 255), tolerance: 1)
        Self.expect(frame, 40, 20, (0, 0, 0, 255))
        #expect(frame.list.passes.count == 2, "the faded mask is the same two passes")
    }

    /// A shape mask (a circle of radius 10 at the layer's centre) cuts the layer's own sublayer too:
    /// the mask applies to the layer's whole drawing.
    @Test func shapeMaskCutsTheLayerAndItsSublayers() throws {
        let circle = CGPath(ellipseIn: CGRect(x: 10, y: 0, width: 20, height: 20), transform: nil)
        let ops =
            RendererTests.layer(2, frame: CGRect(x: 10, y: 10, width: 40, height: 20), color: Self.red)
            + RendererTests.layer(4, frame: CGRect(x: 20, y: 0, width: 20, height: 20), color: Self.blue)
            + [
                .createLayer(3, .shape), .set(3, .bounds(CGRect(x: 0, y: 0, width: 40, height: 20))),
                .set(3, .position(CGPoint(x: 20, y: 10))), .set(3, .path(circle)),
                .setSublayers(2, [4]), .setMask(2, mask: 3),
            ]
        let frame = try Self.draw(ops, children: [2], png: "mask-shape.png")
        // The circle's centre is (30, 20) on the display: left of x = 30 red, right blue (the sublayer).
        Self.expect(frame, 26, 20, (255, 0, 0, 255), "inside the circle, over the layer")
        Self.expect(frame, 34, 20, (0, 0, 255, 255), "inside the circle, over the sublayer")
        Self.expect(frame, 12, 20, (0, 0, 0, 255), "outside the circle")
        Self.expect(frame, 45, 20, (0, 0, 0, 255), "outside the circle, on the sublayer")
        Self.expect(frame, 21, 12, (0, 0, 0, 255), "outside the circle, on the layer's corner")
        #expect(frame.list.passes.count == 2)
    }

    /// A mask whose position is animated moves across the layer: captured at chosen media times, the
    /// visible part is where the mask's animated frame puts it (a linear move of x from 10 to 30 over
    /// one second: 20 at t = 0.5).
    @Test func animatedMaskIsDrawnAtItsPresentationValue() throws {
        let record = AnimationRecord(
            timing: MediaTiming(beginTime: 0, duration: 1),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("position.x")!),
                BasicValues(from: .number(10), to: .number(30))))
        let ops =
            RendererTests.layer(2, frame: CGRect(x: 10, y: 10, width: 40, height: 20), color: Self.red)
            + RendererTests.layer(3, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: Self.white)
            + [.setMask(2, mask: 3), .addAnimation(3, AttachedAnimation(id: 1, key: "slide", record: record))]
        for (time, left) in [(0.0, 0), (0.5, 10), (0.999, 20)] {
            let frame = try Self.draw(ops, children: [2], time: time, png: "mask-animated-\(left).png")
            // The mask covers layer x left..<left + 20, i.e. display x 10 + left ..< 30 + left.
            Self.expect(frame, 10 + left + 1, 20, (255, 0, 0, 255), "t = \(time), inside")
            Self.expect(frame, 30 + left - 2, 20, (255, 0, 0, 255), "t = \(time), inside")
            if left > 0 { Self.expect(frame, 10 + left - 2, 20, (0, 0, 0, 255), "t = \(time), left of the mask") }
            if left < 20 { Self.expect(frame, 30 + left + 1, 20, (0, 0, 0, 255), "t = \(time), right of the mask") }
        }
    }

    /// Layer 2 (no background) at opacity 0.5 holding red 4 (x 10..<30) and blue 5 (x 20..<40) on
    /// display rows 10..<30; they overlap in x 20..<30.
    static func overlappingGroup(allowsGroupOpacity: Bool, overlap: Bool = true) -> [LayerOperation] {
        RendererTests.layer(
            2, frame: CGRect(x: 0, y: 0, width: 60, height: 40), color: nil,
            [.opacity(0.5), .allowsGroupOpacity(allowsGroupOpacity)])
            + RendererTests.layer(4, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: Self.red)
            + RendererTests.layer(
                5, frame: CGRect(x: overlap ? 20 : 35, y: 10, width: 20, height: 20), color: Self.blue)
            + [.setSublayers(2, [4, 5])]
    }

    /// E13: with group opacity (the default, `allowsGroupOpacity` true) the overlap shows only the top
    /// child faded once; without it each child is faded on its own and the red shows through the blue.
    /// Apple: `allowsGroupOpacity` "allows the layer to be composited as a group... default true".
    @Test func groupOpacityFadesOverlappingChildrenAsOneImage() throws {
        let grouped = try Self.draw(
            Self.overlappingGroup(allowsGroupOpacity: true), children: [2], png: "group-opacity-on.png")
        let half = Self.over(0.5, alpha: 0.5, under: 0)
        Self.expect(grouped, 25, 20, (0, 0, half, 255), "overlap, one image")
        Self.expect(grouped, 15, 20, (half, 0, 0, 255), "red alone")
        Self.expect(grouped, 35, 20, (0, 0, half, 255), "blue alone")
        #expect(grouped.list.passes.count == 1)

        let separate = try Self.draw(
            Self.overlappingGroup(allowsGroupOpacity: false), children: [2], png: "group-opacity-off.png")
        // Red at 0.5 over black, then blue at 0.5 over that.
        let redUnder = Double(Self.over(0.5, alpha: 0.5, under: 0)) / 255
        Self.expect(
            separate, 25, 20, (Self.over(0, alpha: 0.5, under: redUnder), 0, Self.over(0.5, alpha: 0.5, under: 0), 255),
            "overlap, blended twice")
        #expect(separate.list.passes.count == 0)
    }

    /// No pass is spent where group opacity makes no difference: a faded leaf, and faded children that
    /// do not overlap; one is spent for an overlapping group, and two for each mask.
    @Test func passesAreSpentOnlyWhereTheyChangeThePixels() throws {
        let leaf = try Self.draw(
            RendererTests.layer(
                2, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: Self.red,
                [.opacity(0.5), .cornerRadius(4)]), children: [2])
        #expect(leaf.list.passes.count == 0)
        Self.expect(leaf, 20, 20, (Self.over(0.5, alpha: 0.5, under: 0), 0, 0, 255))
        // A border lies over the layer's own background: faded as one image, the border's pixels show
        // the border colour faded once, not over the faded background. Where the border ends on whole
        // pixels the two are drawn as disjoint pieces that composite border over background before the
        // fade (the corner pieces in their shader), so no pass is spent; a border ending inside a
        // pixel takes one. Either way the pixels are the group's.
        let half = Self.over(0.5, alpha: 0.5, under: 0)
        func bordered(width: CGFloat, color: RGBAColor) throws -> Frame {
            try Self.draw(
                RendererTests.layer(
                    2, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: Self.red,
                    [.opacity(0.5), .borderWidth(width), .borderColor(color), .cornerRadius(6)]), children: [2])
        }
        let whole = try bordered(width: 2, color: Self.blue)
        #expect(whole.list.passes.count == 0)
        Self.expect(whole, 20, 11, (0, 0, half, 255), "border band, faded once")
        Self.expect(whole, 11, 15, (0, 0, half, 255), "border in a corner piece, faded once")
        Self.expect(whole, 20, 20, (half, 0, 0, 255), "background")
        // A translucent border: green at 0.5 over the red background, then the whole at 0.5.
        let glazed = try bordered(width: 2, color: RGBAColor(red: 0, green: 1, blue: 0, alpha: 0.5))
        #expect(glazed.list.passes.count == 0)
        let quarter = Self.over(0.25, alpha: 0.5, under: 0)
        Self.expect(glazed, 20, 11, (quarter, quarter, 0, 255), "translucent border band over the background")
        Self.expect(glazed, 11, 15, (quarter, quarter, 0, 255), "translucent border in a corner piece")
        // Without group opacity each drawing fades apart: the faded border over the faded background.
        let separate = try Self.draw(
            RendererTests.layer(
                2, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: Self.red,
                [
                    .opacity(0.5), .allowsGroupOpacity(false), .borderWidth(2), .borderColor(Self.blue),
                    .cornerRadius(6),
                ]), children: [2])
        #expect(separate.list.passes.count == 0)
        let redUnder = Self.over(0, alpha: 0.5, under: Double(half) / 255)
        Self.expect(separate, 20, 11, (redUnder, 0, half, 255), "border band over the faded background")
        Self.expect(separate, 11, 15, (redUnder, 0, half, 255), "border in a corner piece over the faded background")
        let split = try bordered(width: 1.5, color: Self.blue)
        #expect(split.list.passes.count == 1)
        Self.expect(split, 20, 10, (0, 0, half, 255), "border ending inside a pixel, faded once in a pass")
        Self.expect(split, 20, 20, (half, 0, 0, 255), "background")

        let apart = try Self.draw(Self.overlappingGroup(allowsGroupOpacity: true, overlap: false), children: [2])
        #expect(apart.list.passes.count == 0)
        Self.expect(apart, 15, 20, (Self.over(0.5, alpha: 0.5, under: 0), 0, 0, 255))
        Self.expect(apart, 45, 20, (0, 0, Self.over(0.5, alpha: 0.5, under: 0), 255))

        // Three masked layers side by side: six passes (each layer's and each mask's).
        var ops: [LayerOperation] = []
        for k in 0..<3 {
            let id = LayerID(10 + 2 * k)
            ops += RendererTests.layer(id, frame: CGRect(x: 2 + 20 * k, y: 5, width: 16, height: 16), color: Self.red)
            ops += RendererTests.layer(id + 1, frame: CGRect(x: 0, y: 0, width: 8, height: 16), color: Self.white)
            ops += [.setMask(id, mask: id + 1)]
        }
        let masked = try Self.draw(ops, children: [10, 12, 14], png: "mask-three.png")
        #expect(masked.list.passes.count == 6)
        for k in 0..<3 {
            Self.expect(masked, 2 + 20 * k + 4, 12, (255, 0, 0, 255), "mask \(k), inside")
            Self.expect(masked, 2 + 20 * k + 12, 12, (0, 0, 0, 255), "mask \(k), outside")
        }
    }

    /// A masked layer inside a faded overlapping group: passes nest (the mask's, the layer's, the
    /// group's), and the result is the masked layer faded with the group.
    @Test func passesNest() throws {
        let ops =
            RendererTests.layer(
                2, frame: CGRect(x: 0, y: 0, width: 60, height: 40), color: nil, [.opacity(0.5)])
            + RendererTests.layer(4, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: Self.blue)
            + RendererTests.layer(5, frame: CGRect(x: 20, y: 10, width: 20, height: 20), color: Self.red)
            + RendererTests.layer(6, frame: CGRect(x: 0, y: 0, width: 10, height: 20), color: Self.white)
            + [.setSublayers(2, [4, 5]), .setMask(5, mask: 6)]
        let frame = try Self.draw(ops, children: [2], png: "mask-in-group.png")
        #expect(frame.list.passes.count == 3)
        let half = Self.over(0.5, alpha: 0.5, under: 0)
        Self.expect(frame, 25, 20, (half, 0, 0, 255), "the masked red over the blue, faded once")
        Self.expect(frame, 35, 20, (0, 0, 0, 255), "masked away")
        Self.expect(frame, 15, 20, (0, 0, half, 255), "blue alone")
    }

    /// E28: a layer turned by π about y shows its mirror image when double-sided (the default) and
    /// nothing, with its sublayers, when not. Apple: `isDoubleSided` "When the value in this property
    /// is false, the layer hides its content when it faces away from the viewer. The default value
    /// of this property is true" (CALayer.isDoubleSided).
    @Test func backFacesAreHiddenOnlyWhenSingleSided() throws {
        let turned = CATransform3DMakeRotation(.pi, 0, 1, 0)
        func scene(doubleSided: Bool, transform: CATransform3D) -> [LayerOperation] {
            RendererTests.layer(
                2, frame: CGRect(x: 10, y: 10, width: 40, height: 20), color: Self.red,
                [.transform(transform), .isDoubleSided(doubleSided)])
                + RendererTests.layer(4, frame: CGRect(x: 0, y: 0, width: 10, height: 20), color: Self.blue)
                + [.setSublayers(2, [4])]
        }
        let mirrored = try Self.draw(
            scene(doubleSided: true, transform: turned), children: [2], png: "back-face-double.png")
        // The sublayer at the layer's left edge appears on the right, mirrored.
        Self.expect(mirrored, 45, 20, (0, 0, 255, 255), "mirrored sublayer")
        Self.expect(mirrored, 15, 20, (255, 0, 0, 255), "mirrored layer")
        let hidden = try Self.draw(
            scene(doubleSided: false, transform: turned), children: [2], png: "back-face-single.png")
        Self.expect(hidden, 45, 20, (0, 0, 0, 255), "hidden with its sublayer")
        Self.expect(hidden, 15, 20, (0, 0, 0, 255), "hidden")
        let front = try Self.draw(scene(doubleSided: false, transform: CATransform3DIdentity), children: [2])
        Self.expect(front, 15, 20, (0, 0, 255, 255), "single-sided, facing the viewer")
        Self.expect(front, 45, 20, (255, 0, 0, 255), "single-sided, facing the viewer")
    }

    /// A frame with a pass is built in full by a retained list (the build is not patchable), and a
    /// partial redraw of its damage gives the pixels of a whole redraw: the mask moved, the pass
    /// drawn again, only the damaged rectangles redrawn in the display's pass.
    @Test func passesAreRebuiltInFullAndTheirDamageRedrawsExactly() throws {
        func tree(maskX: Double) throws -> RenderTree {
            try RenderTree().applying(
                RendererTests.layer(1, frame: CGRect(x: 0, y: 0, width: 60, height: 40), color: Self.white)
                    + RendererTests.layer(2, frame: CGRect(x: 10, y: 10, width: 40, height: 20), color: Self.red)
                    + RendererTests.layer(3, frame: CGRect(x: maskX, y: 0, width: 10, height: 20), color: Self.white)
                    + [.setSublayers(1, [2]), .setMask(2, mask: 3), .setRoot(display: 0, layer: 1)], displayCount: 1)
        }
        var retained = RetainedDisplayList()
        var damage = DamageTracker()
        let first = try tree(maskX: 0)
        let second = try first.applying([.set(3, .position(CGPoint(x: 25, y: 10)))], displayCount: 1)
        let build = { (tree: RenderTree) in
            retained.build(trees: [tree], display: 0, width: 60, height: 40, clearColor: SIMD4(0, 0, 0, 1))
        }
        let list1 = build(first)
        #expect(list1.passes.count == 2)
        _ = damage.damage(of: list1)
        var list2 = build(second)
        #expect(retained.lastBuild == .full, "a list with passes is not patched")
        let full = DisplayListBuilder.build(
            trees: [second], display: 0, width: 60, height: 40, clearColor: SIMD4(0, 0, 0, 1))
        #expect(list2.emitted.count == full.emitted.count && list2.passes == full.passes)
        list2.damage = damage.damage(of: list2)
        let regions = try #require(list2.damage, "a small change is drawn in part")
        #expect(!regions.isEmpty)
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let kept = try renderer.makeTarget(width: 60, height: 40)
            try renderer.render(list1, into: kept)
            try renderer.render(list2, into: kept)
            let partial = try renderer.readPixels(kept)
            let whole = try renderer.makeTarget(width: 60, height: 40)
            try renderer.render(full, into: whole)
            let expected = try renderer.readPixels(whole)
            #expect(partial.pixels == expected.pixels, "damage \(regions)")
            #expect(validation.messages.isEmpty, "validation: \(validation.messages)")
            // The mask now covers layer x 20..<30: display x 30..<40.
            let bitmap = Frame(bitmap: expected, list: full)
            Self.expect(bitmap, 35, 20, (255, 0, 0, 255), "inside the moved mask")
            Self.expect(bitmap, 15, 20, (255, 255, 255, 255), "where the mask was: the root shows")
        }
    }

    /// Passes are bounded per list (a client's layers are many): 80 masked layers would need 160
    /// passes; the first 64 get theirs (128, `maxPasses`) and the rest are drawn without their masks.
    @Test func passesAreBoundedPerFrame() throws {
        var ops: [LayerOperation] = []
        var children: [LayerID] = []
        for k in 0..<80 {
            let id = LayerID(10 + 2 * k)
            let x = Double(k % 10) * 6, y = Double(k / 10) * 5
            ops += RendererTests.layer(id, frame: CGRect(x: x, y: y, width: 6, height: 5), color: Self.red)
            ops += RendererTests.layer(id + 1, frame: CGRect(x: 0, y: 0, width: 3, height: 5), color: Self.white)
            ops += [.setMask(id, mask: id + 1)]
            children.append(id)
        }
        let frame = try Self.draw(ops, children: children)
        #expect(frame.list.passes.count == 128)
        Self.expect(frame, 4, 2, (0, 0, 0, 255), "the first layer is masked")
        Self.expect(frame, 4, 37, (255, 0, 0, 255), "the last layer is drawn without its mask")
    }

    /// A faded group whose children do not overlap spends no pass, but a retained list does not patch
    /// it: a child moved onto its sibling alone would otherwise keep the per-piece fade, where the full
    /// build now draws the group through a pass.
    @Test func aFadedGroupIsRebuiltWhenAChildMovesOntoItsSibling() throws {
        let apart = try RenderTree().applying(
            RendererTests.layer(1, frame: CGRect(x: 0, y: 0, width: 60, height: 40), color: nil)
                + Self.overlappingGroup(allowsGroupOpacity: true, overlap: false)
                + [.setSublayers(1, [2]), .setRoot(display: 0, layer: 1)], displayCount: 1)
        let moved = try apart.applying([.set(5, .position(CGPoint(x: 30, y: 20)))], displayCount: 1)
        var retained = RetainedDisplayList()
        let first = retained.build(trees: [apart], display: 0, width: 60, height: 40)
        #expect(first.passes.isEmpty)
        let second = retained.build(trees: [moved], display: 0, width: 60, height: 40)
        let full = DisplayListBuilder.build(trees: [moved], display: 0, width: 60, height: 40)
        #expect(full.passes.count == 1)
        #expect(retained.lastBuild == .full)
        #expect(second.passes == full.passes && second.emitted.count == full.emitted.count)
    }
}
