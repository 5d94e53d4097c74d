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

extension ShapePixelTests {
    static let stroked: [LayerProperty] = [.path(rect), .fillColor(nil), .strokeColor(red), .lineWidth(4)]

    /// Apple-run: the 40×30 rectangle stroked 4 wide covers 560 pixels (a 44×34 ring around a 36×26
    /// hole) with its middle empty.
    @Test func aFourWideStrokeCovers560Pixels() throws {
        let bitmap = try Self.render(Self.shapeLayer(Self.stroked))
        #expect(Self.painted(bitmap) == 560)
        #expect(Self.pixel(bitmap, 30, 25) == [0, 0, 0, 0])
        #expect(Self.pixel(bitmap, 8, 8) == [255, 0, 0, 255])
        #expect(Self.pixel(bitmap, 51, 41) == [255, 0, 0, 255])
        #expect(Self.pixel(bitmap, 12, 12) == [0, 0, 0, 0])
    }

    /// Apple-run: fill and stroke together cover 1,496 pixels, the stroke over the fill.
    @Test func fillAndStrokeCover1496Pixels() throws {
        let bitmap = try Self.render(Self.shapeLayer([.path(Self.rect), .strokeColor(Self.red), .lineWidth(4)]))
        #expect(Self.painted(bitmap) == 1496)
        #expect(Self.pixel(bitmap, 11, 11) == [255, 0, 0, 255])
        #expect(Self.pixel(bitmap, 30, 25) == [0, 0, 0, 255])
    }

    /// Apple-run: strokeEnd 0.5 of the 4-wide stroke covers 280 pixels (half the perimeter, butt caps).
    @Test func halfTheStrokeCovers280Pixels() throws {
        let bitmap = try Self.render(Self.shapeLayer(Self.stroked + [.strokeEnd(0.5)]))
        #expect(Self.painted(bitmap) == 280)
        // The top edge and the right edge; the left edge is not drawn.
        #expect(Self.pixel(bitmap, 30, 9)[3] == 255)
        #expect(Self.pixel(bitmap, 51, 30)[3] == 255)
        #expect(Self.pixel(bitmap, 9, 30)[3] == 0)
    }

    /// strokeStart above strokeEnd draws no stroke (notes §4.2), and the fill is unaffected.
    @Test func aReversedTrimDrawsNoStroke() throws {
        #expect(
            Self.painted(try Self.render(Self.shapeLayer(Self.stroked + [.strokeStart(0.6), .strokeEnd(0.4)]))) == 0)
    }

    /// A dash pattern of 10 on, 10 off around the 140-long perimeter paints dashes of 10 × 4 pixels
    /// (the corners add the joins of the dashes that turn them), about half the ring.
    @Test func aDashedStrokePaintsItsDashes() throws {
        let bitmap = try Self.render(Self.shapeLayer(Self.stroked + [.lineDashPattern([10, 10])]))
        // On the top edge: x 10...20 painted, 20...30 not, 30...40 painted.
        #expect(Self.pixel(bitmap, 15, 10)[3] == 255)
        #expect(Self.pixel(bitmap, 25, 10)[3] == 0)
        #expect(Self.pixel(bitmap, 35, 10)[3] == 255)
        let count = Self.painted(bitmap)
        #expect(count > 250 && count < 330, "\(count)")
        // The phase moves the dashes along: 5 into the pattern, x 10...15 is painted, 15...25 not.
        let shifted = try Self.render(Self.shapeLayer(Self.stroked + [.lineDashPattern([10, 10]), .lineDashPhase(5)]))
        #expect(Self.pixel(shifted, 12, 10)[3] == 255)
        #expect(Self.pixel(shifted, 20, 10)[3] == 0)
        #expect(Self.pixel(shifted, 27, 10)[3] == 255)
    }

    /// Round caps reach half the width past the ends of an open stroke; butt caps stop at them.
    @Test func lineCaps() throws {
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 20, y: 30))
        line.addLine(to: CGPoint(x: 60, y: 30))
        let butt = try Self.render(Self.shapeLayer([.path(line), .strokeColor(Self.red), .lineWidth(10)]))
        #expect(Self.painted(butt) == 400)
        let square = try Self.render(
            Self.shapeLayer([.path(line), .strokeColor(Self.red), .lineWidth(10), .lineCap(.square)]))
        #expect(Self.painted(square) == 500)
        let round = try Self.render(
            Self.shapeLayer([.path(line), .strokeColor(Self.red), .lineWidth(10), .lineCap(.round)]))
        #expect(Self.pixel(round, 17, 30)[3] == 255)
        #expect(Self.pixel(round, 15, 25)[3] < 128)
    }
}

extension ShapePixelTests {
    /// Under perspective the shape is drawn in its own plane (a raster at the scale the plane reaches
    /// on screen): the rectangle turned 30° about y still covers its middle, and narrows on screen.
    @Test func aShapeUnderPerspectiveIsDrawnInItsPlane() throws {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 200
        let turned = CATransform3DRotate(perspective, .pi / 6, 0, 1, 0)
        let full = CGPath(rect: CGRect(x: 10, y: 10, width: 60, height: 40))
        let bitmap = try Self.render(Self.shapeLayer([.path(full)], transform: turned))
        #expect(Self.pixel(bitmap, 40, 30) == [0, 0, 0, 255])
        let count = Self.painted(bitmap)
        #expect(count > 1500 && count < 2400, "\(count)")
        // Off the rectangle's rows, nothing.
        #expect(Self.pixel(bitmap, 40, 2)[3] == 0)
    }
}
