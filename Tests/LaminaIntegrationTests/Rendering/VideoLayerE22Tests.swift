import Foundation
import Lamina
import LaminaTesting
import Testing

/// E22 (seed 003, "video layer in 3-D"), with an image in place of the video: a 200×200 layer showing
/// a green image, turned by π/4 about the axis (1, 1, 0) under m34 = −1/500, with `masksToBounds`,
/// `cornerRadius` 20 and a red border of width 5, through a real laminad. The pixels are checked at
/// the places the geometry predicts, computed here from the layer's matrix (Apple's row-vector
/// convention, about the anchor point: [x y 0 1] · M, then divided by w).
@Suite(.serialized) final class VideoLayerE22Tests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 400, height: 300)
    }

    deinit {
        server.stop()
    }

    static let size: CGFloat = 200
    static let position = CGPoint(x: 200, y: 150)

    /// The layer's transform: perspective, then the turn (CATransform3DRotate applies the rotation
    /// first, as on Apple platforms).
    static var transform: CATransform3D {
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        return CATransform3DRotate(t, .pi / 4, 1, 1, 0)
    }

    /// Where the layer point (x, y) (bounds coordinates, origin at the top-left) lands on the display.
    static func device(_ x: CGFloat, _ y: CGFloat) -> (x: Int, y: Int) {
        let m = transform
        let (px, py) = (x - size / 2, y - size / 2)
        let X = px * m.m11 + py * m.m21 + m.m41
        let Y = px * m.m12 + py * m.m22 + m.m42
        let W = px * m.m14 + py * m.m24 + m.m44
        return (Int((position.x + X / W).rounded(.down)), Int((position.y + Y / W).rounded(.down)))
    }

    @Test func turnedRoundedClippedBorderedImage() throws {
        let context = try server.connect()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let video = CALayer()
        video.bounds = CGRect(x: 0, y: 0, width: Self.size, height: Self.size)
        video.position = Self.position
        let greenPixels: [UInt8] = Array([[UInt8]](repeating: [0, 255, 0, 255], count: 16).joined())
        video.contents = CGImage(width: 4, height: 4, premultipliedRGBA: greenPixels)
        video.transform = Self.transform
        video.masksToBounds = true
        video.cornerRadius = 20
        video.borderWidth = 5
        video.borderColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(video)
        context.layer = root
        try context.synchronize()
        let image = try context.capture()

        func rgb(_ p: (x: Int, y: Int)) -> [Int] {
            let c = image.pixel(x: p.x, y: p.y)
            return [Int(c.red), Int(c.green), Int(c.blue)]
        }
        func expectColour(_ layerPoint: (Double, Double), _ expected: [Int], _ what: String) {
            let p = Self.device(CGFloat(layerPoint.0), CGFloat(layerPoint.1))
            let got = rgb(p)
            #expect(
                zip(got, expected).allSatisfy { abs($0 - $1) <= 2 }, "\(what) at \(p): \(got), expected \(expected)")
        }
        let (white, red, greenRGB) = ([255, 255, 255], [255, 0, 0], [0, 255, 0])
        // The turn moves the corners: the far corner (200, 0) and the near corner (0, 200) lie on the
        // axis's normal, one away from the eye (drawn smaller) and one towards it.
        let far = Self.device(Self.size - 25, 25)
        let near = Self.device(25, Self.size - 25)
        let centre = Self.device(100, 100)
        #expect(
            hypot(Double(far.x - centre.x), Double(far.y - centre.y))
                < hypot(Double(near.x - centre.x), Double(near.y - centre.y)))
        // The image inside the border, everywhere the geometry puts it.
        for point in [
            (100.0, 100.0), (30.0, 100.0), (170.0, 100.0), (100.0, 30.0), (100.0, 170.0), (40.0, 40.0), (160.0, 160.0),
        ] {
            expectColour(point, greenRGB, "image")
        }
        // The 5-point border, in the middle of its width, on every side.
        for point in [(2.5, 100.0), (197.5, 100.0), (100.0, 2.5), (100.0, 197.5)] {
            expectColour(point, red, "border")
        }
        // Inside the bounds but outside the rounded corners (radius 20: (3, 3) is 24 from the corner's
        // centre), the clip shows the backdrop; so does everything off the layer.
        for point in [(3.0, 3.0), (197.0, 3.0), (3.0, 197.0), (197.0, 197.0), (-12.0, 100.0), (212.0, 100.0)] {
            expectColour(point, white, "backdrop")
        }
        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
    }
}
