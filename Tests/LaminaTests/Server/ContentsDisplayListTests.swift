import Foundation
import LaminaProtocol
import Testing

@testable import Lamina
@testable import LaminaServer

/// Layer contents as display-list data: where each `contentsGravity` puts the image, nine-part
/// stretching, `contentsRect`, the filter chosen, cross-fades, clipping, and batches that never mix
/// images. Every expected rectangle is worked out by hand from the geometry in the test.
struct ContentsDisplayListTests {
    /// The renderer images the tests name (no renderer is involved: the ids are only carried).
    static let imageA = RenderImageID(rawValue: 7)
    static let imageB = RenderImageID(rawValue: 8)

    /// A layer with `frame` in its superlayer's coordinates (bounds at the origin).
    static func layer(_ id: LayerID, frame: CGRect, _ extra: [LayerProperty] = []) -> [LayerOperation] {
        [
            .createLayer(id), .set(id, .bounds(CGRect(origin: .zero, size: frame.size))),
            .set(id, .position(CGPoint(x: frame.midX, y: frame.midY))),
        ] + extra.map { .set(id, $0) }
    }

    /// A 256×256 display whose root (layer 1) has the sublayers `children` built from `ops`; `contents`
    /// gives layers their client image ids, `images` the imported images by client id, and `edit`
    /// changes states directly (properties the wire does not carry yet).
    static func build(
        _ ops: [LayerOperation], children: [LayerID], contents: [LayerID: UInt64],
        images: [UInt64: ContentsImage], edit: (inout RenderTree) -> Void = { _ in }
    ) throws -> DisplayList {
        let root = layer(1, frame: CGRect(x: 0, y: 0, width: 256, height: 256))
        var tree = try RenderTree().applying(
            root + ops + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)], displayCount: 1)
        for (id, image) in contents { tree.layers[id]!.state.contents = image }
        tree.contentsImages = images
        edit(&tree)
        return DisplayListBuilder.build(trees: [tree], display: 0, width: 256, height: 256)
    }

    /// The `ImageInstance`s of both linear-path kinds: those at opacity 1 (`plainImage`), then the others.
    static func images(_ list: DisplayList) -> [ImageInstance] {
        list.instances(of: .plainImage, as: ImageInstance.self) + list.instances(of: .image, as: ImageInstance.self)
    }

    /// Apple's gravities for an image of 40×20 pixels in bounds of 100×100 points (CALayer
    /// `contentsGravity` documentation: position-based gravities draw the image at its natural size,
    /// `resize` stretches it, `resizeAspect` fits and `resizeAspectFill` fills keeping the aspect
    /// ratio). Vertical gravities are in Apple's y-up sense, so `top` lies at the layer's maximum y.
    /// Rectangles are (x, y, width, height) in the layer, at `contentsScale` 1 and 2.
    static let gravityTable: [(CALayerContentsGravity, CGFloat, CGRect)] = [
        (.center, 1, CGRect(x: 30, y: 40, width: 40, height: 20)),
        (.top, 1, CGRect(x: 30, y: 80, width: 40, height: 20)),
        (.bottom, 1, CGRect(x: 30, y: 0, width: 40, height: 20)),
        (.left, 1, CGRect(x: 0, y: 40, width: 40, height: 20)),
        (.right, 1, CGRect(x: 60, y: 40, width: 40, height: 20)),
        (.topLeft, 1, CGRect(x: 0, y: 80, width: 40, height: 20)),
        (.topRight, 1, CGRect(x: 60, y: 80, width: 40, height: 20)),
        (.bottomLeft, 1, CGRect(x: 0, y: 0, width: 40, height: 20)),
        (.bottomRight, 1, CGRect(x: 60, y: 0, width: 40, height: 20)),
        (.resize, 1, CGRect(x: 0, y: 0, width: 100, height: 100)),
        (.resizeAspect, 1, CGRect(x: 0, y: 25, width: 100, height: 50)),
        (.resizeAspectFill, 1, CGRect(x: -50, y: 0, width: 200, height: 100)),
        (.center, 2, CGRect(x: 40, y: 45, width: 20, height: 10)),
        (.top, 2, CGRect(x: 40, y: 90, width: 20, height: 10)),
        (.bottom, 2, CGRect(x: 40, y: 0, width: 20, height: 10)),
        (.left, 2, CGRect(x: 0, y: 45, width: 20, height: 10)),
        (.right, 2, CGRect(x: 80, y: 45, width: 20, height: 10)),
        (.topLeft, 2, CGRect(x: 0, y: 90, width: 20, height: 10)),
        (.topRight, 2, CGRect(x: 80, y: 90, width: 20, height: 10)),
        (.bottomLeft, 2, CGRect(x: 0, y: 0, width: 20, height: 10)),
        (.bottomRight, 2, CGRect(x: 80, y: 0, width: 20, height: 10)),
        (.resize, 2, CGRect(x: 0, y: 0, width: 100, height: 100)),
        (.resizeAspect, 2, CGRect(x: 0, y: 25, width: 100, height: 50)),
        (.resizeAspectFill, 2, CGRect(x: -50, y: 0, width: 200, height: 100)),
    ]

    @Test(arguments: 0..<24)
    func gravityPlacesTheImage(row: Int) throws {
        let (gravity, scale, expected) = Self.gravityTable[row]
        // The layer sits at (60, 30) on the display, so device = layer + (60, 30).
        let list = try Self.build(
            Self.layer(
                2, frame: CGRect(x: 60, y: 30, width: 100, height: 100),
                [
                    .contentsGravity(gravity), .contentsScale(scale),
                ]), children: [2], contents: [2: 5],
            images: [5: ContentsImage(image: Self.imageA, width: 40, height: 20)])
        let instances = Self.images(list)
        try #require(instances.count == 1, "\(gravity.rawValue) at scale \(scale)")
        let device = expected.offsetBy(dx: 60, dy: 30)
        #expect(
            instances[0].rect
                == SIMD4(Float(device.minX), Float(device.minY), Float(device.maxX), Float(device.maxY)),
            "\(gravity.rawValue) at scale \(scale)")
        // The whole image is shown, upright (first row at the smaller y).
        #expect(instances[0].uv == SIMD4(0, 0, 1, 1), "\(gravity.rawValue) at scale \(scale)")
        #expect(list.batches.map(\.texture) == [TextureSampling(image: Self.imageA, filter: .linear)])
    }

    @Test func positionBasedImageLargerThanTheBoundsIsCropped() throws {
        // CALayer contentsGravity (spec §2.3): a position-based image larger than the bounds is cropped.
        // 40×20 image centred in 20×10 bounds at (0, 0): the middle 20×10 pixels, u 0.25...0.75, v 0.25...0.75.
        let list = try Self.build(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 20, height: 10), [.contentsGravity(.center)]),
            children: [2], contents: [2: 5], images: [5: ContentsImage(image: Self.imageA, width: 40, height: 20)])
        #expect(
            Self.images(list) == [
                ImageInstance(rect: SIMD4(0, 0, 20, 10), uv: SIMD4(0.25, 0.25, 0.75, 0.75), opacity: 1)
            ])
    }

    @Test func resizeAspectFillOverflowsWithoutMasksToBoundsAndIsClippedWithIt() throws {
        // Apple: resizeAspectFill may exceed the bounds; only masksToBounds clips contents (A11).
        // 200×100 drawn at (-50, 0) in a layer at (100, 50): device x 50...250.
        func instances(masks: Bool) throws -> [ImageInstance] {
            Self.images(
                try Self.build(
                    Self.layer(
                        2, frame: CGRect(x: 100, y: 50, width: 100, height: 100),
                        [
                            .contentsGravity(.resizeAspectFill), .masksToBounds(masks),
                        ]), children: [2], contents: [2: 5],
                    images: [5: ContentsImage(image: Self.imageA, width: 40, height: 20)]))
        }
        #expect(
            try instances(masks: false) == [
                ImageInstance(rect: SIMD4(50, 50, 250, 150), uv: SIMD4(0, 0, 1, 1), opacity: 1)
            ])
        #expect(
            try instances(masks: true) == [
                ImageInstance(rect: SIMD4(100, 50, 200, 150), uv: SIMD4(0.25, 0, 0.75, 1), opacity: 1)
            ])
    }

    @Test func topGravitySitsAtTheScreenTopOnlyUnderAFlippedSuperlayer() throws {
        // Apple defines top in the y-up sense: at the bottom of an unflipped iOS layer, at the top once
        // contentsAreFlipped (an ancestor's isGeometryFlipped). The parent (layer 2, 100×100 at the origin)
        // flips y ↦ 100 − y for its child (layer 3, the same frame); the image stays upright on screen.
        for flipped in [false, true] {
            let list = try Self.build(
                Self.layer(2, frame: CGRect(x: 0, y: 0, width: 100, height: 100), [.isGeometryFlipped(flipped)])
                    + Self.layer(3, frame: CGRect(x: 0, y: 0, width: 100, height: 100), [.contentsGravity(.top)])
                    + [.setSublayers(2, [3])],
                children: [2], contents: [3: 5], images: [5: ContentsImage(image: Self.imageA, width: 40, height: 20)])
            let expected = flipped ? SIMD4<Float>(30, 0, 70, 20) : SIMD4<Float>(30, 80, 70, 100)
            #expect(
                Self.images(list) == [ImageInstance(rect: expected, uv: SIMD4(0, 0, 1, 1), opacity: 1)], "\(flipped)")
        }
    }

    @Test func contentsRectShowsPartOfTheImage() throws {
        // CALayer contentsRect (spec §2.3): unit coordinates of the image; (0.5, 0, 0.5, 0.5) is the
        // top-right quadrant, stretched over the bounds (resize).
        let list = try Self.build(
            Self.layer(
                2, frame: CGRect(x: 0, y: 0, width: 64, height: 64),
                [
                    .contentsRect(CGRect(x: 0.5, y: 0, width: 0.5, height: 0.5))
                ]), children: [2], contents: [2: 5], images: [5: ContentsImage(image: Self.imageA, width: 4, height: 4)]
        )
        #expect(Self.images(list) == [ImageInstance(rect: SIMD4(0, 0, 64, 64), uv: SIMD4(0.5, 0, 1, 0.5), opacity: 1)])
    }

    @Test func contentsCenterStretchesOnlyTheMiddle() throws {
        // CALayer contentsCenter (spec §2.3 [EXT]): the edges outside the centre keep their point size.
        // A 30×30 image with the centre (1/3, 1/3, 1/3, 1/3) in 100×60 bounds: 10-point edges.
        let third = 1.0 / 3.0
        let list = try Self.build(
            Self.layer(
                2, frame: CGRect(x: 0, y: 0, width: 100, height: 60),
                [
                    .contentsCenter(CGRect(x: third, y: third, width: third, height: third))
                ]), children: [2], contents: [2: 5],
            images: [5: ContentsImage(image: Self.imageA, width: 30, height: 30)])
        let instances = Self.images(list)
        try #require(instances.count == 9)
        let xs: [Float] = [0, 10, 90, 100], ys: [Float] = [0, 10, 50, 60]
        let us: [Float] = [0, Float(third), Float(third + third), 1]
        var k = 0
        for j in 0..<3 {
            for i in 0..<3 {
                #expect(instances[k].rect == SIMD4(xs[i], ys[j], xs[i + 1], ys[j + 1]), "piece \(k)")
                let uv = instances[k].uv
                let want = SIMD4(us[i], us[j], us[i + 1], us[j + 1])
                #expect(((uv - want) * (uv - want)).max() < 1e-12, "piece \(k): \(uv)")
                k += 1
            }
        }
        // One group of disjoint pieces: one batch.
        #expect(list.batches.count == 1 && list.batches[0].instances.count == 9)
    }

    @Test func contentsCenterEdgesShrinkWhenTheBoundsAreNarrower() throws {
        // Apple scales the fixed edges down when the bounds are smaller than both together: 10 + 10
        // points in 10 points become 5 + 5, and the centre column vanishes.
        let third = 1.0 / 3.0
        let list = try Self.build(
            Self.layer(
                2, frame: CGRect(x: 0, y: 0, width: 10, height: 60),
                [
                    .contentsCenter(CGRect(x: third, y: third, width: third, height: third))
                ]), children: [2], contents: [2: 5],
            images: [5: ContentsImage(image: Self.imageA, width: 30, height: 30)])
        let rects = Self.images(list).map(\.rect)
        #expect(
            rects == [
                SIMD4(0, 0, 5, 10), SIMD4(5, 0, 10, 10), SIMD4(0, 10, 5, 50), SIMD4(5, 10, 10, 50),
                SIMD4(0, 50, 5, 60), SIMD4(5, 50, 10, 60),
            ])
    }

    @Test func filtersFollowTheDrawnSize() throws {
        // CALayer magnificationFilter/minificationFilter (spec §2.8): the first when the image is drawn
        // larger than its pixel size, the second when smaller; trilinear reads mipmaps with
        // minificationFilterBias.
        func sampling(size: CGFloat, mipmapped: Bool) throws -> TextureSampling? {
            try Self.build(
                Self.layer(
                    2, frame: CGRect(x: 0, y: 0, width: size, height: size),
                    [
                        .magnificationFilter(.nearest), .minificationFilter(.trilinear),
                    ]), children: [2], contents: [2: 5],
                images: [5: ContentsImage(image: Self.imageA, width: 64, height: 64, mipmapped: mipmapped)],
                edit: { $0.layers[2]!.state.minificationFilterBias = -0.5 }
            ).batches.first?.texture
        }
        #expect(try sampling(size: 128, mipmapped: true) == TextureSampling(image: Self.imageA, filter: .nearest))
        #expect(try sampling(size: 64, mipmapped: true) == TextureSampling(image: Self.imageA, filter: .nearest))
        #expect(
            try sampling(size: 16, mipmapped: true)
                == TextureSampling(image: Self.imageA, filter: .trilinear, lodBias: -0.5))
        // Without a mip chain trilinear is bilinear.
        #expect(try sampling(size: 16, mipmapped: false) == TextureSampling(image: Self.imageA, filter: .linear))
    }

    @Test func crossFadeDrawsBothImagesWeighted() throws {
        // decisions.md A2: the old image with weight 1 − progress plus the new one with weight progress,
        // added in an offscreen pass (the images are not known to be opaque, so drawing the new one over
        // the old would let the backdrop through: docs/rendering.md, "Dissolves"), and that pass drawn
        // over. At 0.25: 0.75 · 255 = 191.25 → 191 and 0.25 · 255 = 63.75 → 64 (8-bit steps).
        let list = try Self.build(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 32, height: 32)), children: [2], contents: [2: 6],
            images: [
                5: ContentsImage(image: Self.imageA, width: 32, height: 32),
                6: ContentsImage(image: Self.imageB, width: 32, height: 32),
            ], edit: { $0.layers[2]!.state.contentsCrossFade = ContentsCrossFade(from: 5, progress: 0.25) })
        #expect(list.passes.count == 1)
        #expect(list.instances(of: .additiveImage, as: ImageInstance.self).map(\.opacity.x) == [191 / 255, 64 / 255])
        #expect(list.passes[0].batches.map(\.texture?.image) == [Self.imageA, Self.imageB])
        let rect = list.passes[0].rect
        #expect(rect.x == 0 && rect.y == 0 && rect.width >= 32 && rect.height >= 32, "covers the layer: \(rect)")
        #expect(list.batches.map(\.texture?.image) == [.offscreenPass(0)])
        #expect(Self.images(list).map(\.opacity.x) == [1])
    }

    @Test func batchesNeverMixImages() throws {
        // Three disjoint layers: A, B, A. The two A layers share a batch; B gets its own.
        let ops =
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 32, height: 32))
            + Self.layer(3, frame: CGRect(x: 64, y: 0, width: 32, height: 32))
            + Self.layer(4, frame: CGRect(x: 128, y: 0, width: 32, height: 32))
        let list = try Self.build(
            ops, children: [2, 3, 4], contents: [2: 5, 3: 6, 4: 5],
            images: [
                5: ContentsImage(image: Self.imageA, width: 32, height: 32),
                6: ContentsImage(image: Self.imageB, width: 32, height: 32),
            ])
        #expect(list.batches.count == 2)
        #expect(list.batches.map(\.texture?.image) == [Self.imageA, Self.imageB])
        #expect(list.batches.map(\.instances) == [[0, 2], [1]])
    }

    @Test func contentsSitBetweenBackgroundAndSublayers() throws {
        // App. A: background, then contents, then sublayers. Without the contents the sublayer's fill
        // would join the background's batch.
        let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
        let ops =
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 64, height: 64), [.backgroundColor(red)])
            + Self.layer(3, frame: CGRect(x: 8, y: 8, width: 16, height: 16), [.backgroundColor(red)])
            + [.setSublayers(2, [3])]
        let list = try Self.build(
            ops, children: [2], contents: [2: 5], images: [5: ContentsImage(image: Self.imageA, width: 8, height: 8)])
        #expect(
            list.batches.map { DrawKind.all[$0.kind].name } == ["opaqueFill", "plainImage", "opaqueFill"])
        #expect(list.batches[0].instances == [0])
        #expect(list.batches[2].instances == [1])
    }

    @Test func roundedMasksToBoundsClipsContentsThroughTheGeneralKind() throws {
        // A11: cornerRadius clips contents only with masksToBounds.
        for masks in [false, true] {
            let list = try Self.build(
                Self.layer(
                    2, frame: CGRect(x: 0, y: 0, width: 64, height: 64),
                    [
                        .cornerRadius(16), .masksToBounds(masks),
                    ]), children: [2], contents: [2: 5],
                images: [5: ContentsImage(image: Self.imageA, width: 8, height: 8)])
            #expect(list.batches.map(\.kind) == [masks ? DrawKind.imageShape.id : DrawKind.plainImage.id], "\(masks)")
            if masks {
                let shape = list.instances(of: .imageShape, as: ImageShapeInstance.self)
                #expect(shape.count == 1 && shape[0].params.z == 1 && shape[0].clipA.row0.w == 16)
            }
        }
    }

    @Test func hiddenLayersAndMissingImagesDrawNoContents() throws {
        let images: [UInt64: ContentsImage] = [5: ContentsImage(image: Self.imageA, width: 8, height: 8)]
        let hidden = try Self.build(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 64, height: 64), [.isHidden(true)]), children: [2],
            contents: [2: 5], images: images)
        #expect(hidden.batches.isEmpty)
        let missing = try Self.build(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 64, height: 64)), children: [2], contents: [2: 9],
            images: images)
        #expect(missing.batches.isEmpty)
    }

    @Test func transitionSnapshotsDrawTheirContents() throws {
        // CATransition (fade, spec §4): halfway through, the before-image (the snapshot, showing image
        // A) and the after-image (the live layer, now showing B) are each drawn into a pass of its own,
        // and the two passes are added at weight 0.5 into a third, drawn over (an exact dissolve).
        let client = CALayer()
        let transition = CATransition()
        transition.type = .fade
        transition.duration = 1
        transition.beginTime = 10
        client.add(transition, forKey: "t")
        let entry = try #require(client.attachedAnimations.first)
        let attached = AttachedAnimation(id: entry.id, key: entry.key, record: entry.record)
        client.removeAllAnimations()
        CATransaction.flush()
        var tree = try RenderTree().applying(
            Self.layer(1, frame: CGRect(x: 0, y: 0, width: 256, height: 256))
                + Self.layer(2, frame: CGRect(x: 0, y: 0, width: 64, height: 64))
                + [.setSublayers(1, [2]), .setRoot(display: 0, layer: 1)], displayCount: 1)
        tree.layers[2]!.state.contents = 5
        tree = try tree.applying([.addAnimation(2, attached)], displayCount: 1)
        tree.layers[2]!.state.contents = 6
        tree.contentsImages = [
            5: ContentsImage(image: Self.imageA, width: 64, height: 64),
            6: ContentsImage(image: Self.imageB, width: 64, height: 64),
        ]
        let list = DisplayListBuilder.build(trees: [tree], display: 0, width: 256, height: 256, time: 10.5)
        #expect(list.passes.count == 3)
        #expect(list.passes[0].batches.map(\.texture?.image) == [Self.imageA])
        #expect(list.passes[1].batches.map(\.texture?.image) == [Self.imageB])
        #expect(list.passes[2].batches.map(\.texture?.image) == [.offscreenPass(0), .offscreenPass(1)])
        // 0.5 · 255 = 127.5: halves go down to 127.
        #expect(list.instances(of: .additiveImage, as: ImageInstance.self).map(\.opacity.x) == [127 / 255, 127 / 255])
        #expect(list.batches.compactMap(\.texture?.image) == [.offscreenPass(2)])
    }

    @Test func extremeGeometryNeverTraps() throws {
        // A contentsRect of 10^30 image widths puts the image far beyond any display: nothing is drawn.
        // An empty contentsRect shows nothing either. Neither may trap in the builder.
        let images: [UInt64: ContentsImage] = [5: ContentsImage(image: Self.imageA, width: 8, height: 8)]
        for rect in [CGRect(x: 0, y: 0, width: 1e30, height: 1), CGRect(x: 0.5, y: 0.5, width: 0, height: 0)] {
            let list = try Self.build(
                Self.layer(
                    2, frame: CGRect(x: 0, y: 0, width: 64, height: 64),
                    [
                        .contentsRect(rect), .contentsGravity(.center),
                    ]), children: [2], contents: [2: 5], images: images)
            #expect(list.batches.isEmpty, "\(rect)")
        }
    }
}
