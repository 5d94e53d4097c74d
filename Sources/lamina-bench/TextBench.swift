import Foundation
import Lamina

/// Text layers laid out and drawn per second (issue 20): what the client does for each `CATextLayer`
/// that needs display: lay its string out with LaminaText (Pango, HarfBuzz) and draw it with Cairo into
/// a new backing store. In-process, no server: `display()` of layers that are not in a context.
enum TextBench {
    /// The label strings, so that each layer in a round lays out a string of its own.
    static let words = [
        "Settings", "Downloads", "Library", "Profile", "Messages", "Notifications", "Privacy", "Battery",
        "Display", "Keyboard",
    ]

    /// `count` layers of `size` with `fontSize`, wrapped (paragraphs) or not (labels).
    static func layers(count: Int, size: CGSize, fontSize: CGFloat, wrapped: Bool) -> [CATextLayer] {
        (0..<count).map { _ in
            let layer = CATextLayer()
            layer.bounds = CGRect(origin: .zero, size: size)
            layer.fontSize = fontSize
            layer.isWrapped = wrapped
            layer.truncationMode = wrapped ? .end : .none
            layer.foregroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.15, alpha: 1)
            return layer
        }
    }

    /// Milliseconds (median of `iterations`) to give each layer a new string and display it.
    static func displayTime(_ layers: [CATextLayer], iterations: Int, text: (Int, Int) -> String) -> Double {
        var round = 0
        return SoftwareReference.medianMilliseconds(iterations: iterations) {
            round += 1
            for (i, layer) in layers.enumerated() {
                layer.string = text(i, round)
                layer.display()
            }
        }
    }

    static func rows(iterations: Int, row: (String, String) -> Void) throws {
        let labels = layers(count: 100, size: CGSize(width: 240, height: 28), fontSize: 17, wrapped: false)
        let labelTime = displayTime(labels, iterations: iterations) { i, round in
            "\(words[(i + round) % words.count]) \(i) · \(round)"
        }
        row(
            "100 text labels (17 pt, 240×28, about 16 characters): laid out and drawn",
            String(format: "%.2f ms (%.0f layers/s)", labelTime, 100_000 / labelTime))
        let paragraphs = layers(count: 100, size: CGSize(width: 320, height: 64), fontSize: 15, wrapped: true)
        let paragraphTime = displayTime(paragraphs, iterations: iterations) { i, round in
            (0..<12).map { words[($0 * 7 + i + round) % words.count].lowercased() }.joined(separator: " ")
                + " \(round)."
        }
        row(
            "100 wrapped paragraphs (15 pt, 320×64, 3 lines, truncated): laid out and drawn",
            String(format: "%.2f ms (%.0f layers/s)", paragraphTime, 100_000 / paragraphTime))
    }
}
