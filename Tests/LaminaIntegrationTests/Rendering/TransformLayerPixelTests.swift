import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// CATransformLayer drawn through the Vulkan renderer: faces sorted in 3-D and split where they
/// cross, every expected pixel computed in the test from the geometry (`TransformLayerGeometry`: the
/// point taken back onto each face's plane, the nearest face wins). Sources: Apple's CATransformLayer
/// reference ("used to create true 3D layer hierarchies, rather than the flattened hierarchy
/// rendering model used by other layer types"; "opacity is applied to each sublayer individually";
/// backgroundColor, contents, border and shadow are ignored), spec §1.7, §3.5, E28 and E29.
@Suite struct TransformLayerPixelTests: PixelTestSuite {
    typealias Geometry = TransformLayerGeometry
    static let background = SIMD4<Double>(0.2, 0.2, 0.2, 1)

    static func render(
        _ ops: [LayerOperation], width: Int, height: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bitmap {
        let clear = SIMD4<Float>(Float(background.x), Float(background.y), Float(background.z), 1)
        return try renderOperations(ops, width: width, height: height, clear: clear, sourceLocation: sourceLocation)
    }

    static func rgba(_ c: SIMD4<Double>) -> RGBAColor {
        // Premultiplied in the geometry, straight on the wire.
        RGBAColor(red: c.x / c.w, green: c.y / c.w, blue: c.z / c.w, alpha: c.w)
    }

    // MARK: E29's cube

    static let cubeColors: [SIMD4<Double>] = [
        SIMD4(1, 0, 0, 1), SIMD4(0, 1, 0, 1), SIMD4(0, 0, 1, 1), SIMD4(1, 1, 0, 1), SIMD4(1, 0, 1, 1),
        SIMD4(0, 1, 1, 1),
    ]

    /// E29's six face transforms, face *i* 200×200 centred in the container.
    static let cubeTransforms: [CATransform3D] = [
        CATransform3DMakeTranslation(0, 0, 100),
        CATransform3DRotate(CATransform3DMakeTranslation(100, 0, 0), .pi / 2, 0, 1, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, -100, 0), .pi / 2, 1, 0, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, 100, 0), -.pi / 2, 1, 0, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(-100, 0, 0), -.pi / 2, 0, 1, 0),
        CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -100), .pi, 0, 1, 0),
    ]

    /// E29's container `sublayerTransform`: m34 = −1/500, then −π/4 about x and −π/4 about y (or the
    /// angles given).
    static func cubeView(x: CGFloat, y: CGFloat) -> CATransform3D {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        perspective = CATransform3DRotate(perspective, x, 1, 0, 0)
        return CATransform3DRotate(perspective, y, 0, 1, 0)
    }

    /// The cube's operations: a 400×400 container (layer 1) with the view as its `sublayerTransform`,
    /// holding a transform layer (2, or an ordinary layer when `transformLayer` is false) the size of
    /// the container, holding the six faces (10...15) in `order`.
    static func cubeOps(
        view: CATransform3D, colors: [SIMD4<Double>] = cubeColors, order: [Int] = Array(0..<6),
        doubleSided: Bool = true, transformLayer: Bool = true
    ) -> [LayerOperation] {
        var ops = layer(1, frame: CGRect(x: 0, y: 0, width: 400, height: 400), [.sublayerTransform(view)])
        ops += layer(2, transformLayer ? .transform : .layer, frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        for i in 0..<6 {
            ops += layer(
                10 + LayerID(i), frame: CGRect(x: 100, y: 100, width: 200, height: 200),
                [.transform(cubeTransforms[i]), .backgroundColor(rgba(colors[i])), .isDoubleSided(doubleSided)])
        }
        return ops + [
            .setSublayers(2, order.map { 10 + LayerID($0) }), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1),
        ]
    }

    /// The cube's faces for the geometry: the container at the device origin, the transform layer with
    /// no transform of its own.
    static func cubeFaces(
        view: CATransform3D, colors: [SIMD4<Double>] = cubeColors, doubleSided: Bool = true
    ) -> [Geometry.Face] {
        let size = CGSize(width: 400, height: 400)
        let container = Geometry.aboutAnchor(view, size: size)
        return (0..<6).map { i in
            let face = Geometry.toSuperlayer(
                size: CGSize(width: 200, height: 200), position: CGPoint(x: 200, y: 200), transform: cubeTransforms[i])
            return Geometry.Face(
                matrix: CATransform3DConcat(face, container), bounds: CGRect(x: 0, y: 0, width: 200, height: 200),
                color: colors[i], doubleSided: doubleSided)
        }
    }

    /// Compares `bitmap` with the geometry's colour on a grid of points away from edges; returns the
    /// faces seen nearest at those points.
    @discardableResult
    static func expectMatchesGeometry(
        _ bitmap: Bitmap, _ faces: [Geometry.Face], width: Int, height: Int, step: Int = 7, tolerance: Int = 1,
        _ note: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Set<Int> {
        var seen = Set<Int>()
        var checked = 0, wrong: [String] = []
        for y in stride(from: 3, to: height - 3, by: step) {
            for x in stride(from: 3, to: width - 3, by: step) {
                let p = CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                guard let want = Geometry.expectedColor(at: p, faces, background: background) else { continue }
                checked += 1
                if let nearest = Geometry.facesUnder(p, faces).first { seen.insert(nearest) }
                let got = pixel(bitmap, x, y)
                if !zip(got, want).allSatisfy({ abs($0 - $1) <= tolerance }) {
                    wrong.append("(\(x), \(y)): \(got) vs \(want)")
                }
            }
        }
        #expect(checked > 500, "\(note): only \(checked) points checked", sourceLocation: sourceLocation)
        #expect(
            wrong.isEmpty, "\(note): \(wrong.count) of \(checked) wrong: \(wrong.prefix(8))",
            sourceLocation: sourceLocation)
        return seen
    }

    /// E29 from the corner and from three other views: at every point checked, the nearest face's
    /// colour; the same picture whatever the order of the faces among the transform layer's
    /// sublayers (their order only breaks ties, and no two faces tie in depth where both show).
    @Test(arguments: [
        (-CGFloat.pi / 4, -CGFloat.pi / 4), (0.3, 2.5), (-1.0, 3.9), (0.5, -0.4), (0, 0),
    ])
    func cubeShowsTheNearestFaceFromEveryView(_ x: CGFloat, _ y: CGFloat) throws {
        let view = Self.cubeView(x: x, y: y)
        let faces = Self.cubeFaces(view: view)
        let forward = try Self.render(Self.cubeOps(view: view), width: 400, height: 400)
        let seen = Self.expectMatchesGeometry(forward, faces, width: 400, height: 400, "view (\(x), \(y))")
        if x != 0 || y != 0 { #expect(seen.count >= 2, "view (\(x), \(y)) shows faces \(seen)") }
        let reversed = try Self.render(
            Self.cubeOps(view: view, order: Array((0..<6).reversed())), width: 400, height: 400)
        Self.expectMatchesGeometry(reversed, faces, width: 400, height: 400, "view (\(x), \(y)), faces reversed")
    }

    /// E29 seen from the corner shows faces 0, 1 and 2 (the front, right and top), not 3, 4 or 5.
    @Test func e29FromTheCornerShowsFacesZeroOneAndTwo() throws {
        let view = Self.cubeView(x: -.pi / 4, y: -.pi / 4)
        let faces = Self.cubeFaces(view: view)
        let bitmap = try Self.render(Self.cubeOps(view: view, order: [5, 4, 3, 2, 1, 0]), width: 400, height: 400)
        let seen = Self.expectMatchesGeometry(bitmap, faces, width: 400, height: 400, "E29")
        #expect(seen == [0, 1, 2])
    }

    /// The same faces in an ordinary layer are flattened into it and painted in sublayer order, as Core
    /// Animation paints a plain layer's sublayers (zPosition, then array order): face 5, the back, is
    /// drawn last and covers the front at the cube's centre. In a transform layer the front shows.
    @Test func anOrdinaryLayerPaintsInOrderWhereATransformLayerSorts() throws {
        let view = Self.cubeView(x: -.pi / 4, y: -.pi / 4)
        let flat = try Self.render(Self.cubeOps(view: view, transformLayer: false), width: 400, height: 400)
        let sorted = try Self.render(Self.cubeOps(view: view), width: 400, height: 400)
        // Flattened, every face is a square about the layer's anchor, which stays at (200, 200); the
        // back face (cyan), last, covers the rest there.
        #expect(Self.pixel(flat, 200, 200) == [0, 255, 255, 255], "the back face (cyan) painted last")
        // Sorted, the face nearest there shows, not the back.
        let faces = Self.cubeFaces(view: view)
        let nearest = try #require(Geometry.facesUnder(CGPoint(x: 200.5, y: 200.5), faces).first)
        #expect(nearest != 5)
        let c = Self.cubeColors[nearest]
        #expect(Self.pixel(sorted, 200, 200) == [c.x, c.y, c.z, c.w].map { Int($0 * 255) }, "face \(nearest)")
    }

    /// Translucent faces composite far to near, so the order must be right everywhere; with
    /// `isDoubleSided` false the faces turned away are not drawn at all (E28).
    @Test(arguments: [true, false])
    func translucentCubeCompositesInDepthOrder(doubleSided: Bool) throws {
        let view = Self.cubeView(x: 0.35, y: 0.6)
        let colors = Self.cubeColors.map { SIMD4($0.x * 0.5, $0.y * 0.5, $0.z * 0.5, 0.5) }
        let faces = Self.cubeFaces(view: view, colors: colors, doubleSided: doubleSided)
        let bitmap = try Self.render(
            Self.cubeOps(view: view, colors: colors, order: [3, 0, 5, 1, 4, 2], doubleSided: doubleSided),
            width: 400, height: 400)
        Self.expectMatchesGeometry(
            bitmap, faces, width: 400, height: 400, tolerance: 3, "translucent, double-sided \(doubleSided)")
        // Through the middle of the cube: two faces with both sides drawn, one when the backs are not.
        let under = Geometry.facesUnder(CGPoint(x: 200.5, y: 200.5), faces)
        #expect(under.count == (doubleSided ? 2 : 1))
    }

    // MARK: Crossing planes

    /// Two 200×120 planes through the same centre, turned +π/4 and −π/4 about y (90° apart), under a
    /// shared perspective: on one side of the line where they cross one is in front, on the other side
    /// the other; each pixel shows exactly one of them, the nearest, in either sublayer order.
    @Test(arguments: [[10, 11] as [LayerID], [11, 10]])
    func crossingPlanesAreSplitWhereTheyMeet(_ order: [LayerID]) throws {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        let size = CGSize(width: 400, height: 300)
        let red = SIMD4<Double>(1, 0, 0, 1), blue = SIMD4<Double>(0, 0, 1, 1)
        let turns: [CGFloat] = [.pi / 4, -.pi / 4]
        var ops = Self.layer(1, frame: CGRect(origin: .zero, size: size), [.sublayerTransform(perspective)])
        ops += Self.layer(2, .transform, frame: CGRect(origin: .zero, size: size))
        for (i, color) in [red, blue].enumerated() {
            ops += Self.layer(
                10 + LayerID(i), frame: CGRect(x: 100, y: 90, width: 200, height: 120),
                [.transform(CATransform3DMakeRotation(turns[i], 0, 1, 0)), .backgroundColor(Self.rgba(color))])
        }
        ops += [.setSublayers(2, order), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1)]
        let bitmap = try Self.render(ops, width: 400, height: 300)
        let container = Geometry.aboutAnchor(perspective, size: size)
        let faces = [red, blue].enumerated().map { i, color in
            Geometry.Face(
                matrix: CATransform3DConcat(
                    Geometry.toSuperlayer(
                        size: CGSize(width: 200, height: 120), position: CGPoint(x: 200, y: 150),
                        transform: CATransform3DMakeRotation(turns[i], 0, 1, 0)), container),
                bounds: CGRect(x: 0, y: 0, width: 200, height: 120), color: color)
        }
        Self.expectMatchesGeometry(bitmap, faces, width: 400, height: 300, step: 3, "order \(order)")
        // Left and right of the crossing (x = 200), the nearest face differs.
        let left = Geometry.facesUnder(CGPoint(x: 170.5, y: 150.5), faces).first
        let right = Geometry.facesUnder(CGPoint(x: 230.5, y: 150.5), faces).first
        #expect(left != nil && right != nil && left != right)
        #expect(Self.pixel(bitmap, 170, 150) == (left == 0 ? [255, 0, 0, 255] : [0, 0, 255, 255]))
        #expect(Self.pixel(bitmap, 230, 150) == (right == 0 ? [255, 0, 0, 255] : [0, 0, 255, 255]))
        // Along rows through the crossing, every pixel where both planes are is pure red or pure blue:
        // the cut is a hard edge, with no seam and nothing drawn twice.
        for y in [110, 150, 190] {
            for x in 150..<250 {
                let p = pixel(bitmap, x, y)
                #expect(p == [255, 0, 0, 255] || p == [0, 0, 255, 255], "(\(x), \(y)): \(p)")
            }
        }
    }

    func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [Int] { Self.pixel(b, x, y) }

    // MARK: Flattening, ignored properties, opacity

    /// A transform layer inside an ordinary layer is flattened at that layer (Apple: "the transform
    /// layer's sublayers are flattened into the plane of the nearest ordinary ancestor"): a face 80
    /// points in front of its transform layer, inside an ordinary layer turned π/3 about y, lies in
    /// that layer's plane, where the ordinary layer's own centre projects, not 80 points off it.
    @Test func aTransformLayerInsideAnOrdinaryLayerFlattensThere() throws {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        let size = CGSize(width: 400, height: 300)
        let turn = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
        let ops =
            Self.layer(1, frame: CGRect(origin: .zero, size: size), [.sublayerTransform(perspective)])
            + Self.layer(2, .transform, frame: CGRect(origin: .zero, size: size))
            + Self.layer(
                3, frame: CGRect(x: 100, y: 75, width: 200, height: 150),
                [.transform(turn), .backgroundColor(Self.rgba(SIMD4(0.4, 0.4, 0.4, 1)))])
            + Self.layer(4, .transform, frame: CGRect(x: 0, y: 0, width: 200, height: 150))
            + Self.layer(
                5, frame: CGRect(x: 70, y: 45, width: 60, height: 60),
                [.transform(CATransform3DMakeTranslation(0, 0, 80)), .backgroundColor(Self.rgba(SIMD4(0, 1, 0, 1)))])
            + [
                .setSublayers(4, [5]), .setSublayers(3, [4]), .setSublayers(2, [3]), .setSublayers(1, [2]),
                .setRoot(display: 0, layer: 1),
            ]
        let bitmap = try Self.render(ops, width: 400, height: 300)
        // The ordinary layer's plane to the device (its transform layer keeps depth, the container
        // flattens).
        let ordinary = CATransform3DConcat(
            Geometry.toSuperlayer(
                size: CGSize(width: 200, height: 150), position: CGPoint(x: 200, y: 150), transform: turn),
            Geometry.aboutAnchor(perspective, size: size))
        func device(_ m: CATransform3D, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> (Int, Int) {
            let p = m.transform(x: x, y: y, z: z)
            return (Int((p.x / p.w).rounded(.down)), Int((p.y / p.w).rounded(.down)))
        }
        let flattened = device(ordinary, 100, 75, 0)
        let inDepth = device(ordinary, 100, 75, 80)
        #expect(abs(flattened.0 - inDepth.0) > 40, "the two places are apart: \(flattened) \(inDepth)")
        #expect(Self.pixel(bitmap, flattened.0, flattened.1) == [0, 255, 0, 255], "the face in the layer's plane")
        #expect(Self.pixel(bitmap, inDepth.0, inDepth.1) != [0, 255, 0, 255], "not where depth would put it")
    }

    /// A transform layer draws nothing of its own (background, border, shadow, and its masksToBounds
    /// does not clip), and its opacity multiplies each sublayer on its own: where two half-covered
    /// faces overlap, the far one shows through the near one (no group).
    @Test func ownPropertiesAreIgnoredAndOpacityAppliesPerFace() throws {
        let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
        let ops =
            Self.layer(1, frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            + Self.layer(
                2, .transform, frame: CGRect(x: 10, y: 10, width: 40, height: 40),
                [
                    .backgroundColor(RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)), .borderWidth(4),
                    .borderColor(red), .shadowOpacity(1), .masksToBounds(true), .opacity(0.5),
                ])
            + Self.layer(
                3, frame: CGRect(x: 20, y: 20, width: 40, height: 40),
                [.backgroundColor(red), .zPosition(-1)])
            + Self.layer(
                4, frame: CGRect(x: 30, y: 30, width: 40, height: 40),
                [.backgroundColor(RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)), .zPosition(5)])
            + [.setSublayers(2, [4, 3]), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1)]
        let bitmap = try Self.render(ops, width: 100, height: 100)
        // The transform layer covers 10..<50; the red face 30..<70 (behind), the blue 40..<80.
        let grey = 51  // the 0.2 background
        #expect(Self.pixel(bitmap, 15, 15) == [grey, grey, grey, 255], "no background, border or shadow")
        // Red alone at half over the grey: (153, 25, 25).
        let redOnly = Self.pixel(bitmap, 35, 35)
        #expect(abs(redOnly[0] - 153) <= 2 && abs(redOnly[1] - 25) <= 2 && abs(redOnly[2] - 25) <= 2, "\(redOnly)")
        // Blue at half over that: (76, 13, 140). As a group it would be blue at half over grey: (25, 25, 153).
        let both = Self.pixel(bitmap, 45, 45)
        #expect(abs(both[0] - 76) <= 3 && abs(both[1] - 13) <= 3 && abs(both[2] - 140) <= 3, "\(both)")
        // Outside the transform layer's bounds the faces still draw (masksToBounds does not clip).
        let past = Self.pixel(bitmap, 75, 75)
        #expect(abs(past[0] - 25) <= 2 && abs(past[2] - 153) <= 2, "the near face past the bounds: \(past)")
    }

    /// E28 in a transform layer: a face turned π about y is a mirror image when double-sided, and not
    /// drawn when single-sided.
    @Test(arguments: [true, false])
    func e28BackFaceInATransformLayer(doubleSided: Bool) throws {
        let ops =
            Self.layer(1, frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            + Self.layer(2, .transform, frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            + Self.layer(
                3, frame: CGRect(x: 20, y: 20, width: 60, height: 60),
                [
                    .transform(CATransform3DMakeRotation(.pi, 0, 1, 0)), .isDoubleSided(doubleSided),
                    .backgroundColor(RGBAColor(red: 0, green: 1, blue: 0, alpha: 1)),
                ])
            + [.setSublayers(2, [3]), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1)]
        let bitmap = try Self.render(ops, width: 100, height: 100)
        #expect(Self.pixel(bitmap, 50, 50) == (doubleSided ? [0, 255, 0, 255] : [51, 51, 51, 255]))
    }
}
