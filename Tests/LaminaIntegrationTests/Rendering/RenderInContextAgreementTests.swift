import Foundation
import LaminaTesting
import Testing

@testable import Lamina

// The client's `render(in:)` (Core Graphics on Cairo, issue 24 point 1) against what laminad draws
// (Vulkan on lavapipe) for the same scene: axis-aligned layers, borders, rounded corners, an image and
// opacity. The two agree pixel for pixel except along anti-aliased curves, where Cairo's and the
// shaders' coverage differ by a few levels: at most 96 of the 6,144 pixels (1.6%) may differ by more
// than 3 per channel, all of them in rounded corners, and none by more than 32.

/// An image of `width` × `height` pixels whose colour changes along both axes (so a misplaced or
/// upside-down image shows).
private func gradientImage(_ width: Int, _ height: Int) -> CGImage {
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            pixels += [UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), 96, 255]
        }
    }
    return CGImage(width: width, height: height, premultipliedRGBA: pixels)!
}

@Suite(.serialized) final class RenderInContextAgreementTests: AnimationSuite {
    let server: TestServer
    static var displaySize: CGSize { CGSize(width: 96, height: 64) }

    init() throws {
        server = try TestServer(width: 96, height: 64)
    }

    deinit {
        server.stop()
    }

    /// The scene: a white root as large as the display with six layers on it.
    static func scene() -> CALayer {
        func layer(_ frame: CGRect, _ color: CGColor?) -> CALayer {
            let layer = CALayer()
            layer.frame = frame
            layer.backgroundColor = color
            return layer
        }
        let root = layer(CGRect(origin: .zero, size: displaySize), white)
        let bordered = layer(CGRect(x: 4, y: 4, width: 24, height: 16), red)
        bordered.borderWidth = 2
        bordered.borderColor = blue
        let rounded = layer(CGRect(x: 32, y: 4, width: 28, height: 22), CGColor(red: 0, green: 0.6, blue: 0, alpha: 1))
        rounded.cornerRadius = 6
        let picture = layer(CGRect(x: 64, y: 4, width: 24, height: 24), nil)
        picture.contents = gradientImage(24, 24)
        let faded = layer(CGRect(x: 4, y: 36, width: 24, height: 20), blue)
        faded.opacity = 0.5
        let framed = layer(CGRect(x: 36, y: 32, width: 40, height: 28), CGColor(red: 1, green: 0.9, blue: 0, alpha: 1))
        framed.cornerRadius = 8
        framed.borderWidth = 3
        framed.borderColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        framed.addSublayer(layer(CGRect(x: 10, y: 8, width: 12, height: 10), red))
        let small = layer(CGRect(x: 80, y: 40, width: 12, height: 12), nil)
        small.contents = gradientImage(6, 6)
        small.contentsGravity = .center
        for sublayer in [bordered, rounded, picture, faded, framed, small] { root.addSublayer(sublayer) }
        return root
    }

    /// `layer` rendered by the client into a context flipped to y down, as the display's rows run.
    static func clientImage(_ layer: CALayer, width: Int, height: Int) throws -> CGImage {
        let ctx = try #require(
            CGContext(
                data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        ctx.translateBy(x: 0, y: CGFloat(height))
        ctx.scaleBy(x: 1, y: -1)
        layer.render(in: ctx)
        return try #require(ctx.makeImage())
    }

    @Test func clientRenderingAgreesWithTheServersCapture() throws {
        let context = try server.connect(name: "render-agreement")
        let root = Self.scene()
        context.layer = root
        try context.synchronize()
        let server = try context.capture()
        let client = try Self.clientImage(root, width: 96, height: 64)
        let close = ImageComparison(channelTolerance: 3, maxDifferingPixels: 96).compare(client, server)
        #expect(close.matches, "client vs server: \(close)")
        let bounded = ImageComparison(channelTolerance: 32, maxDifferingPixels: 0).compare(client, server)
        #expect(bounded.matches, "client vs server: \(bounded)")
        // Every pixel that differs by more than 3 lies in a rounded corner (the radius square of one
        // of the two rounded layers' corners).
        let rounded: [(rect: CGRect, radius: CGFloat)] = [
            (CGRect(x: 32, y: 4, width: 28, height: 22), 6), (CGRect(x: 36, y: 32, width: 40, height: 28), 8),
        ]
        var corners: [CGRect] = []
        for (rect, r) in rounded {
            for x in [rect.minX, rect.maxX - r] {
                for y in [rect.minY, rect.maxY - r] { corners.append(CGRect(x: x, y: y, width: r, height: r)) }
            }
        }
        let a = client.premultipliedRGBA
        let b = server.premultipliedRGBA
        for p in 0..<(96 * 64) {
            let worst = (0..<4).map { abs(Int(a[p * 4 + $0]) - Int(b[p * 4 + $0])) }.max()!
            let point = CGPoint(x: Double(p % 96) + 0.5, y: Double(p / 96) + 0.5)
            #expect(
                worst <= 3 || corners.contains { $0.contains(point) },
                "pixel (\(p % 96), \(p / 96)) differs by \(worst)")
        }
        // The geometry both must have: the border's blue edge, the faded blue (127 over white:
        // 128, 128, 255), the image's first row at the top, the small image centred.
        for image in [client, server] {
            expectPixel(image, 4, 10, (0, 0, 255), tolerance: 0, "the border's left edge")
            expectPixel(image, 10, 10, (255, 0, 0), tolerance: 0, "inside the border")
            expectPixel(image, 10, 40, (128, 128, 255), tolerance: 1, "the faded layer")
            expectPixel(image, 64, 4, (0, 0, 96), tolerance: 0, "the image's first pixel")
            expectPixel(image, 87, 27, (255, 255, 96), tolerance: 0, "the image's last pixel")
            expectPixel(image, 83, 43, (0, 0, 96), tolerance: 0, "the centred small image's first pixel")
        }
        // The server's own render(in:) path (captureLayer) draws the same layer alone.
        let alone = try context.captureLayer(root.layerID, width: 96, height: 64, scale: 1)
        let same = ImageComparison(channelTolerance: 3, maxDifferingPixels: 96).compare(client, alone)
        #expect(same.matches, "client vs captureLayer: \(same)")
        finish()
    }
}
