// Shadows as display-list data: which shapes the closed form draws (shadowPath classification, a
// layer's own rounded bounds), the instance's geometry and blur extent (damage), and its place in the
// paint order (App. A: under the layer).
import Foundation
import LaminaCore
import LaminaProtocol
import Testing

@testable import LaminaServer

@Suite struct ShadowDisplayListTests {
    static let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// A 200×160 display whose root is layer 1, 80×60 at (20, 30), white, with a shadow of opacity 0.5
    /// and `extra`; `ops` may add sublayers.
    static func build(_ extra: [LayerProperty], ops: [LayerOperation] = []) throws -> DisplayList {
        let tree = try RenderTree().applying(
            [
                .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 80, height: 60))),
                .set(1, .position(CGPoint(x: 60, y: 60))), .set(1, .backgroundColor(white)),
                .set(1, .shadowOpacity(0.5)),
            ] + extra.map { .set(1, $0) } + ops + [.setRoot(display: 0, layer: 1)], displayCount: 1)
        return DisplayListBuilder.build(trees: [tree], display: 0, width: 200, height: 160)
    }

    static func shadows(_ list: DisplayList) -> [ShadowInstance] {
        list.instances(of: .shadow, as: ShadowInstance.self)
    }

    /// App. A: the shadow is drawn first, under the background; with the defaults (radius 3, offset
    /// (0, −3)) its box is the bounds moved 3 up, its quad grown by 3σ plus a pixel, its colour black
    /// at half opacity.
    @Test func theShadowComesFirstWithTheDefaults() throws {
        let list = try Self.build([])
        #expect(list.batches.map { DrawKind.all[$0.kind].name } == ["shadow", "opaqueFill"])
        let shadow = try #require(Self.shadows(list).first)
        #expect(shadow.rect == SIMD4(0, -3, 80, 57))
        #expect(shadow.piece == SIMD4(-10, -13, 90, 67))
        #expect(shadow.params == SIMD4(0, 0, 3, 0))
        // 0.5 × 255 = 127.5, an exact half, goes down (RGBAColor.onEightBitStep).
        #expect(shadow.color == SIMD4(0, 0, 0, Float(127.0 / 255)))
        #expect(shadow.flags.x == 0)
    }

    /// The emitted device box, which damage and batching use, covers the blur: the shape plus 3σ.
    @Test func theDamageBoxCoversTheBlur() throws {
        let list = try Self.build([.shadowRadius(8), .shadowOffset(CGSize(width: 10, height: 20))])
        let emitted = try #require(list.emitted.first { $0.kind == DrawKind.shadow.id })
        // Layer (0, 0) is device (20, 30); the shadow's box is (30, 50)-(110, 110), grown by 25.
        #expect(emitted.pixels.x <= 5 && emitted.pixels.y <= 25, "\(emitted.pixels)")
        #expect(emitted.pixels.maxX >= 135 && emitted.pixels.maxY >= 135, "\(emitted.pixels)")
    }

    /// No shadow for opacity 0 (the default), a nil or clear colour, or an empty shape.
    @Test func whatDrawsNoShadow() throws {
        for extra: [LayerProperty] in [
            [.shadowOpacity(0)], [.shadowColor(nil)], [.shadowColor(.clear)],
            [.shadowPath(CGPath(rect: CGRect(x: 10, y: 10, width: 0, height: 5)))],
        ] {
            #expect(Self.shadows(try Self.build(extra)).isEmpty, "\(extra)")
        }
    }

    /// shadowPath: rectangles, rounded rectangles (any corner size, elliptical corners too) and
    /// ellipses, as Lamina's CGPath builds them, moved or not; other paths are not closed forms.
    @Test func shadowPathsTheClosedFormDraws() {
        typealias Shape = DisplayListBuilder.ShadowShape
        let r = CGRect(x: 5, y: 6, width: 40, height: 30)
        #expect(DisplayListBuilder.shadowShape(of: CGPath(rect: r)) == .box(r))
        #expect(
            DisplayListBuilder.shadowShape(of: CGPath(ellipseIn: r))
                == Shape(rect: r, rx: 20, ry: 15, corners: .all))
        #expect(
            DisplayListBuilder.shadowShape(of: CGPath(roundedRect: r, cornerWidth: 6, cornerHeight: 4, transform: nil))
                == Shape(rect: r, rx: 6, ry: 4, corners: .all))
        var move = CGAffineTransform(translationX: 7, y: -2)
        #expect(
            DisplayListBuilder.shadowShape(
                of: CGPath(roundedRect: r, cornerWidth: 8, cornerHeight: 8, transform: &move))
                == Shape(rect: r.offsetBy(dx: 7, dy: -2), rx: 8, ry: 8, corners: .all))
        let triangle = CGMutablePath()
        triangle.move(to: .zero)
        triangle.addLine(to: CGPoint(x: 10, y: 0))
        triangle.addLine(to: CGPoint(x: 0, y: 10))
        triangle.closeSubpath()
        #expect(DisplayListBuilder.shadowShape(of: triangle) == nil)
        let two = CGMutablePath()
        two.addRect(r)
        two.addEllipse(in: r.offsetBy(dx: 50, dy: 0))
        #expect(DisplayListBuilder.shadowShape(of: two) == nil)
        var rotate = CGAffineTransform(rotationAngle: 0.3)
        #expect(DisplayListBuilder.shadowShape(of: CGPath(ellipseIn: r, transform: &rotate)) == nil)
    }

    /// Without shadowPath, the rounded bounds are the shadow's shape when they are exactly the alpha
    /// of what the layer draws: sublayers inside them (or clipped), an opaque background under a
    /// border; not a sublayer sticking out, nor a translucent background under a border.
    @Test func whenTheBoundsAreTheShape() throws {
        func child(_ frame: CGRect) -> [LayerOperation] {
            [
                .createLayer(2), .set(2, .bounds(CGRect(origin: .zero, size: frame.size))),
                .set(2, .position(CGPoint(x: frame.midX, y: frame.midY))),
                .set(2, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))), .setSublayers(1, [2]),
            ]
        }
        let inside = child(CGRect(x: 10, y: 10, width: 30, height: 20))
        let outside = child(CGRect(x: 60, y: 40, width: 40, height: 40))
        let inCorner = child(CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(Self.shadows(try Self.build([], ops: inside)).count == 1)
        #expect(Self.shadows(try Self.build([], ops: outside)).isEmpty)
        #expect(Self.shadows(try Self.build([.masksToBounds(true)], ops: outside)).count == 1)
        #expect(Self.shadows(try Self.build([], ops: inCorner)).count == 1)
        #expect(Self.shadows(try Self.build([.cornerRadius(12)], ops: inCorner)).isEmpty)
        let translucent = RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.5)
        #expect(Self.shadows(try Self.build([.backgroundColor(translucent)])).count == 1)
        #expect(
            Self.shadows(try Self.build([.backgroundColor(translucent), .borderWidth(2)])).isEmpty)
        #expect(Self.shadows(try Self.build([.borderWidth(2)])).count == 1)
        // The rounded bounds carry their radius and corners.
        let rounded = try #require(
            Self.shadows(try Self.build([.cornerRadius(10), .maskedCorners([.layerMinXMinYCorner])])).first)
        #expect(rounded.params == SIMD4(10, 10, 3, 1))
    }

    /// A gradient layer of opaque colours casts its rounded bounds' shadow without a background; one
    /// with a translucent stop, or one that draws nothing, does not.
    @Test func anOpaqueGradientCastsItsBoundsShadow() throws {
        func build(_ colors: [RGBAColor], type: CAGradientLayerType = .axial) throws -> DisplayList {
            let tree = try RenderTree().applying(
                [
                    .createLayer(1, .gradient), .set(1, .bounds(CGRect(x: 0, y: 0, width: 80, height: 60))),
                    .set(1, .position(CGPoint(x: 60, y: 60))), .set(1, .colors(colors)), .set(1, .gradientType(type)),
                    .set(1, .cornerRadius(12)), .set(1, .shadowOpacity(0.5)), .setRoot(display: 0, layer: 1),
                ], displayCount: 1)
            return DisplayListBuilder.build(trees: [tree], display: 0, width: 200, height: 160)
        }
        let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
        let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)
        let shadow = try #require(Self.shadows(try build([red, blue])).first)
        #expect(shadow.params == SIMD4(12, 12, 3, 15))
        #expect(
            try build([red, blue], type: .conic).batches.map { DrawKind.all[$0.kind].name } == ["shadow", "gradient"])
        #expect(Self.shadows(try build([red, .clear])).isEmpty)
        #expect(Self.shadows(try build([red])).isEmpty)
    }

    /// The layer's own masksToBounds clips its shadow (spec §2.5): the instance carries the layer's
    /// rounded bounds as its general clip.
    @Test func ownMasksToBoundsBecomesTheShadowsClip() throws {
        let shadow = try #require(
            Self.shadows(try Self.build([.masksToBounds(true), .cornerRadius(8)])).first)
        #expect(shadow.flags.x == 1)
        #expect(shadow.clip.rect == SIMD4(0, 0, 80, 60))
        #expect(shadow.clip.row0.w == 8)
    }

    /// laminactl tree prints the shadow's properties that differ from the defaults.
    @Test func theTreePrintsTheShadow() throws {
        let tree = try RenderTree().applying(
            [
                .createLayer(1), .set(1, .shadowOpacity(0.5)), .set(1, .shadowRadius(6)),
                .set(1, .shadowOffset(CGSize(width: 0, height: 4))),
                .set(1, .shadowPath(CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 5)))),
                .setRoot(display: 0, layer: 1),
            ], displayCount: 1)
        let text = TreeDescriber.describe([("client", tree)])
        #expect(
            text.contains("shadowOpacity=0.5 shadowRadius=6 shadowOffset=0,4 shadowPath=5 elements in 0,0,10,5"),
            "\(text)")
        #expect(!text.contains("shadowColor"))
    }
}
