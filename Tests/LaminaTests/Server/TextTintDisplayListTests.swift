import Foundation
import LaminaProtocol
import Testing

@testable import Lamina
@testable import LaminaServer

/// A text layer's glyph coverage as display-list data: tinted by the presented `foregroundColor`
/// (premultiplied, on 8-bit steps) when `tintsContents` says the contents are coverage, untinted
/// otherwise, on both textured paths (issue 20: the colour animates on the server's clock).
struct TextTintDisplayListTests {
    static let image = RenderImageID(rawValue: 9)

    /// A 100×40 text layer at (10, 20) showing client image 5 (40×20 pixels), with `extra` set.
    static func build(_ extra: [LayerProperty], transform: CATransform3D? = nil) throws -> DisplayList {
        var ops = ContentsDisplayListTests.layer(
            2, frame: CGRect(x: 10, y: 20, width: 100, height: 40), [.contentsGravity(.topLeft)])
        ops[0] = .createLayer(2, .text)
        ops += extra.map { .set(2, $0) }
        if let transform { ops.append(.set(2, .transform(transform))) }
        return try ContentsDisplayListTests.build(
            ops, children: [2], contents: [2: 5], images: [5: ContentsImage(image: Self.image, width: 40, height: 20)])
    }

    /// Whether every lane of `a` is within a millionth of `b`'s.
    static func near(_ a: SIMD4<Float>?, _ b: SIMD4<Float>) -> Bool {
        guard let a else { return false }
        return (0..<4).allSatisfy { abs(a[$0] - b[$0]) < 1e-6 }
    }

    @Test func coverageIsMultipliedByTheForegroundColour() throws {
        // Half-transparent orange (1, 0.5, 0, 0.5): premultiplied (0.5, 0.25, 0, 0.5), on 8-bit steps
        // (an exact half goes down) 127, 64, 0, 127.
        let orange = RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.5)
        let list = try Self.build([.foregroundColor(orange), .tintsContents(true)])
        #expect(list.instances(of: .plainImage, as: ImageInstance.self).isEmpty, "a tint needs the image kind")
        let instances = list.instances(of: .image, as: ImageInstance.self)
        #expect(instances.count == 1)
        #expect(Self.near(instances.first?.opacity, SIMD4(127, 64, 0, 127) / 255))
        // No colour draws black (Core Text's default).
        let black = try Self.build([.foregroundColor(nil), .tintsContents(true)])
        #expect(Self.near(black.instances(of: .image, as: ImageInstance.self).first?.opacity, SIMD4(0, 0, 0, 1)))
    }

    @Test func contentsThatAreNotCoverageAreDrawnAsTheyAre() throws {
        let list = try Self.build([.foregroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))])
        #expect(list.instances(of: .plainImage, as: ImageInstance.self).count == 1)
        #expect(list.instances(of: .image, as: ImageInstance.self).isEmpty)
    }

    @Test func theGeneralPathCarriesTheTintInItsSpareLanes() throws {
        // Turned, the contents take imageShape: the tint is 255 minus each 8-bit component, two to a
        // lane (red 255 − 255 = 0 and green 255 − 0 = 255: 0 + 256 × 255; blue 255, alpha 0: 255).
        let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
        let list = try Self.build(
            [.foregroundColor(red), .tintsContents(true)], transform: CATransform3DMakeRotation(0.2, 0, 0, 1))
        let shaped = list.instances(of: .imageShape, as: ImageShapeInstance.self)
        #expect(!shaped.isEmpty)
        #expect(shaped.allSatisfy { $0.params.y == 256 * 255 && $0.params.w == 255 && $0.params.x == 1 })
        let plain = try Self.build([.foregroundColor(red)], transform: CATransform3DMakeRotation(0.2, 0, 0, 1))
        #expect(
            plain.instances(of: .imageShape, as: ImageShapeInstance.self).allSatisfy {
                $0.params.y == 0 && $0.params.w == 0
            })
    }
}
