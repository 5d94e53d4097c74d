import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// CAShapeLayer drawn through the Vulkan renderer, against the pixel counts GNUstep's tests measured
/// on Apple's QuartzCore (`Tests/quartzcore/CAShapeLayer/drawing.m`, run on a macOS runner: an 80×60
/// layer at 1×, the path `CGPath(rect: (10, 10, 40, 30))`; notes T25) and the geometry the path
/// predicts.
@Suite struct ShapePixelTests {
    static let rect = CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30))
    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)

    /// Draws `ops` (which must show a root on display 0) on a `width`×`height` display cleared to
    /// transparent, with a shape-raster cache, and expects no validation message.
    static func render(
        _ ops: [LayerOperation], width: Int = 80, height: Int = 60, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bitmap {
        let tree = try RenderTree().applying(ops, displayCount: 1)
        return try SharedVulkanDevice.withRenderer { renderer, validation in
            let cache = ShapeRasterCache(renderer: renderer)
            let list = DisplayListBuilder.build(
                trees: [tree], display: 0, width: width, height: height, clearColor: .zero, shapes: cache)
            cache.endFrame()
            let target = try renderer.makeTarget(width: width, height: height)
            try renderer.render(list, into: target)
            let bitmap = try renderer.readPixels(target)
            #expect(validation.messages.isEmpty, "\(validation.messages)", sourceLocation: sourceLocation)
            return bitmap
        }
    }

    /// An 80×60 shape layer filling the display, as the root, with `extra` set.
    static func shapeLayer(_ extra: [LayerProperty], transform: CATransform3D? = nil) -> [LayerOperation] {
        [
            .createLayer(1, .shape), .set(1, .bounds(CGRect(x: 0, y: 0, width: 80, height: 60))),
            .set(1, .position(CGPoint(x: 40, y: 30))),
        ] + (transform.map { [.set(1, .transform($0))] } ?? []) + extra.map { .set(1, $0) }
            + [.setRoot(display: 0, layer: 1)]
    }

    /// The number of pixels with any alpha.
    static func painted(_ bitmap: Bitmap) -> Int {
        var count = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.rgba(x: x, y: y).3 > 0 { count += 1 }
        }
        return count
    }

    static func pixel(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> [Int] {
        let p = bitmap.rgba(x: x, y: y)
        return [Int(p.0), Int(p.1), Int(p.2), Int(p.3)]
    }

    /// Apple-run: the default fill (opaque black) of the 40×30 rectangle paints exactly 1,200 pixels.
    @Test func theDefaultFillPaints1200Pixels() throws {
        let bitmap = try Self.render(Self.shapeLayer([.path(Self.rect)]))
        #expect(Self.painted(bitmap) == 1200)
        #expect(Self.pixel(bitmap, 10, 10) == [0, 0, 0, 255])
        #expect(Self.pixel(bitmap, 49, 39) == [0, 0, 0, 255])
        #expect(Self.pixel(bitmap, 50, 40) == [0, 0, 0, 0])
        #expect(Self.pixel(bitmap, 9, 10) == [0, 0, 0, 0])
    }

    /// Apple-run: a nil fillColor or a nil path paints nothing (notes T26).
    @Test func noFillOrNoPathPaintsNothing() throws {
        #expect(Self.painted(try Self.render(Self.shapeLayer([.path(Self.rect), .fillColor(nil)]))) == 0)
        #expect(Self.painted(try Self.render(Self.shapeLayer([]))) == 0)
    }

    /// Apple-run: a 30×30 rectangle at (60, 40) hanging past the 80×60 bounds paints all 900 pixels (a
    /// shape is not clipped to its bounds), 400 with masksToBounds.
    @Test func aShapePastItsBoundsIsClippedOnlyByMasksToBounds() throws {
        let hanging = CGPath(rect: CGRect(x: 60, y: 40, width: 30, height: 30))
        #expect(Self.painted(try Self.render(Self.shapeLayer([.path(hanging)]), width: 100, height: 80)) == 900)
        #expect(
            Self.painted(
                try Self.render(Self.shapeLayer([.path(hanging), .masksToBounds(true)]), width: 100, height: 80))
                == 400)
    }

    /// CAShapeLayer documentation: the shape is "mapped into screen space before being rasterized to
    /// preserve resolution independence", so scaled ×4 by the layer's transform its edge is still one
    /// device pixel sharp (no upscaled bitmap; notes T28).
    @Test func aScaledShapeStaysSharp() throws {
        // Scaled about the layer's centre (40, 30): a point p lands at (p − centre) × 4 + centre, so a
        // 10×5 rectangle at (35, 25) covers device pixels 20...60 × 10...30.
        let path = CGPath(rect: CGRect(x: 35, y: 25, width: 10, height: 5))
        let bitmap = try Self.render(
            Self.shapeLayer([.path(path)], transform: CATransform3DMakeScale(4, 4, 1)), width: 80, height: 60)
        #expect(Self.painted(bitmap) == 40 * 20)
        for x in [19, 20, 59, 60] { #expect(Self.pixel(bitmap, x, 15)[3] == (x >= 20 && x < 60 ? 255 : 0), "x \(x)") }
        // A circle's edge under the same scale: every pixel is either nearly inside or nearly outside
        // except along a band at most one pixel wide.
        let circle = CGPath(ellipseIn: CGRect(x: 30, y: 22.5, width: 20, height: 15))
        let round = try Self.render(
            Self.shapeLayer([.path(circle)], transform: CATransform3DMakeScale(4, 4, 1)), width: 80, height: 60)
        var partial = 0
        for y in 0..<60 {
            for x in 0..<80 {
                let a = Self.pixel(round, x, y)[3]
                if a > 0 && a < 255 {
                    partial += 1
                    // Device circle: centre (40, 30), radius 40 × 30 half axes scaled: 40 and 30.
                    let d = hypot((Double(x) + 0.5 - 40) / 40, (Double(y) + 0.5 - 30) / 30)
                    #expect(abs(d - 1) < 0.05, "partial pixel at (\(x), \(y)) lies off the edge")
                }
            }
        }
        #expect(partial > 0)
    }

    /// A colour with alpha below 1 and the layer's opacity multiply (premultiplied "over").
    @Test func fillColourAndOpacity() throws {
        let bitmap = try Self.render(
            Self.shapeLayer([
                .path(Self.rect), .fillColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5)), .opacity(0.5),
            ]))
        let p = Self.pixel(bitmap, 20, 20)
        #expect(abs(p[0] - 64) <= 1 && p[1] == 0 && abs(p[3] - 64) <= 1, "\(p)")
    }

    /// The even-odd rule leaves the inner of two nested rectangles empty; non-zero fills it.
    @Test func fillRules() throws {
        let nested = CGMutablePath()
        nested.addRect(CGRect(x: 10, y: 10, width: 40, height: 30))
        nested.addRect(CGRect(x: 20, y: 20, width: 20, height: 10))
        let evenOdd = try Self.render(Self.shapeLayer([.path(nested), .fillRule(.evenOdd)]))
        #expect(Self.painted(evenOdd) == 1200 - 200)
        let nonZero = try Self.render(Self.shapeLayer([.path(nested)]))
        #expect(Self.painted(nonZero) == 1200)
    }
}
