import Foundation
import Testing

@testable import Lamina

/// `render(in:)` draws a gradient layer's gradient as the server does, with the behaviours observed on
/// Apple (GNUstep's CAGradientLayer tests run against Apple's QuartzCore, and the header's wording;
/// `shared/notes/text-and-shapes.md` §5.2, issue 20): the gradient fills the bounds over the
/// background, the end colours continue flat past the end points, fewer than two colours or a
/// `locations` count other than the colours' draw nothing, colours interpolate unpremultiplied (white
/// to clear has a grey middle), rounded corners shape it without `masksToBounds`, radial and conic
/// types. As for every `render(in:)` into an unflipped bitmap context, the layer's y = 0 is the
/// context's bottom row (`RenderedLayer.pixel` counts y from the bottom).
@Suite("Display: render(in:) of gradient layers")
struct RenderGradientInContextTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    static func gradient(_ colors: [CGColor]?, locations: [NSNumber]? = nil) -> CAGradientLayer {
        let layer = CAGradientLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.colors = colors
        layer.locations = locations
        return layer
    }

    @Test func anAxialGradientFillsTheBoundsFromStartToEnd() {
        // Apple-run: every pixel of the bounds is painted, red at the start point's edge (the top,
        // y = 0), blue at the end, changing monotonically along the axis. Row j's centre is at
        // t = (j + 0.5) / 100: red 255 × (1 − t), on 8-bit steps.
        let drawn = RenderedLayer(Self.gradient([Self.red, Self.blue]))
        #expect(drawn.paintedCount == 100 * 100)
        #expect(drawn.pixel(50, 0) == [254, 0, 1, 255])
        #expect(drawn.pixel(50, 99) == [1, 0, 254, 255])
        #expect(drawn.pixel(50, 49) == [129, 0, 126, 255])
        let reds = (0..<100).map { Int(drawn.pixel(30, $0)[0]) }
        #expect(zip(reds, reds.dropFirst()).allSatisfy { $0 >= $1 }, "red falls along the axis")
    }

    @Test func theEndColoursContinuePastTheEndPoints() {
        // Apple-run: start (0.5, 0.25), end (0.5, 0.75): the top quarter is flat red, the bottom flat blue.
        let layer = Self.gradient([Self.red, Self.blue])
        layer.startPoint = CGPoint(x: 0.5, y: 0.25)
        layer.endPoint = CGPoint(x: 0.5, y: 0.75)
        let drawn = RenderedLayer(layer)
        #expect(drawn.pixel(10, 5) == [255, 0, 0, 255] && drawn.pixel(10, 24) == [255, 0, 0, 255])
        #expect(drawn.pixel(10, 76) == [0, 0, 255, 255] && drawn.pixel(10, 99) == [0, 0, 255, 255])
    }

    @Test func tooFewColoursOrMismatchedLocationsDrawNothing() {
        // Apple-run: nil, empty and one colour draw nothing; three colours with one location draw nothing.
        #expect(RenderedLayer(Self.gradient(nil)).paintedCount == 0)
        #expect(RenderedLayer(Self.gradient([])).paintedCount == 0)
        #expect(RenderedLayer(Self.gradient([Self.red])).paintedCount == 0)
        #expect(RenderedLayer(Self.gradient([Self.red, Self.blue, Self.red], locations: [0.5])).paintedCount == 0)
    }

    @Test func twoStopsAtOnePlaceMakeAHardEdge() {
        // Apple-run: red and blue both at 0.5: flat red above the middle, flat blue below it.
        let drawn = RenderedLayer(Self.gradient([Self.red, Self.blue], locations: [0.5, 0.5]))
        #expect(drawn.pixel(50, 49) == [255, 0, 0, 255])
        #expect(drawn.pixel(50, 50) == [0, 0, 255, 255])
    }

    @Test func whiteToClearHasAGreyMiddleOverWhite() {
        // Colours interpolate on unpremultiplied components: the middle of white → UIColor.clear
        // (transparent black) is (0.5, 0.5, 0.5) at alpha 0.5, which over white is ≈ 0.75: 191
        // (ios.dokry.com, codemia.io: "a grey band"). Row 49's centre is at t = 0.495.
        let layer = Self.gradient([CGColor(gray: 1, alpha: 1), CGColor(gray: 0, alpha: 0)])
        layer.backgroundColor = CGColor(gray: 1, alpha: 1)
        let grey = RenderedLayer(layer).pixel(50, 49)
        #expect(grey[3] == 255 && abs(Int(grey[0]) - 191) <= 2 && grey[0] == grey[1] && grey[1] == grey[2], "\(grey)")
    }

    @Test func roundedCornersShapeTheGradientWithoutMasksToBounds() {
        // Apple-run: cornerRadius 20 without masksToBounds leaves the corner pixel unpainted and more
        // than 90 % of the bounds painted ("filling the shape of the layer (including rounded corners)").
        let layer = Self.gradient([Self.red, Self.blue])
        layer.cornerRadius = 20
        let drawn = RenderedLayer(layer)
        #expect(!drawn.painted(0, 0) && !drawn.painted(99, 99) && drawn.painted(50, 50))
        #expect(drawn.paintedCount > 9_000 && drawn.paintedCount < 10_000)
    }

    @Test func aRadialGradientSpreadsFromItsCentre() {
        // CAGradientLayer.h: radial is an ellipse centred at startPoint whose half axes reach endPoint;
        // Apple-run: the first colour at the centre, the last beyond the ellipse to the corners; nothing
        // when the points share an x or a y.
        let layer = Self.gradient([Self.red, Self.blue])
        layer.type = .radial
        layer.startPoint = CGPoint(x: 0.5, y: 0.5)
        layer.endPoint = CGPoint(x: 1, y: 1)
        let drawn = RenderedLayer(layer)
        #expect(drawn.pixel(50, 50)[0] > 250 && drawn.pixel(50, 50)[2] < 5)
        #expect(drawn.pixel(0, 0) == [0, 0, 255, 255] && drawn.pixel(99, 99) == [0, 0, 255, 255])
        #expect(drawn.pixel(75, 50)[0] > 120 && drawn.pixel(75, 50)[0] < 135, "halfway out: \(drawn.pixel(75, 50))")
        layer.endPoint = CGPoint(x: 0.5, y: 1)
        #expect(RenderedLayer(layer).paintedCount == 0)
    }

    @Test func aConicGradientTurnsClockwiseFromTheEndPointsDirection() {
        // CAGradientLayer.h: conic is centred at startPoint, 0° towards endPoint, the angle growing
        // from +x towards +y: clockwise on a y-down screen. Start (0.5, 0.5), end (1, 0.5), red → blue:
        // red just below the +x axis, blue just above it, the middle colour opposite (−x).
        let layer = Self.gradient([Self.red, Self.blue])
        layer.type = .conic
        layer.startPoint = CGPoint(x: 0.5, y: 0.5)
        layer.endPoint = CGPoint(x: 1, y: 0.5)
        let drawn = RenderedLayer(layer)
        let below = drawn.pixel(95, 53), above = drawn.pixel(95, 46), opposite = drawn.pixel(2, 50)
        #expect(below[0] > 240 && below[2] < 15, "below: \(below)")
        #expect(above[2] > 240 && above[0] < 15, "above: \(above)")
        #expect(abs(Int(opposite[0]) - 128) < 8 && abs(Int(opposite[2]) - 127) < 8, "opposite: \(opposite)")
    }
}
