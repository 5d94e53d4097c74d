import Foundation

extension CATextLayer {
    /// The string to draw with its attributes: an attributed `string` as it is; a plain one in the
    /// layer's font at `fontSize` and `foregroundColor` (no colour attribute when it is nil: black).
    /// Nil when `string` is neither.
    var attributedText: NSAttributedString? {
        switch string {
        case let attributed as NSAttributedString:
            return attributed
        case let text as String:
            return plainText(text)
        case let text as NSString:
            return plainText(String(describing: text))
        default:
            return nil
        }
    }

    /// A plain string in the layer's font: in white while drawing coverage for the server to tint
    /// (`drawsCoverage`), else in `foregroundColor`.
    private func plainText(_ text: String) -> NSAttributedString {
        var attributes: [NSAttributedString.Key: Any] = [.font: resolvedFont]
        if drawsCoverage {
            attributes[.foregroundColor] = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        } else if let color = foregroundColor {
            attributes[.foregroundColor] = color
        }
        return NSAttributedString(string: text, attributes: attributes)
    }

    /// The layer's font at `fontSize`: a name resolved by Core Text, a font object at the layer's
    /// size (its own ignored), Helvetica for anything else.
    var resolvedFont: CTFont {
        let size = fontSize
        switch textValue("font") {
        case let font as CTFont: return CTFontCreateCopyWithAttributes(font, size > 0 ? size : 12, nil, nil)
        case let font as CGFont: return CTFontCreateWithGraphicsFont(font, size, nil, nil)
        case let name as String: return CTFontCreateWithName(name as CFString, size, nil)
        case let name as NSString: return CTFontCreateWithName(name, size, nil)
        default: return CTFontCreateWithName("Helvetica" as CFString, size, nil)
        }
    }

    /// The layout of the text in the bounds, as `draw(in:)` draws it.
    var textBlock: TextBlock? {
        guard let text = attributedText, text.length > 0 else { return nil }
        let bounds = self.bounds.standardized
        var options = TextBlock.Options(width: bounds.width)
        options.wraps = isWrapped
        switch truncationMode {
        case .start: options.truncation = .start
        case .middle: options.truncation = .middle
        case .end: options.truncation = .end
        default: options.truncation = nil
        }
        switch alignmentMode {
        case .left: options.alignment = .left
        case .right: options.alignment = .right
        case .center: options.alignment = .center
        case .justified: options.alignment = .justified
        default: options.alignment = .natural
        }
        if isWrapped && options.truncation != nil {
            options.maxHeight = bounds.height
            options.keepsFirstLine = true
        }
        return TextBlock(text, options: options)
    }

    /// Draws the text into `ctx`, whose user space is the layer's (y down): each line's baseline
    /// `ascent` below the previous line's bottom, starting at the top of the bounds, clipped to the
    /// bounds. The text matrix flips text space (y up) into the layer's y-down space and is put back
    /// afterwards; the graphics state is saved around the drawing.
    func drawText(in ctx: CGContext) {
        guard let block = textBlock else { return }
        if drawsCoverage && hasPlainString { drewCoverage = true }
        let bounds = self.bounds.standardized
        ctx.saveGState()
        ctx.clip(to: bounds)
        ctx.setAllowsFontSubpixelQuantization(allowsFontSubpixelQuantization)
        let savedMatrix = ctx.textMatrix
        ctx.textMatrix = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 0)
        for line in block.lines {
            ctx.textPosition = CGPoint(x: bounds.minX + line.x, y: bounds.minY + line.baseline)
            CTLineDraw(line.line, ctx)
        }
        ctx.textMatrix = savedMatrix
        ctx.restoreGState()
    }
}
