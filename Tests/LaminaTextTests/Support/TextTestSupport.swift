import Foundation
import LaminaText

/// The fixed fonts every text test lays out with (Tests/Fonts), installed once per process.
enum TestFonts {
    /// The folder holding the test fonts.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fonts")

    /// The files of the set.
    static let files = [
        "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "WenQuanYiMicroHei-Subset.ttf", "NotoColorEmoji-Subset.ttf",
    ].map { folder.appendingPathComponent($0) }

    private static let installed: Void = {
        try! LaminaFonts.useOnly(fontFiles: files, defaultFamily: "DejaVu Sans")
    }()

    /// Makes LaminaText use the fixed set (idempotent).
    static func install() {
        _ = installed
    }
}

/// An RGBA bitmap drawn into by a test, y up (Core Graphics' device space), read back top row first.
struct Canvas {
    let context: CGContext

    init(width: Int, height: Int, scale: CGFloat = 1) {
        TestFonts.install()
        context = CGContext(
            data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        context.scaleBy(x: scale, y: scale)
    }

    /// The image (top row first).
    var image: CGImage { context.makeImage()! }

    /// The pixels covered by ink (alpha above `threshold`), as (x, y) with y counted from the top.
    func inked(threshold: UInt8 = 40) -> [(x: Int, y: Int)] {
        let image = self.image
        var points: [(Int, Int)] = []
        for y in 0..<image.height {
            for x in 0..<image.width where image.premultipliedRGBA[(y * image.width + x) * 4 + 3] > threshold {
                points.append((x, y))
            }
        }
        return points
    }

    /// The box of the inked pixels, y counted from the top (nil when nothing is inked).
    func inkBox(threshold: UInt8 = 40) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        let points = inked(threshold: threshold)
        guard !points.isEmpty else { return nil }
        return (
            points.map(\.x).min()!, points.map(\.y).min()!, points.map(\.x).max()!, points.map(\.y).max()!
        )
    }

    /// The RGBA bytes of pixel (x, y), y from the top.
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let image = self.image
        let o = (y * image.width + x) * 4
        return Array(image.premultipliedRGBA[o..<(o + 4)])
    }
}

/// An attributed string of `text` in `font` (DejaVu Sans through Lamina's aliases by default) and
/// `color` (black by default).
func attributed(
    _ text: String, font: CTFont = CTFontCreateWithName("Helvetica" as CFString, 24, nil),
    color: CGColor = CGColor(gray: 0, alpha: 1), extra: [NSAttributedString.Key: Any] = [:]
) -> NSAttributedString {
    var attributes: [NSAttributedString.Key: Any] = [.font: font, .foregroundColor: color]
    attributes.merge(extra) { $1 }
    return NSAttributedString(string: text, attributes: attributes)
}
