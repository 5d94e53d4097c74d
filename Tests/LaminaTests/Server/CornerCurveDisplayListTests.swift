import Foundation
import Lamina
import LaminaProtocol
import Testing

@testable import LaminaServer

/// The display list of continuous corners and flipped geometry, checked as data (issue 10, point 2).
/// Expected values are worked out by hand from the layer geometry beside each check.
struct CornerCurveDisplayListTests {
    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)

    @Test func continuousCornersReachFurtherAndCarryTheFlag() throws {
        // A 100 × 60 red layer at (10, 20) with radius 8: continuous corners reach 8 × 1.528665 =
        // 12.23 px along each edge (Apple's cornerCurveExpansionFactor), so the grid lines lie
        // ceil/floor of 12.23 in: x 23 and 97, y 33 and 67 (circular: 18/102 and 28/72).
        let list = try DisplayListTests.build(
            DisplayListTests.layer(
                2, frame: CGRect(x: 10, y: 20, width: 100, height: 60), color: Self.red,
                [.cornerRadius(8), .cornerCurve(.continuous)]),
            children: [2])
        let corners = list.instances(of: .continuousCorner, as: CornerInstance.self)
        #expect(
            corners.map(\.rect) == [
                SIMD4(10, 20, 23, 33), SIMD4(97, 20, 110, 33), SIMD4(10, 67, 23, 80), SIMD4(97, 67, 110, 80),
            ])
        // Radius 8, no border, all four corners plus the continuous flag (16): 31.
        for corner in corners { #expect(corner.params == SIMD4(8, 0, 31, 1)) }
        // Continuous pieces have a draw kind of their own; the plain corner kind stays empty (its
        // shader is the fast one on lavapipe), and a circular layer uses only that.
        #expect(list.instances(of: .corner, as: CornerInstance.self).isEmpty)
        let circular = try DisplayListTests.build(
            DisplayListTests.layer(
                2, frame: CGRect(x: 10, y: 20, width: 100, height: 60), color: Self.red, [.cornerRadius(8)]),
            children: [2])
        #expect(circular.instances(of: .corner, as: CornerInstance.self).count == 4)
        #expect(circular.instances(of: .continuousCorner, as: CornerInstance.self).isEmpty)
        #expect(
            DisplayListTests.fills(list, .opaqueFill).map(\.rect) == [
                SIMD4(23, 20, 97, 33), SIMD4(23, 67, 97, 80), SIMD4(10, 33, 110, 67),
            ])
    }

    @Test func continuousReachStopsAtHalfTheShorterSide() throws {
        // Radius 15 on a 100 × 40 layer at (0, 0): 15 × 1.528665 = 22.9 exceeds half the height (20),
        // so the corners reach 20 px: the vertical grid lines meet (y 20 and 20) and the shape is cut
        // only along x, at 20 and 80, which is too little for the 3 × 3 cut: one piece.
        let list = try DisplayListTests.build(
            DisplayListTests.layer(
                2, frame: CGRect(x: 0, y: 0, width: 100, height: 40), color: Self.red,
                [.cornerRadius(15), .cornerCurve(.continuous)]),
            children: [2])
        let corners = list.instances(of: .continuousCorner, as: CornerInstance.self)
        #expect(corners.map(\.rect) == [SIMD4(0, 0, 100, 40)])
        #expect(corners.first?.params == SIMD4(15, 0, 31, 1))
    }

    @Test func mirroredCornerMaskKeepsTheFlag() throws {
        // A horizontal flip swaps the min-x and max-x corners (mask 1 → 2) and keeps the flag: 18.
        let list = try DisplayListTests.build(
            DisplayListTests.layer(
                2, frame: CGRect(x: 10, y: 10, width: 100, height: 100), color: Self.red,
                [
                    .cornerRadius(10), .cornerCurve(.continuous), .maskedCorners(.layerMinXMinYCorner),
                    .transform(CATransform3DMakeScale(-1, 1, 1)),
                ]),
            children: [2])
        let corners = list.instances(of: .continuousCorner, as: CornerInstance.self)
        #expect(!corners.isEmpty)
        for corner in corners { #expect(corner.params.z == 18) }
    }

    @Test func continuousClipAndRotatedShapeCarryTheFlag() throws {
        // A continuous masksToBounds clip sets 1 in row1.w of the general clip; a rotated continuous
        // layer (the shape kind) carries mask 15 + 16.
        var ops = DisplayListTests.layer(
            2, frame: CGRect(x: 10, y: 10, width: 50, height: 50), color: nil,
            [.masksToBounds(true), .cornerRadius(10), .cornerCurve(.continuous)])
        ops += DisplayListTests.layer(
            3, frame: CGRect(x: 30, y: 30, width: 100, height: 100), color: Self.red,
            [.cornerRadius(4), .cornerCurve(.continuous), .transform(CATransform3DMakeRotation(0.3, 0, 0, 1))])
        ops += [.setSublayers(2, [3])]
        let list = try DisplayListTests.build(ops, children: [2])
        let shape = try #require(list.instances(of: .continuousShape, as: ShapeInstance.self).first)
        #expect(shape.shapeParams == SIMD4(4, 0, 31, 1), "radius, border, mask with the flag, one clip")
        #expect(shape.clipA.row0.w == 10 && shape.clipA.row1.w == 1)
    }

    @Test func flippedLayerMovesItsSublayerToTheBottom() throws {
        // Layer 2 fills (0, 0, 100, 100) and is flipped; its sublayer with frame (10, 0, 30, 20) lands
        // at device rows 80…100 (y ↦ 100 − y), one opaque fill (10, 80, 40, 100).
        let list = try DisplayListTests.build(
            DisplayListTests.layer(
                2, frame: CGRect(x: 0, y: 0, width: 100, height: 100), color: nil, [.isGeometryFlipped(true)])
                + DisplayListTests.layer(3, frame: CGRect(x: 10, y: 0, width: 30, height: 20), color: Self.red)
                + [.setSublayers(2, [3])],
            children: [2])
        #expect(DisplayListTests.fills(list, .opaqueFill).map(\.rect) == [SIMD4(10, 80, 40, 100)])
    }
}
