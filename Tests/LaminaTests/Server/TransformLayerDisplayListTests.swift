// The server's side of CATransformLayer: the BSP sort and split of faces (DepthSort), the pixel rows
// that draw a split piece, and what the builder emits for a transform layer.
import Foundation
import LaminaProtocol
import Testing

@testable import LaminaCore
@testable import LaminaServer

@Suite struct TransformLayerDisplayListTests {
    typealias V = SIMD3<Double>

    /// A square of side `2 × half` about `centre`, in the plane spanned by `u` and `v`.
    static func square(_ face: Int, centre: V, u: V, v: V, half: Double = 1) -> DepthPolygon {
        DepthPolygon(
            face: face,
            vertices: [
                centre - u * half - v * half, centre + u * half - v * half, centre + u * half + v * half,
                centre - u * half + v * half,
            ])!
    }

    // MARK: DepthSort

    /// Two parallel squares are ordered far (low z) to near whatever order they come in, unsplit.
    @Test(arguments: [false, true])
    func parallelPlanesAreOrderedFarToNear(reversed: Bool) {
        let near = Self.square(0, centre: V(0, 0, 5), u: V(1, 0, 0), v: V(0, 1, 0))
        let far = Self.square(1, centre: V(0.5, 0, -5), u: V(1, 0, 0), v: V(0, 1, 0))
        let result = DepthSort.sort(reversed ? [far, near] : [near, far], maxPieces: 16)
        #expect(result.exact)
        #expect(result.pieces.map(\.face) == [1, 0])
        #expect(result.pieces.allSatisfy { $0.cuts.isEmpty })
    }

    /// Two squares crossing at 90° along the y axis: the second is split in two by the first's plane,
    /// and the pieces come back to front: the part behind the root, the root, the part in front.
    @Test func crossingPlanesSplitTheSecondAlongTheFirst() {
        let s = 0.5.squareRoot()
        let a = Self.square(0, centre: .zero, u: V(s, 0, s), v: V(0, 1, 0))
        let b = Self.square(1, centre: .zero, u: V(s, 0, -s), v: V(0, 1, 0))
        let result = DepthSort.sort([a, b], maxPieces: 16)
        #expect(result.exact)
        #expect(result.pieces.map(\.face) == [1, 0, 1])
        let (back, front) = (result.pieces[0], result.pieces[2])
        #expect(back.cuts.count == 1 && front.cuts.count == 1)
        #expect(back.cuts[0].keepsFront != front.cuts[0].keepsFront)
        // The piece drawn first is the farther: its centroid lies lower in z.
        #expect(back.centroid.z < front.centroid.z)
        // Each piece is a rectangle (4 vertices), half of the square.
        #expect(back.vertices.count == 4 && front.vertices.count == 4)
    }

    /// A cube's faces meet only along edges: no face is split (a vertex on a plane counts as on it),
    /// and the three faces turned toward the viewer come after the three turned away.
    @Test func aCubeSortsWithoutSplits() {
        // A cube seen from a corner: rotate the axes so that no face is edge-on.
        let r = CATransform3DConcat(CATransform3DMakeRotation(0.5, 0, 1, 0), CATransform3DMakeRotation(-0.4, 1, 0, 0))
        func turn(_ p: V) -> V {
            let t = r.transform(x: CGFloat(p.x), y: CGFloat(p.y), z: CGFloat(p.z))
            return V(Double(t.x), Double(t.y), Double(t.z))
        }
        let axes: [(V, V, V)] = [
            (V(0, 0, 1), V(1, 0, 0), V(0, 1, 0)), (V(0, 0, -1), V(1, 0, 0), V(0, 1, 0)),
            (V(1, 0, 0), V(0, 0, 1), V(0, 1, 0)), (V(-1, 0, 0), V(0, 0, 1), V(0, 1, 0)),
            (V(0, 1, 0), V(1, 0, 0), V(0, 0, 1)), (V(0, -1, 0), V(1, 0, 0), V(0, 0, 1)),
        ]
        let faces = axes.enumerated().map { i, axis in
            Self.square(i, centre: turn(axis.0 * 100), u: turn(axis.1), v: turn(axis.2), half: 100)
        }
        for order in [Array(0..<6), [5, 3, 1, 0, 2, 4]] {
            let result = DepthSort.sort(order.map { faces[$0] }, maxPieces: 16)
            #expect(result.exact)
            #expect(result.pieces.count == 6)
            #expect(result.pieces.allSatisfy { $0.cuts.isEmpty })
            // Faces whose outward normal points toward the viewer (+z) come last.
            let facing = result.pieces.map { turn(axes[$0.face].0).z > 0 }
            #expect(facing == [false, false, false, true, true, true], "\(result.pieces.map(\.face))")
        }
    }

