import Foundation
import Lamina
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// Layer contents drawn by the Vulkan renderer, in-process with validation on: gravity, nine-part
/// stretching, `contentsRect`, filters, transforms, clipping, opacity and cross-fades, each checked at
/// pixels whose value the geometry predicts. Images are BGRA, premultiplied, imported mipmapped.
@Suite(.serialized) struct ContentsPixelTests {
    /// An opaque colour as BGRA bytes.
    typealias Texel = (r: UInt8, g: UInt8, b: UInt8)
    static let red: Texel = (255, 0, 0)
    static let green: Texel = (0, 255, 0)
    static let blue: Texel = (0, 0, 255)
    static let white: Texel = (255, 255, 255)
    static let black: Texel = (0, 0, 0)

    /// A `width`×`height` opaque image whose texel (x, y) is `color(x, y)`, as tightly packed BGRA.
    static func image(_ width: Int, _ height: Int, _ color: (Int, Int) -> Texel) -> (Int, Int, [UInt8]) {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let c = color(x, y)
                bytes += [c.b, c.g, c.r, 255]
            }
        }
        return (width, height, bytes)
    }

    /// Renders a `width`×`height` frame cleared to opaque black: the root (layer 1, no background) has the
    /// sublayers `children` from `ops`; `images` (client id → pixels) are imported, `contents` gives
    /// layers their image, `edit` changes states directly, and `beforeRender` may release images.
    static func render(
        _ ops: [LayerOperation], children: [LayerID], contents: [LayerID: UInt64],
        images: [UInt64: (Int, Int, [UInt8])], width: Int = 100, height: Int = 100,
        rootProperties: [LayerProperty] = [], edit: (inout RenderTree) -> Void = { _ in },
        beforeRender: (VulkanRenderer, [UInt64: RenderImageID]) throws -> Void = { _, _ in },
        png: String? = nil
    ) throws -> Bitmap {
        return try SharedVulkanDevice.withRenderer { renderer, validation in
            var imported: [UInt64: ContentsImage] = [:]
            var ids: [UInt64: RenderImageID] = [:]
            for (client, (w, h, bytes)) in images {
                let id = try renderer.importImage(
                    ImagePixels(width: w, height: h, stride: w * 4, source: .host(bytes)), filtering: .mipmapped)
                ids[client] = id
                imported[client] = ContentsImage(
                    image: id, width: w, height: h, mipmapped: try renderer.mipLevels(of: id) > 1)
            }
            let root = RendererTests.layer(
                1, frame: CGRect(x: 0, y: 0, width: width, height: height), color: nil, rootProperties)
            var tree = try RenderTree().applying(
                root + ops + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)], displayCount: 1)
            for (id, image) in contents { tree.layers[id]!.state.contents = image }
            tree.contentsImages = imported
            edit(&tree)
            let list = DisplayListBuilder.build(
                trees: [tree], display: 0, width: width, height: height, clearColor: SIMD4(0, 0, 0, 1))
            try beforeRender(renderer, ids)
            let target = try renderer.makeTarget(width: width, height: height)
            try renderer.render(list, into: target)
            let bitmap = try renderer.readPixels(target)
            #expect(validation.messages.isEmpty, "\(validation.messages)")
            if let png {
                let image = CGImage(
                    width: bitmap.width, height: bitmap.height, stride: bitmap.stride, premultipliedBGRA: bitmap.pixels)!
                try image.writePNG(to: NSTemporaryDirectory() + png)
            }
            return bitmap
        }
    }

    static func layer(_ id: LayerID, frame: CGRect, _ extra: [LayerProperty] = []) -> [LayerOperation] {
        RendererTests.layer(id, frame: frame, color: nil, extra)
    }

    static func expectPixel(
        _ bitmap: Bitmap, _ x: Int, _ y: Int, _ c: Texel, alpha: UInt8 = 255, _ note: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let got = bitmap.rgba(x: x, y: y)
        #expect(got == (c.r, c.g, c.b, alpha), "(\(x), \(y)) \(note): \(got)", sourceLocation: sourceLocation)
    }

    /// Four 20×10 quadrants: top-left red, top-right green, bottom-left blue, bottom-right white.
    static let quadrants = image(40, 20) { x, y in
        y < 10 ? (x < 20 ? red : green) : (x < 20 ? blue : white)
    }

    @Test func gravitiesPutTheImageWhereTheTablePredicts() throws {
        // CALayer contentsGravity: position-based gravities at natural size; top is Apple's y-up top,
        // the bottom edge of an unflipped layer (rows 80..<100 of a 100×100 layer for a 20-pixel image).
        let solid = Self.image(40, 20) { _, _ in Self.red }
        for (gravity, inside, outside) in [
            (CALayerContentsGravity.top, (50, 90), (50, 10)),
            (.bottomRight, (80, 10), (20, 90)),
            (.resizeAspect, (50, 30), (50, 20)),
        ] {
            let bitmap = try Self.render(
                Self.layer(2, frame: CGRect(x: 0, y: 0, width: 100, height: 100), [.contentsGravity(gravity)]),
                children: [2], contents: [2: 1], images: [1: solid])
            Self.expectPixel(bitmap, inside.0, inside.1, Self.red, gravity.rawValue)
            Self.expectPixel(bitmap, outside.0, outside.1, Self.black, gravity.rawValue)
        }
    }

    @Test func quadrantsLandUpright() throws {
        // resize: the 40×20 image stretched to 100×100 (nearest), first row at the top of the screen.
        let bitmap = try Self.render(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 100, height: 100), [.magnificationFilter(.nearest)]),
            children: [2], contents: [2: 1], images: [1: Self.quadrants], png: "lamina-contents-quadrants.png")
        Self.expectPixel(bitmap, 25, 25, Self.red)
        Self.expectPixel(bitmap, 75, 25, Self.green)
        Self.expectPixel(bitmap, 25, 75, Self.blue)
        Self.expectPixel(bitmap, 75, 75, Self.white)
    }

    @Test func flippedSuperlayerKeepsTheImageUpright() throws {
        // Under a superlayer with isGeometryFlipped the layer's space is mirrored (contentsAreFlipped),
        // but the image is drawn upright on the screen: red still at the top left.
        let bitmap = try Self.render(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 100, height: 100), [.isGeometryFlipped(true)])
                + Self.layer(3, frame: CGRect(x: 0, y: 0, width: 100, height: 100), [.magnificationFilter(.nearest)])
                + [.setSublayers(2, [3])],
            children: [2], contents: [3: 1], images: [1: Self.quadrants])
        Self.expectPixel(bitmap, 25, 25, Self.red)
        Self.expectPixel(bitmap, 75, 25, Self.green)
        Self.expectPixel(bitmap, 25, 75, Self.blue)
        Self.expectPixel(bitmap, 75, 75, Self.white)
    }

    @Test func nineParts() throws {
        // contentsCenter (1/3, 1/3, 1/3, 1/3) on a 30×30 image of nine 10×10 blocks, in 100×60 bounds:
        // columns 0..<10, 10..<90, 90..<100 and rows 0..<10, 10..<50, 50..<60 each show one block.
        let colors: [Texel] = [
            (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255), (255, 255, 255),
            (128, 128, 128), (64, 0, 128),
        ]
        let blocks = Self.image(30, 30) { x, y in colors[(y / 10) * 3 + x / 10] }
        let third = 1.0 / 3.0
        let bitmap = try Self.render(
            Self.layer(
                2, frame: CGRect(x: 0, y: 0, width: 100, height: 60),
                [
                    .contentsCenter(CGRect(x: third, y: third, width: third, height: third))
                ]), children: [2], contents: [2: 1], images: [1: blocks], png: "lamina-contents-nine-part.png")
        let xs = [5, 50, 95], ys = [5, 30, 55]
        for j in 0..<3 {
            for i in 0..<3 {
                Self.expectPixel(bitmap, xs[i], ys[j], colors[j * 3 + i], "part \(j * 3 + i)")
            }
        }
        // The fixed corner keeps its size: (9, 9) is still the first block; (20, 5) samples texel
        // 10 + 10.5 / 8 of the stretched middle, between texels 10 and 11: the second block only.
        Self.expectPixel(bitmap, 9, 9, colors[0])
        Self.expectPixel(bitmap, 20, 5, colors[1])
    }

    @Test func contentsRectShowsOneQuadrant() throws {
        // contentsRect (0.5, 0, 0.5, 0.5): the top-right quadrant (green) fills the whole layer.
        let bitmap = try Self.render(
            Self.layer(
                2, frame: CGRect(x: 0, y: 0, width: 100, height: 100),
                [
                    .contentsRect(CGRect(x: 0.5, y: 0, width: 0.5, height: 0.5)), .magnificationFilter(.nearest),
                ]), children: [2], contents: [2: 1], images: [1: Self.quadrants])
        for (x, y) in [(0, 0), (50, 50), (99, 99), (99, 0), (0, 99)] {
            Self.expectPixel(bitmap, x, y, Self.green)
        }
    }

    /// A 2×2 checker: red and blue on the first row, blue and red on the second.
    static let checker = image(2, 2) { x, y in (x + y) % 2 == 0 ? red : blue }

    @Test func nearestMagnificationKeepsBlocksAndLinearBlends() throws {
        // magnificationFilter (spec §2.8): the 2×2 checker enlarged 50×. Nearest gives exact blocks
        // with the edge between columns 49 and 50; linear blends: pixel (37, 12) samples texel
        // coordinate (0.25, -0.25), that is 3/4 of texel (0, 0) and 1/4 of texel (1, 0) (the row
        // clamps to the edge): red 191.25, blue 63.75.
        let nearest = try Self.render(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 100, height: 100), [.magnificationFilter(.nearest)]),
            children: [2], contents: [2: 1], images: [1: Self.checker])
        Self.expectPixel(nearest, 49, 12, Self.red)
        Self.expectPixel(nearest, 50, 12, Self.blue)
        Self.expectPixel(nearest, 37, 12, Self.red)
        Self.expectPixel(nearest, 37, 62, Self.blue)
        let linear = try Self.render(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 100, height: 100), [.magnificationFilter(.linear)]),
            children: [2], contents: [2: 1], images: [1: Self.checker], png: "lamina-contents-linear.png")
        let got = linear.rgba(x: 37, y: 12)
        #expect(abs(Int(got.0) - 191) <= 2 && got.1 == 0 && abs(Int(got.2) - 64) <= 2, "\(got)")
    }

    @Test func trilinearMinificationAveragesAFineChecker() throws {
        // minificationFilter trilinear (spec §2.8): a 256×256 one-pixel checker shrunk to 16×16 reads mip
        // level 4, where every texel averages black and white: 127.5 ± rounding. Nearest reads single
        // texels of level 0: pure black or white.
        let fine = Self.image(256, 256) { x, y in (x + y) % 2 == 0 ? Self.white : Self.black }
        for filter in [CALayerContentsFilter.trilinear, .nearest] {
            let bitmap = try Self.render(
                Self.layer(2, frame: CGRect(x: 0, y: 0, width: 16, height: 16), [.minificationFilter(filter)]),
                children: [2], contents: [2: 1], images: [1: fine], width: 16, height: 16)
            for y in 0..<16 {
                for x in 0..<16 {
                    let v = Int(bitmap.rgba(x: x, y: y).0)
                    if filter == .trilinear {
                        #expect(abs(v - 127) <= 3, "trilinear (\(x), \(y)): \(v)")
                    } else {
                        #expect(v == 0 || v == 255, "nearest (\(x), \(y)): \(v)")
                    }
                }
            }
        }
    }

    @Test func contentsRotateWithTheLayer() throws {
        // A 90° rotation (Apple's row-vector convention: (x, y) ↦ (−y, x) about the anchor) of the
        // 40×20 quadrant image centred at (50, 50): device x 40..<60, y 30..<70. The image's top half
        // lands right of x = 50, its left half above y = 50.
        let bitmap = try Self.render(
            Self.layer(
                2, frame: CGRect(x: 30, y: 40, width: 40, height: 20),
                [
                    .transform(CATransform3DMakeRotation(.pi / 2, 0, 0, 1)), .magnificationFilter(.nearest),
                ]), children: [2], contents: [2: 1], images: [1: Self.quadrants], png: "lamina-contents-rotated.png")
        Self.expectPixel(bitmap, 55, 40, Self.red)
        Self.expectPixel(bitmap, 55, 60, Self.green)
        Self.expectPixel(bitmap, 45, 40, Self.blue)
        Self.expectPixel(bitmap, 45, 60, Self.white)
        Self.expectPixel(bitmap, 40, 35, Self.blue)
        Self.expectPixel(bitmap, 59, 69, Self.green)
        Self.expectPixel(bitmap, 39, 50, Self.black)
        Self.expectPixel(bitmap, 60, 50, Self.black)
        Self.expectPixel(bitmap, 50, 29, Self.black)
        Self.expectPixel(bitmap, 50, 70, Self.black)
    }

    @Test func contentsFollowPerspective() throws {
        // The root's sublayerTransform has m34 = −1/300; the 100×100 layer (left half red, right half
        // blue, nearest) turns 45° about its vertical axis at the display's centre. The projected left
        // edge at y = 100 is found from the same matrices; two pixels inside it is red, two outside black.
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 300
        let halves = Self.image(2, 1) { x, _ in x == 0 ? Self.red : Self.blue }
        let rotation = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
        let bitmap = try Self.render(
            Self.layer(
                2, frame: CGRect(x: 50, y: 50, width: 100, height: 100),
                [
                    .transform(rotation), .magnificationFilter(.nearest),
                ]), children: [2], contents: [2: 1], images: [1: halves], width: 200, height: 200,
            rootProperties: [.sublayerTransform(perspective)], png: "lamina-contents-perspective.png")
        // toDevice = flatten(translate(−anchor) · R · translate(position) · translate(−100) · P · translate(100)).
        let toParent = CATransform3DConcat(
            CATransform3DConcat(CATransform3DMakeTranslation(-50, -50, 0), rotation),
            CATransform3DMakeTranslation(100, 100, 0))
        let about = CATransform3DConcat(
            CATransform3DConcat(CATransform3DMakeTranslation(-100, -100, 0), perspective),
            CATransform3DMakeTranslation(100, 100, 0))
        var m = CATransform3DConcat(toParent, about)
        m.m13 = 0
        m.m23 = 0
        m.m33 = 0
        m.m43 = 0
        let p = m.transform(x: 0, y: 50, z: 0)
        let edge = Int((p.x / p.w).rounded())
        Self.expectPixel(bitmap, edge + 2, 100, Self.red, "edge \(p.x / p.w)")
        Self.expectPixel(bitmap, edge - 2, 100, Self.black, "edge \(p.x / p.w)")
        // The middle line (local x = 50) stays at x = 100: red left of it, blue right of it.
        Self.expectPixel(bitmap, 97, 100, Self.red)
        Self.expectPixel(bitmap, 103, 100, Self.blue)
    }

    @Test func roundedMasksToBoundsClipsContents() throws {
        // A11: cornerRadius 16 clips contents only with masksToBounds. The corner pixel (0, 0) lies
        // 16·√2 − 16 ≈ 6.6 px outside the arc: black with the mask, white without; the centre is white.
        let white = Self.image(8, 8) { _, _ in Self.white }
        for masks in [true, false] {
            let bitmap = try Self.render(
                Self.layer(
                    2, frame: CGRect(x: 0, y: 0, width: 64, height: 64),
                    [
                        .cornerRadius(16), .masksToBounds(masks),
                    ]), children: [2], contents: [2: 1], images: [1: white], width: 64, height: 64)
            Self.expectPixel(bitmap, 0, 0, masks ? Self.black : Self.white, "masks \(masks)")
            Self.expectPixel(bitmap, 32, 32, Self.white, "masks \(masks)")
            Self.expectPixel(bitmap, 63, 32, Self.white, "masks \(masks)")
        }
    }

    @Test func opacityHalvesTheImage() throws {
        // opacity 0.5 over opaque black: 255 · 0.5 = 127.5, halves go down to 127 (the 8-bit rule).
        let white = Self.image(8, 8) { _, _ in Self.white }
        let bitmap = try Self.render(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 64, height: 64), [.opacity(0.5)]), children: [2],
            contents: [2: 1], images: [1: white], width: 64, height: 64)
        Self.expectPixel(bitmap, 32, 32, (127, 127, 127))
    }

    @Test func crossFadeAtAQuarter() throws {
        // decisions.md A2: (1 − p)·old + p·new, an exact dissolve: red (the old image) with weight 0.75
        // → 191/255 plus blue with 0.25 → 64/255 (drawn one over the other it would be red 143).
        let bitmap = try Self.render(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 64, height: 64)), children: [2], contents: [2: 2],
            images: [1: Self.image(4, 4) { _, _ in Self.red }, 2: Self.image(4, 4) { _, _ in Self.blue }],
            width: 64, height: 64,
            edit: { $0.layers[2]!.state.contentsCrossFade = ContentsCrossFade(from: 1, progress: 0.25) })
        let got = bitmap.rgba(x: 32, y: 32)
        #expect(abs(Int(got.0) - 191) <= 1 && got.1 == 0 && abs(Int(got.2) - 64) <= 1 && got.3 == 255, "\(got)")
    }

    @Test func releasedImageDrawsNothing() throws {
        // A batch whose image was released before the frame shows the clear colour, without errors.
        let bitmap = try Self.render(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 64, height: 64)), children: [2], contents: [2: 1],
            images: [1: Self.image(4, 4) { _, _ in Self.red }], width: 64, height: 64,
            beforeRender: { renderer, ids in try renderer.releaseImage(ids[1]!) })
        Self.expectPixel(bitmap, 32, 32, Self.black)
    }
}
