import Foundation

/// The writing direction of a UIKit paragraph: the same values as Core Text's.
public typealias NSWritingDirection = CTWritingDirection

/// A paragraph's layout settings, from a `CTParagraphStyle` or an `NSParagraphStyle`.
struct ParagraphSettings: Equatable, Sendable {
    var alignment = CTTextAlignment.natural
    var lineBreakMode = CTLineBreakMode.byWordWrapping
    var direction = CTWritingDirection.natural

    init() {}

    init?(_ value: Any?) {
        if let style = value as? CTParagraphStyle {
            alignment = style.alignment
            lineBreakMode = style.lineBreakMode
            direction = style.baseWritingDirection
        } else if let style = value as? NSParagraphStyle {
            alignment = style.alignment.coreText
            lineBreakMode = CTLineBreakMode(rawValue: UInt8(style.lineBreakMode.rawValue)) ?? .byWordWrapping
            direction = style.baseWritingDirection
        } else {
            return nil
        }
    }
}

/// The attributes of one run of an attributed string, read with Core Text's defaults: Helvetica 12,
/// black, no kern, no underline.
struct TextAttributes {
    /// The run's font.
    var font: CTFont
    /// The glyph colour (nil: the context's fill colour, for `kCTForegroundColorFromContextAttributeName`).
    var color: CGColor?
    /// Extra space after each character, in points.
    var kern: CGFloat = 0
    /// The underline and strikethrough styles (`CTUnderlineStyle` raw values; 0 none).
    var underline = 0
    var strikethrough = 0
    /// The underline colour (nil: the glyph colour).
    var underlineColor: CGColor?
    /// The stroke width in percent of the font size (0: no stroke; negative: fill and stroke).
    var strokeWidth: CGFloat = 0
    /// The stroke colour (nil: the glyph colour).
    var strokeColor: CGColor?
    /// How far the baseline is raised.
    var baselineOffset: CGFloat = 0
    /// 0: only required ligatures.
    var ligature = 1
    /// The paragraph settings, when the run carries a style.
    var paragraph: ParagraphSettings?
    /// The dictionary the run had.
    var dictionary: [NSAttributedString.Key: Any]

    /// Black, as Core Text documents for `kCTForegroundColorAttributeName`.
    static let black = CGColor(gray: 0, alpha: 1)

    /// Core Text's default font, Helvetica 12.
    static var defaultFont: CTFont { CTFont(name: "Helvetica", size: 12) }

    init(_ attributes: [NSAttributedString.Key: Any], defaultFont: CTFont) {
        dictionary = attributes
        func value(_ names: String...) -> Any? {
            for name in names { if let v = attributes[NSAttributedString.Key(name)] { return v } }
            return nil
        }
        font = value("NSFont") as? CTFont ?? defaultFont
        let fromContext = value("CTForegroundColorFromContext").flatMap(Self.bool) ?? false
        color = fromContext ? nil : (Self.color(value("CTForegroundColor", "NSColor")) ?? Self.black)
        kern = value("NSKern").flatMap(Self.number) ?? 0
        underline = Int(value("NSUnderline").flatMap(Self.number) ?? 0)
        strikethrough = Int(value("NSStrikethrough").flatMap(Self.number) ?? 0)
        underlineColor = Self.color(value("NSUnderlineColor"))
        strokeWidth = value("NSStrokeWidth").flatMap(Self.number) ?? 0
        strokeColor = Self.color(value("CTStrokeColor", "NSStrokeColor"))
        baselineOffset = value("NSBaselineOffset", "CTBaselineOffset").flatMap(Self.number) ?? 0
        ligature = Int(value("NSLigature").flatMap(Self.number) ?? 1)
        paragraph = ParagraphSettings(value("NSParagraphStyle"))
    }

    /// A number given as any Swift or Foundation numeric type, or an underline style.
    static func number(_ value: Any) -> CGFloat? {
        switch value {
        case let n as NSNumber: CGFloat(n.doubleValue)
        case let d as Double: CGFloat(d)
        case let f as CGFloat: f
        case let f as Float: CGFloat(f)
        case let i as Int: CGFloat(i)
        case let i as Int32: CGFloat(i)
        case let s as NSUnderlineStyle: CGFloat(s.rawValue)
        case let s as CTUnderlineStyle: CGFloat(s.rawValue)
        default: nil
        }
    }

    /// A Boolean given as `Bool` or `NSNumber`.
    static func bool(_ value: Any) -> Bool? {
        (value as? Bool) ?? (value as? NSNumber)?.boolValue
    }

    /// A colour given as a `CGColor`.
    static func color(_ value: Any?) -> CGColor? {
        value as? CGColor
    }

    /// The name of an attribute key given as `NSAttributedString.Key`, `String` or `NSString`.
    static func keyName(_ key: Any) -> String? {
        switch key {
        case let k as NSAttributedString.Key: k.rawValue
        case let s as String: s
        case let s as NSString: String(describing: s)
        default: nil
        }
    }
}