    /// Polygons in one plane keep the order they came in (zPosition, then sublayer order).
    @Test func coplanarPolygonsKeepTheirOrder() {
        let polygons = (0..<4).map { Self.square($0, centre: V(Double($0) * 0.3, 0, 2), u: V(1, 0, 0), v: V(0, 1, 0)) }
        #expect(DepthSort.sort(polygons, maxPieces: 16).pieces.map(\.face) == [0, 1, 2, 3])
    }

    /// Past the piece budget the sort gives up splitting: the painter's order of the centroids' depth.
    @Test func pastTheBudgetThePaintersOrder() {
        let s = 0.5.squareRoot()
        let a = Self.square(0, centre: V(0, 0, 1), u: V(s, 0, s), v: V(0, 1, 0))
        let b = Self.square(1, centre: .zero, u: V(s, 0, -s), v: V(0, 1, 0))
        let result = DepthSort.sort([a, b], maxPieces: 2)
        #expect(!result.exact)
        #expect(result.pieces.map(\.face) == [1, 0])
        #expect(result.pieces.allSatisfy { $0.cuts.isEmpty })
    }

    /// Many faces crossing one another stay within the budget, however they are arranged.
    @Test func aFanOfCrossingPlanesStaysWithinTheBudget() {
        let polygons = (0..<40).map { i -> DepthPolygon in
            let angle = Double(i) * .pi / 40
            return Self.square(i, centre: .zero, u: V(cos(angle), 0, sin(angle)), v: V(0, 1, 0), half: 50)
        }
        let result = DepthSort.sort(polygons, maxPieces: 200)
        #expect(result.pieces.count <= 200)
        #expect(Set(result.pieces.map(\.face)).count == 40)
    }

    // MARK: Pixel rows of a piece

