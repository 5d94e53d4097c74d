import Foundation

/// A text layer's plain string drawn as coverage for the render server to tint, and the copies of its
/// text properties in the rows the server prints (`LayerPropertyDescriptor.textRows`).
extension CATextLayer {
    /// Whether `string` is a plain `String` or `NSString` (not attributed).
    var hasPlainString: Bool {
        guard let string = textValue("string") else { return false }
        return !(string is NSAttributedString) && (string is String || string is NSString)
    }

    /// Before the backing store is drawn: a plain string will be drawn in white.
    func beginCoverageDrawing() {
        drawsCoverage = hasPlainString
        drewCoverage = false
    }

    /// After the backing store was drawn into `image`: whether it is coverage the server tints (the
    /// layer's own `draw(in:)` drew its plain string in white and nothing drawn has a colour of its own),
    /// and the image to show. When something drawn has colours (colour glyphs, a subclass's drawing),
    /// the layer is drawn again in its colour by `redraw` and shown untinted.
    func finishCoverageDrawing(_ image: CGImage, redraw: () -> CGImage?) -> (image: CGImage, tinted: Bool) {
        defer {
            drawsCoverage = false
            drewCoverage = false
        }
        guard drawsCoverage, drewCoverage else { return (image, false) }
        if Self.isWhiteCoverage(image) { return (image, true) }
        drawsCoverage = false
        return (redraw() ?? image, false)
    }

    /// Whether every pixel of `image` is white at some coverage (premultiplied: all four channels equal).
    static func isWhiteCoverage(_ image: CGImage) -> Bool {
        image.premultipliedRGBA.withUnsafeBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                let a = p[i + 3]
                if p[i] != a || p[i + 1] != a || p[i + 2] != a { return false }
                i += 4
            }
            return true
        }
    }

    /// Records whether the contents are coverage for the server to tint (a row of the layer's class,
    /// sent with the next commit, without an action).
    func setTintsContents(_ tinted: Bool) {
        guard modelState.text.tintsContents != tinted else { return }
        modelState.text.tintsContents = tinted
        changed()
    }

    /// The contents as the server shows them: a coverage image multiplied by `foregroundColor` (black
    /// when nil), other contents as they are; what `render(in:)` draws.
    var shownContents: CGImage? {
        guard let image = contents as? CGImage else { return nil }
        guard modelState.text.tintsContents else { return image }
        return Self.tinted(image, by: modelState.text.foregroundColor ?? RGBAColor.black)
    }

    /// `image` (premultiplied) multiplied by `color` (unpremultiplied), each channel on 8-bit steps.
    static func tinted(_ image: CGImage, by color: RGBAColor) -> CGImage {
        let a = min(max(color.alpha, 0), 1)
        let tint = [color.red * a, color.green * a, color.blue * a, a].map { min(max($0, 0), 1) }
        var pixels = image.premultipliedRGBA
        for i in pixels.indices {
            pixels[i] = UInt8((Double(pixels[i]) * tint[i & 3]).rounded())
        }
        return CGImage(width: image.width, height: image.height, premultipliedRGBA: pixels) ?? image
    }

    /// Copies the text properties into the model's text rows (`laminactl tree` prints them): the
    /// string's characters (shortened), the font's name, the size, the flags and the modes. With
    /// `notify`, a change is recorded for the next commit.
    func syncTextRows(notify: Bool) {
        var rows = modelState.text
        switch textValue("string") {
        case let text as NSAttributedString: rows.string = TextLayerState.shortened(text.string)
        case let text as String: rows.string = TextLayerState.shortened(text)
        case let text as NSString: rows.string = TextLayerState.shortened(String(describing: text))
        default: rows.string = nil
        }
        switch kvcStorage["font"] {
        case let font as CTFont: rows.font = String(describing: CTFontCopyPostScriptName(font))
        case let font as CGFont: rows.font = font.postScriptName.map { String(describing: $0) }
        case let name as String: rows.font = name
        case let name as NSString: rows.font = String(describing: name)
        default: rows.font = nil
        }
        rows.fontSize = fontSize
        rows.isWrapped = isWrapped
        rows.truncationMode = truncationMode.rawValue
        rows.alignmentMode = alignmentMode.rawValue
        rows.allowsFontSubpixelQuantization = allowsFontSubpixelQuantization
        guard rows != modelState.text else { return }
        modelState.text = rows
        if notify { changed() }
    }
}
