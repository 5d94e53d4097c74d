import Foundation
import Testing

@testable import LaminaGraphics

/// `CGGradient` and the context's linear and radial gradient drawing (Apple's
/// `drawLinearGradient`/`drawRadialGradient` docs: colour at location 0 at the start, 1 at the end;
/// past the ends only with `CGGradientDrawingOptions`).
@Suite("CGContext gradients")
struct CGContextGradientTests {
    private let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    private let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// Red at x = 5.5 to blue at x = 13.5 across a 20 × 1 context, sampled at pixel centres:
    /// column 5 is the start (t = 0), 7 a quarter (255 · 0.75 = 191.25, 255 · 0.25 = 63.75), 13 the end.
    private func linear(_ options: CGGradientDrawingOptions) throws -> CGContext {
        let gradient = try #require(CGGradient(colorsSpace: nil, colors: [red, blue], locations: [0, 1]))
        let context = CGContext.rgba(width: 20, height: 1)
        context.drawLinearGradient(
            gradient, start: CGPoint(x: 5.5, y: 0), end: CGPoint(x: 13.5, y: 0), options: options)
        return context
    }

    @Test func linearColoursAtStartMiddleAndEnd() throws {
        let context = try linear([])
        #expect(context.bytes(x: 5, row: 0) == [255, 0, 0, 255])
        #expect(context.bytes(x: 7, row: 0) == [191, 0, 64, 255])
        #expect(context.bytes(x: 11, row: 0) == [64, 0, 191, 255])
        #expect(context.bytes(x: 13, row: 0) == [0, 0, 255, 255])
        // Nothing past either end without the options.
        #expect(context.bytes(x: 4, row: 0) == [0, 0, 0, 0])
        #expect(context.bytes(x: 14, row: 0) == [0, 0, 0, 0])
    }

    @Test func linearOptionsExtendEachEnd() throws {
        let after = try linear(.drawsAfterEndLocation)
        #expect(after.bytes(x: 4, row: 0) == [0, 0, 0, 0])
        #expect(after.bytes(x: 19, row: 0) == [0, 0, 255, 255])
        let before = try linear(.drawsBeforeStartLocation)
        #expect(before.bytes(x: 0, row: 0) == [255, 0, 0, 255])
        #expect(before.bytes(x: 14, row: 0) == [0, 0, 0, 0])
        let both = try linear([.drawsBeforeStartLocation, .drawsAfterEndLocation])
        #expect(both.bytes(x: 0, row: 0) == [255, 0, 0, 255])
        #expect(both.bytes(x: 19, row: 0) == [0, 0, 255, 255])
        #expect(both.bytes(x: 7, row: 0) == [191, 0, 64, 255])
    }

    /// With locations [0, 0.5, 1] the middle colour sits exactly at the midpoint (column 9).
    @Test func middleStopAtMidpoint() throws {
        let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        let gradient = try #require(CGGradient(colorsSpace: nil, colors: [red, green, blue], locations: [0, 0.5, 1]))
        let context = CGContext.rgba(width: 20, height: 1)
        context.drawLinearGradient(gradient, start: CGPoint(x: 5.5, y: 0), end: CGPoint(x: 13.5, y: 0), options: [])
        #expect(context.bytes(x: 9, row: 0) == [0, 255, 0, 255])
    }

    /// Apple's `CFArray` spelling and the component initialiser make the same gradient; nil
    /// locations space the colours evenly. Raw values are Apple's.
    @Test func initialisersAgree() throws {
        let bridged = try #require(
            CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [red, blue] as CFArray, locations: nil))
        let components: [CGFloat] = [1, 0, 0, 1, 0, 0, 1, 1]
        let locations: [CGFloat] = [0, 1]
        let packed = try #require(
            CGGradient(
                colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: components, locations: locations, count: 2))
        let swift = try #require(CGGradient(colorsSpace: nil, colors: [red, blue], locations: nil))
        #expect(bridged.stops == swift.stops)
        #expect(packed.stops == swift.stops)
        #expect(CGGradientDrawingOptions.drawsBeforeStartLocation.rawValue == 1)
        #expect(CGGradientDrawingOptions.drawsAfterEndLocation.rawValue == 2)
        #expect(CGPathDrawingMode.eoFillStroke.rawValue == 4)
    }

    /// A radial gradient from the circle of radius 2 to radius 8, both centred on the centre of
    /// pixel (10, row 9): distance d maps to t = (d − 2) / 6, so column 12 is red, 14 a third of
    /// the way (170, 0, 85), 18 blue; column 19 (t > 1) and column 10 (inside the start circle) are empty without options.
    @Test func radial() throws {
        let gradient = try #require(CGGradient(colorsSpace: nil, colors: [red, blue], locations: nil))
        func draw(_ options: CGGradientDrawingOptions) -> CGContext {
            let context = CGContext.rgba(width: 20, height: 20)
            let centre = CGPoint(x: 10.5, y: 10.5)
            context.drawRadialGradient(
                gradient, startCenter: centre, startRadius: 2, endCenter: centre, endRadius: 8, options: options)
            return context
        }
        let plain = draw([])
        #expect(plain.bytes(x: 12, row: 9) == [255, 0, 0, 255])
        #expect(plain.bytes(x: 14, row: 9) == [170, 0, 85, 255])
        #expect(plain.bytes(x: 18, row: 9) == [0, 0, 255, 255])
        #expect(plain.bytes(x: 19, row: 9) == [0, 0, 0, 0])
        #expect(plain.bytes(x: 10, row: 9) == [0, 0, 0, 0])
        let before = draw(.drawsBeforeStartLocation)
        #expect(before.bytes(x: 10, row: 9) == [255, 0, 0, 255])
        #expect(before.bytes(x: 19, row: 9) == [0, 0, 0, 0])
        let after = draw(.drawsAfterEndLocation)
        #expect(after.bytes(x: 19, row: 9) == [0, 0, 255, 255])
        #expect(after.bytes(x: 0, row: 0) == [0, 0, 255, 255])
        #expect(after.bytes(x: 10, row: 9) == [0, 0, 0, 0])
    }
}