    /// Two pieces that share a cut with opposite signs cover every pixel of the pass exactly once,
    /// whatever the line (steep, shallow, horizontal, through pixel centres).
    @Test(arguments: [
        V(1, 0.3, -12.5), V(-0.2, 1, -7), V(0, 1, -8.5), V(1, 0, -10.5), V(3, -2, 0.25), V(1, 1, -20),
    ])
    func piecesSharingACutCoverEachPixelOnce(_ line: V) {
        let rect = DamageRect(x: 2, y: 3, width: 17, height: 13)
        let one = DisplayListBuilder.pieceRows(lines: [line], in: rect)
        let other = DisplayListBuilder.pieceRows(lines: [-line], in: rect)
        var count = [Int](repeating: 0, count: 100 * 100)
        for row in one + other {
            for y in row.y0..<row.y1 { for x in row.x0..<row.x1 { count[y * 100 + x] += 1 } }
        }
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                #expect(count[y * 100 + x] == 1, "pixel (\(x), \(y)) drawn \(count[y * 100 + x]) times")
            }
        }
        // Each side is where the line says it is.
        for row in one {
            for y in row.y0..<row.y1 {
                for x in row.x0..<row.x1 {
                    #expect(line.x * (Double(x) + 0.5) + line.y * (Double(y) + 0.5) + line.z >= 0)
                }
            }
        }
    }

    /// Rows with the same span merge: a vertical cut gives one rectangle per side.
    @Test func aVerticalCutIsOneRectanglePerSide() {
        let rect = DamageRect(x: 0, y: 0, width: 20, height: 10)
        #expect(
            DisplayListBuilder.pieceRows(lines: [V(1, 0, -7.5)], in: rect)
                == [DisplayListBuilder.PieceRow(x0: 7, x1: 20, y0: 0, y1: 10)])
        #expect(
            DisplayListBuilder.pieceRows(lines: [V(-1, 0, 7.5)], in: rect)
                == [DisplayListBuilder.PieceRow(x0: 0, x1: 7, y0: 0, y1: 10)])
    }

    // MARK: The builder

    static func layer(
        _ id: LayerID, _ layerClass: LayerClass = .layer, frame: CGRect, _ extra: [LayerProperty] = []
    ) -> [LayerOperation] {
        [
            .createLayer(id, layerClass), .set(id, .bounds(CGRect(origin: .zero, size: frame.size))),
            .set(id, .position(CGPoint(x: frame.midX, y: frame.midY))),
        ] + extra.map { .set(id, $0) }
    }

    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// A transform layer's own background, border and shadow are not drawn; its faces are, in depth
    /// order (the one at z = 10 after the one at z = −10, whatever the array order).
    @Test func aTransformLayerDrawsOnlyItsFacesInDepthOrder() throws {
        let tree = try RenderTree().applying(
            Self.layer(
                1, .transform, frame: CGRect(x: 0, y: 0, width: 100, height: 100),
                [.backgroundColor(Self.red), .borderWidth(2), .borderColor(Self.red), .shadowOpacity(1)])
                + Self.layer(
                    2, frame: CGRect(x: 10, y: 10, width: 20, height: 20),
                    [.backgroundColor(Self.blue), .zPosition(10)])
                + Self.layer(
                    3, frame: CGRect(x: 15, y: 15, width: 20, height: 20),
                    [.backgroundColor(Self.red), .zPosition(-10)])
                + [.setSublayers(1, [2, 3]), .setRoot(display: 0, layer: 1)], displayCount: 1)
        let list = DisplayListBuilder.build(trees: [tree], display: 0, width: 100, height: 100)
        let fills = list.instances(of: .opaqueFill, as: FillInstance.self)
        #expect(fills.map(\.rect) == [SIMD4(15, 15, 35, 35), SIMD4(10, 10, 30, 30)])
        #expect(list.instances(of: .shadow, as: ShadowInstance.self).isEmpty)
        #expect(list.passes.isEmpty)
    }

    /// Two crossing faces: one is drawn whole, the other through one pass whose two pieces are rows
    /// of `plainImage` that never overlap; and a retained build that drew it cannot be patched.
    @Test func aSplitFaceIsDrawnThroughAPassAsRows() throws {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        let tree = try RenderTree().applying(
            Self.layer(1, frame: CGRect(x: 0, y: 0, width: 200, height: 200), [.sublayerTransform(perspective)])
                + Self.layer(2, .transform, frame: CGRect(x: 0, y: 0, width: 200, height: 200))
                + Self.layer(
                    3, frame: CGRect(x: 50, y: 50, width: 100, height: 100),
                    [.backgroundColor(Self.red), .transform(CATransform3DMakeRotation(.pi / 4, 0, 1, 0))])
                + Self.layer(
                    4, frame: CGRect(x: 50, y: 50, width: 100, height: 100),
                    [.backgroundColor(Self.blue), .transform(CATransform3DMakeRotation(-.pi / 4, 0, 1, 0))])
                + [.setSublayers(2, [3, 4]), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1)], displayCount: 1)
        let list = DisplayListBuilder.build(trees: [tree], display: 0, width: 200, height: 200)
        #expect(list.passes.count == 1)
        let rows = list.instances(of: .plainImage, as: ImageInstance.self)
        #expect(!rows.isEmpty)
        var covered = Set<Int>()
        for row in rows {
            for y in Int(row.rect.y)..<Int(row.rect.w) {
                for x in Int(row.rect.x)..<Int(row.rect.z) { #expect(covered.insert(y * 200 + x).inserted) }
            }
        }
        // The pass is sampled where it lies: the rows' pixels are the pass's own.
        #expect(covered.count == list.passes[0].rect.area)
    }

    /// The retained display list draws a transform layer in full builds only.
    @Test func aBuildWithATransformLayerIsNotPatchable() throws {
        let tree = try RenderTree().applying(
            Self.layer(1, frame: CGRect(x: 0, y: 0, width: 50, height: 50))
                + Self.layer(2, .transform, frame: CGRect(x: 0, y: 0, width: 50, height: 50))
                + Self.layer(3, frame: CGRect(x: 5, y: 5, width: 10, height: 10), [.backgroundColor(Self.red)])
                + [.setSublayers(2, [3]), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1)], displayCount: 1)
        var builder = DisplayListBuilder(
            list: DisplayList(width: 50, height: 50, clearColor: .zero), batcher: Batcher(width: 50, height: 50))
        builder.retention = DisplayListBuilder.Retention(treeCount: 1)
        builder.drawTrees([tree], display: 0, time: 0, contextIds: [])
        #expect(builder.retention?.isPatchable == false)
        #expect(builder.list.instances(of: .opaqueFill, as: FillInstance.self).count == 1)
    }

    /// A hostile tree: 2,000 faces crossing one another in one transform layer build in bounded time
    /// (past `maxTransformFaces`, the painter's order, unsplit).
    @Test func manyCrossingFacesAreBounded() throws {
        var ops = Self.layer(1, .transform, frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        var ids: [LayerID] = []
        for i in 0..<2_000 {
            let id = LayerID(10 + i)
            ids.append(id)
            ops += Self.layer(
                id, frame: CGRect(x: 50, y: 50, width: 100, height: 100),
                [.backgroundColor(Self.red), .transform(CATransform3DMakeRotation(Double(i) * 0.01, 0, 1, 0))])
        }
        ops += [.setSublayers(1, ids), .setRoot(display: 0, layer: 1)]
        let tree = try RenderTree().applying(ops, displayCount: 1)
        let start = Date()
        let list = DisplayListBuilder.build(trees: [tree], display: 0, width: 200, height: 200)
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(list.passes.isEmpty)
    }
}
