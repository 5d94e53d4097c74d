import Foundation
import Lamina
import LaminaProtocol
import Testing

@testable import LaminaServer

/// Display lists checked as data, without a renderer: the draw kinds' declarations, the instances a
/// render tree becomes, the batches' kinds and order, and the clips handed to the shape kind. Every
/// expected value is worked out by hand from the layer geometry in the test.
struct DisplayListTests {
    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// A layer with `frame` in its superlayer's coordinates (bounds at the origin) and `color`.
    static func layer(_ id: LayerID, frame: CGRect, color: RGBAColor?, _ extra: [LayerProperty] = [])
        -> [LayerOperation]
    {
        [
            .createLayer(id), .set(id, .bounds(CGRect(origin: .zero, size: frame.size))),
            .set(id, .position(CGPoint(x: frame.midX, y: frame.midY))), .set(id, .backgroundColor(color)),
        ] + extra.map { .set(id, $0) }
    }

    /// The list for a 256×256 display whose root (layer 1, the whole display, no background) has the
    /// sublayers `children`, built from `ops`.
    static func build(_ ops: [LayerOperation], children: [LayerID]) throws -> DisplayList {
        let root = layer(1, frame: CGRect(x: 0, y: 0, width: 256, height: 256), color: nil)
        let tree = try RenderTree().applying(
            root + ops + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)], displayCount: 1)
        return DisplayListBuilder.build(trees: [tree], display: 0, width: 256, height: 256)
    }

    static func fills(_ list: DisplayList, _ kind: DrawKind) -> [FillInstance] {
        list.instances(of: kind, as: FillInstance.self)
    }

    // MARK: Declarations

    @Test func kindsAreDeclaredConsistently() {
        #expect(
            DrawKind.all.map(\.name) == [
                "opaqueFill", "blendedFill", "corner", "plainImage", "image", "shape", "imageShape",
                "continuousCorner", "continuousShape", "gradient", "shadow", "maskIn", "blur", "additiveImage",
                "additiveImageShape", "blendImage", "video", "additiveVideo", "coverageFill",
            ])
        #expect(
            DrawKind.all.map(\.stride) == [
                32, 32, 80, 48, 48, 256, 256, 80, 256, 256, 208, 48, 64, 48, 256, 48, 256, 256, 64,
            ])
        #expect(
            DrawKind.all.map(\.attributes.count) == [2, 2, 5, 2, 3, 16, 16, 5, 16, 16, 13, 3, 4, 3, 16, 3, 16, 16, 4])
        #expect(
            DrawKind.all.map(\.linearPathCapable) == [
                true, true, false, true, true, false, false, false, false, false, false, false, false, true, false,
                false, false, false, false,
            ])
        #expect(
            DrawKind.all.map(\.samplesTexture) == [
                false, false, false, true, true, false, true, false, false, false, false, true, true, true, true,
                true, true, true, false,
            ])
        #expect(
            DrawKind.all.map(\.blend) == [
                .off, .premultipliedOver, .premultipliedOver, .premultipliedOver, .premultipliedOver,
                .premultipliedOver, .premultipliedOver, .premultipliedOver, .premultipliedOver, .premultipliedOver,
                .premultipliedOver, .destinationIn, .off, .additive, .additive, .premultipliedOver,
                .premultipliedOver, .additive, .premultipliedOver,
            ])
        // The gradient's colours and locations are packed integers (its last three attributes).
        #expect(DrawKind.gradient.attributes.suffix(3).map(\.format) == [.uint4, .uint4, .uint4])
        for (index, kind) in DrawKind.all.enumerated() {
            #expect(kind.id == index, "\(kind.name)")
            // Vulkan guarantees 16 vertex attributes; each must lie inside the instance, without overlap.
            #expect(kind.attributes.count <= 16, "\(kind.name)")
            var end = 0
            for attribute in kind.attributes {
                #expect(attribute.offset >= end, "\(kind.name): attributes overlap")
                end = attribute.offset + attribute.format.size
            }
            #expect(end <= kind.stride, "\(kind.name): attributes run past the instance")
        }
    }

    @Test func instanceBufferKeepsBytesAndReadsThemBack() {
        var buffer = InstanceBuffer(stride: 32)
        let a = FillInstance(rect: SIMD4(1, 2, 3, 4), color: SIMD4(0, 0, 0, 1))
        let b = FillInstance(rect: SIMD4(5, 6, 7, 8), color: SIMD4(1, 1, 1, 1))
        #expect(buffer.append(a) == 0)
        #expect(buffer.append(b) == 1)
        #expect(buffer.count == 2 && buffer.bytes.count == 64)
        #expect(buffer.instances(as: FillInstance.self) == [a, b])
        // The second instance's rect starts at byte 32: 5.0 as a little-endian Float.
        #expect(Array(buffer.bytes[32..<36]) == [0, 0, 0xA0, 0x40])
    }

    @Test func coloursLieOnEightBitSteps() throws {
        // 0.95 × 255 = 242.25 and 0.93 × 255 = 237.15 round to 242 and 237; 0.9 × 255 lies a hair above
        // 229.5 in double precision, so it rounds up to 230.
        let color = RGBAColor(red: 0.9, green: 0.95, blue: 0.93, alpha: 1)
        let list = try Self.build(
            Self.layer(2, frame: CGRect(x: 0, y: 0, width: 8, height: 8), color: color),
            children: [2])
        #expect(Self.fills(list, .opaqueFill).map(\.color) == [SIMD4<Float>(230, 242, 237, 255) / 255])
        #expect(color.premultipliedOnEightBitSteps(opacity: 0.5) == SIMD4<Float>(115, 121, 119, 127) / 255)
        // In single precision 0.5 × 255 = 127.5 exactly: a half, which goes down.
        #expect(FillInstance.onEightBitSteps(SIMD4(0.5, 0.25, 0, 0.5)) == SIMD4<Float>(127, 64, 0, 127) / 255)
        let fill = FillInstance(rect: .zero, color: SIMD4(0.95, 0.93, 0.2, 1))
        #expect(fill.color == SIMD4<Float>(242, 237, 51, 255) / 255)
    }

    // MARK: Instances and batches

    @Test func plainRectangleOnWholePixelsIsOneOpaqueFill() throws {
        let list = try Self.build(
            Self.layer(2, frame: CGRect(x: 10, y: 20, width: 100, height: 50), color: Self.red),
            children: [2])
        #expect(Self.fills(list, .opaqueFill) == [FillInstance(rect: SIMD4(10, 20, 110, 70), color: SIMD4(1, 0, 0, 1))])
        #expect(list.instances.map(\.count) == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(list.batches == [DrawBatch(kind: DrawKind.opaqueFill.id, instances: [0])])
    }

    @Test func roundedRectangleIsThreeBandsAndFourCorners() throws {
        let list = try Self.build(
            Self.layer(2, frame: CGRect(x: 10, y: 20, width: 100, height: 60), color: Self.red, [.cornerRadius(8)]),
            children: [2])
        // The grid lines lie 8 px in from each edge: x 18 and 102, y 28 and 72.
        #expect(
            Self.fills(list, .opaqueFill).map(\.rect) == [
                SIMD4(18, 20, 102, 28), SIMD4(18, 72, 102, 80), SIMD4(10, 28, 110, 72),
            ])
        let corners = list.instances(of: .corner, as: CornerInstance.self)
        #expect(
            corners.map(\.rect) == [
                SIMD4(10, 20, 18, 28), SIMD4(102, 20, 110, 28), SIMD4(10, 72, 18, 80), SIMD4(102, 72, 110, 80),
            ])
        // Centre (60, 50), half size (50, 30), radius 8, no border, all four corners (mask 15).
        for corner in corners {
            #expect(corner.shape == SIMD4(60, 50, 50, 30))
            #expect(corner.params == SIMD4(8, 0, 15, 1))
            #expect(corner.fill == SIMD4(1, 0, 0, 1) && corner.border == .zero)
        }
        // The pieces are disjoint, so nothing forces a later batch: fills first, then corners.
        #expect(
            list.batches == [
                DrawBatch(kind: DrawKind.opaqueFill.id, instances: [0, 1, 2]),
                DrawBatch(kind: DrawKind.corner.id, instances: [0, 1, 2, 3]),
            ])
    }

    @Test func halfCoveredEdgesAreBlendedFillsWithScaledColour() throws {
        // x from 10.5 to 30.5: columns 10 and 30 are half covered.
        let list = try Self.build(
            Self.layer(2, frame: CGRect(x: 10.5, y: 20, width: 20, height: 10), color: Self.red),
            children: [2])
        let half = SIMD4<Float>(127, 0, 0, 127) / 255
        #expect(Self.fills(list, .opaqueFill) == [FillInstance(rect: SIMD4(11, 20, 30, 30), color: SIMD4(1, 0, 0, 1))])
        #expect(
            Self.fills(list, .blendedFill) == [
                FillInstance(rect: SIMD4(10, 20, 11, 30), color: half),
                FillInstance(rect: SIMD4(30, 20, 31, 30), color: half),
            ])
        #expect(
            list.batches == [
                DrawBatch(kind: DrawKind.opaqueFill.id, instances: [0]),
                DrawBatch(kind: DrawKind.blendedFill.id, instances: [0, 1]),
            ])
    }

    @Test func batchesKeepPaintOrderOnlyWhereLayersOverlap() throws {
        let translucent = RGBAColor(red: 0, green: 1, blue: 0, alpha: 0.5)
        var ops = Self.layer(2, frame: CGRect(x: 0, y: 0, width: 32, height: 32), color: Self.red)
        ops += Self.layer(3, frame: CGRect(x: 16, y: 16, width: 32, height: 32), color: translucent)
        ops += Self.layer(4, frame: CGRect(x: 40, y: 40, width: 32, height: 32), color: Self.blue)
        ops += Self.layer(5, frame: CGRect(x: 200, y: 200, width: 32, height: 32), color: Self.blue)
        let list = try Self.build(ops, children: [2, 3, 4, 5])
        // Opaque instances in paint order: layer 2, 4, 5. Layer 4 overlaps the translucent layer 3, so it
        // must come after it; layer 5 overlaps nothing and joins the first opaque batch.
        #expect(
            Self.fills(list, .opaqueFill).map(\.rect) == [
                SIMD4(0, 0, 32, 32), SIMD4(40, 40, 72, 72), SIMD4(200, 200, 232, 232),
            ])
        // (0, 1, 0) at alpha 0.5, premultiplied: 0.5 × 255 = 127.5, a half, goes down to 127.
        let green = FillInstance(rect: SIMD4(16, 16, 48, 48), color: SIMD4<Float>(0, 127, 0, 127) / 255)
        #expect(Self.fills(list, .blendedFill) == [green])
        #expect(
            list.batches == [
                DrawBatch(kind: DrawKind.opaqueFill.id, instances: [0, 2]),
                DrawBatch(kind: DrawKind.blendedFill.id, instances: [0]),
                DrawBatch(kind: DrawKind.opaqueFill.id, instances: [1]),
            ])
        #expect(list.instanceCount == 4)
    }

    /// The batcher's cycle works for any number of kinds: with five, batch b holds kind b % 5.
    @Test func batcherCyclesThroughAnyNumberOfKinds() {
        var batcher = Batcher(width: 64, height: 64, kindCount: 5)
        let cornerCell = CGRect(x: 0, y: 0, width: 16, height: 16)
        batcher.add(4, index: 0, box: cornerCell)  // batch 4, the first that holds kind 4
        batcher.endGroup()
        batcher.add(0, index: 0, box: cornerCell)  // after batch 4: batch 5 holds kind 0
        batcher.endGroup()
        batcher.add(4, index: 1, box: CGRect(x: 32, y: 32, width: 16, height: 16))  // overlaps nothing: batch 4
        batcher.endGroup()
        batcher.add(2, index: 0, box: cornerCell)  // after batch 5: batch 7 holds kind 2
        batcher.endGroup()
        batcher.add(2, index: 1, box: cornerCell)  // over its own kind only: joins batch 7
        #expect(
            batcher.finish() == [
                DrawBatch(kind: 4, instances: [0, 1]), DrawBatch(kind: 0, instances: [0]),
                DrawBatch(kind: 2, instances: [0, 1]),
            ])
    }

    /// Boxes far outside the grid, or not finite, land in the edge cells instead of trapping when they
    /// become cell indices (issue 9's audit of Double-to-Int conversions on client-controlled values).
    @Test func batcherClampsBoxesOfAnySize() {
        var batcher = Batcher(width: 64, height: 64, kindCount: 4)
        let boxes = [
            CGRect(x: -1e300, y: -1e300, width: 2e300, height: 2e300), CGRect(x: 1e30, y: 5, width: 1, height: 1),
            CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10), CGRect(x: -1e19, y: -1e19, width: 5, height: 5),
        ]
        for (i, box) in boxes.enumerated() {
            batcher.add(0, index: i, box: box)
            batcher.endGroup()
        }
        // Every box touches cell (0, 0) or lies in the last column, so all four share batch 0 of kind 0.
        #expect(batcher.finish() == [DrawBatch(kind: 0, instances: [0, 1, 2, 3])])
        #expect(Batcher.cell(1e300, last: 3) == 3)
        #expect(Batcher.cell(-1e300, last: 3) == 0)
        #expect(Batcher.cell(CGFloat.nan, last: 3) == 0)
        #expect(Batcher.cell(47.9, last: 3) == 2)
    }

    /// A colour an animation computed as NaN or infinite is drawn as a clamped value instead of
    /// trapping where it becomes an integer step (found by the trap audit, issue 9).
    @Test func colourStepsTakeNonFiniteValues() {
        let odd = SIMD4<Float>(.nan, .infinity, -.infinity, 0.5)
        #expect(FillInstance.onEightBitSteps(odd) == SIMD4<Float>(0, 255, 0, 127) / 255)
        let nanRed = RGBAColor(red: .nan, green: 0.5, blue: 1, alpha: 1)
        #expect(nanRed.premultipliedOnEightBitSteps() == SIMD4<Float>(0, 127, 255, 255) / 255)
        #expect(RGBAColor.black.premultipliedOnEightBitSteps(opacity: .nan) == SIMD4<Float>(0, 0, 0, 0))
    }

    // MARK: Clips

    @Test func squareMaskCutsSublayersToItsDeviceRectangle() throws {
        var ops = Self.layer(2, frame: CGRect(x: 10, y: 10, width: 50, height: 50), color: nil, [.masksToBounds(true)])
        ops += Self.layer(3, frame: CGRect(x: 30, y: 30, width: 100, height: 100), color: Self.blue)
        ops += [.setSublayers(2, [3])]
        let list = try Self.build(ops, children: [2])
        // The child spans 40...140 on the device; the mask ends at 60.
        #expect(Self.fills(list, .opaqueFill).map(\.rect) == [SIMD4(40, 40, 60, 60)])
        #expect(list.instances.map(\.count) == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func roundedMaskBecomesAGeneralClipOnShapes() throws {
        var ops = Self.layer(
            2, frame: CGRect(x: 10, y: 10, width: 50, height: 50), color: nil,
            [.masksToBounds(true), .cornerRadius(10)])
        ops += Self.layer(3, frame: CGRect(x: 30, y: 30, width: 100, height: 100), color: Self.blue)
        ops += [.setSublayers(2, [3])]
        let list = try Self.build(ops, children: [2])
        #expect(list.instances.map(\.count) == [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        let shapes = list.instances(of: .shape, as: ShapeInstance.self)
        let shape = try #require(shapes.first)
        // The child's plane is the device moved by (40, 40); its quad is its bounds grown by 1.5 px.
        #expect(shape.row1 == SIMD4(1, 0, 0, 0) && shape.row2 == SIMD4(0, 1, 0, 0))
        #expect(shape.row4 == SIMD4(40, 40, 0, 1))
        #expect(shape.piece == SIMD4(-1.5, -1.5, 101.5, 101.5))
        #expect(shape.shapeRect == SIMD4(0, 0, 100, 100))
        #expect(shape.shapeParams == SIMD4(0, 0, 15, 1), "radius, border, mask, one general clip")
        #expect(shape.color == SIMD4(0, 0, 1, 1))
        // The mask's device box narrows the device clip; the clip maps device pixels into the mask's
        // plane (a move by (-10, -10)) and carries its radius in row0.w.
        #expect(shape.deviceClip == SIMD4(10, 10, 60, 60))
        #expect(
            shape.clipA
                == ShapeClip(
                    row0: SIMD4(1, 0, 0, 10), row1: SIMD4(0, 1, 0, 0), row2: SIMD4(-10, -10, 1, 0),
                    rect: SIMD4(0, 0, 50, 50)))
        #expect(list.batches == [DrawBatch(kind: DrawKind.shape.id, instances: [0])])
    }
}
