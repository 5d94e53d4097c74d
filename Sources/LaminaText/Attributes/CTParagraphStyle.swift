import Foundation

/// How lines are placed across the width: Core Text's `CTTextAlignment` (Apple's raw values).
public enum CTTextAlignment: UInt8, Sendable {
    /// Flush left.
    case left = 0
    /// Flush right.
    case right = 1
    /// Centred.
    case center = 2
    /// Stretched to both edges, except the last line of a paragraph (which is natural).
    case justified = 3
    /// Left for left-to-right paragraphs, right for right-to-left ones (the default).
    case natural = 4
}

/// Where lines break and how a line that does not fit ends: Core Text's `CTLineBreakMode`.
public enum CTLineBreakMode: UInt8, Sendable {
    /// Break between words, inside a word only when it alone is too long (the default).
    case byWordWrapping = 0
    /// Break between any two characters.
    case byCharWrapping = 1
    /// Do not wrap; what does not fit is cut off.
    case byClipping = 2
    /// Do not wrap; a line that does not fit loses its start to an ellipsis.
    case byTruncatingHead = 3
    /// Do not wrap; a line that does not fit loses its end to an ellipsis.
    case byTruncatingTail = 4
    /// Do not wrap; a line that does not fit loses its middle to an ellipsis.
    case byTruncatingMiddle = 5
}

/// The base direction of a paragraph: Core Text's `CTWritingDirection`.
public enum CTWritingDirection: Int8, Sendable {
    /// From the first strong character (the default).
    case natural = -1
    /// Left to right.
    case leftToRight = 0
    /// Right to left.
    case rightToLeft = 1
}

/// Which paragraph setting a `CTParagraphStyleSetting` gives: Core Text's
/// `CTParagraphStyleSpecifier` (Apple's raw values). Lamina lays text out with `alignment`,
/// `lineBreakMode` and `baseWritingDirection`; the others are kept and read back.
public enum CTParagraphStyleSpecifier: UInt32, Sendable {
    /// A `CTTextAlignment`.
    case alignment = 0
    /// A `CGFloat` (kept, not applied).
    case firstLineHeadIndent = 1
    /// A `CGFloat` (kept, not applied).
    case headIndent = 2
    /// A `CGFloat` (kept, not applied).
    case tailIndent = 3
    /// Tab stops (not supported).
    case tabStops = 4
    /// A `CGFloat` (kept, not applied).
    case defaultTabInterval = 5
    /// A `CTLineBreakMode`.
    case lineBreakMode = 6
    /// A `CGFloat` (kept, not applied).
    case lineHeightMultiple = 7
    /// A `CGFloat` (kept, not applied).
    case maximumLineHeight = 8
    /// A `CGFloat` (kept, not applied).
    case minimumLineHeight = 9
    /// A `CGFloat` (deprecated by Apple; kept, not applied).
    case lineSpacing = 10
    /// A `CGFloat` (kept, not applied).
    case paragraphSpacing = 11
    /// A `CGFloat` (kept, not applied).
    case paragraphSpacingBefore = 12
    /// A `CTWritingDirection`.
    case baseWritingDirection = 13
    /// A `CGFloat` (kept, not applied).
    case maximumLineSpacing = 14
    /// A `CGFloat` (kept, not applied).
    case minimumLineSpacing = 15
    /// A `CGFloat` (kept, not applied).
    case lineSpacingAdjustment = 16
}

/// One setting given to `CTParagraphStyleCreate`: Core Text's `CTParagraphStyleSetting`.
public struct CTParagraphStyleSetting {
    /// Which setting.
    public var spec: CTParagraphStyleSpecifier
    /// The size of the value `value` points at.
    public var valueSize: Int
    /// The value.
    public var value: UnsafeRawPointer

    /// A setting of `spec` to the `valueSize` bytes at `value`.
    public init(spec: CTParagraphStyleSpecifier, valueSize: Int, value: UnsafeRawPointer) {
        self.spec = spec
        self.valueSize = valueSize
        self.value = value
    }
}

/// A paragraph style: Core Text's `CTParagraphStyle`. Immutable.
public final class CTParagraphStyle: NSObject, @unchecked Sendable {
    /// How lines are aligned.
    let alignment: CTTextAlignment
    /// How lines break or end.
    let lineBreakMode: CTLineBreakMode
    /// The paragraph's base direction.
    let baseWritingDirection: CTWritingDirection
    /// The floating-point settings, by specifier (kept, not applied).
    let floats: [CTParagraphStyleSpecifier: CGFloat]

    init(
        alignment: CTTextAlignment = .natural, lineBreakMode: CTLineBreakMode = .byWordWrapping,
        baseWritingDirection: CTWritingDirection = .natural, floats: [CTParagraphStyleSpecifier: CGFloat] = [:]
    ) {
        self.alignment = alignment
        self.lineBreakMode = lineBreakMode
        self.baseWritingDirection = baseWritingDirection
        self.floats = floats
        super.init()
    }
}

/// A paragraph style with the `settingCount` settings at `settings` (Core Text's
/// `CTParagraphStyleCreate`); unset ones have Core Text's defaults (natural alignment, word
/// wrapping, natural direction). A value of an unknown raw value keeps the default.
public func CTParagraphStyleCreate(
    _ settings: UnsafePointer<CTParagraphStyleSetting>?, _ settingCount: Int
) -> CTParagraphStyle {
    var alignment = CTTextAlignment.natural
    var lineBreakMode = CTLineBreakMode.byWordWrapping
    var direction = CTWritingDirection.natural
    var floats: [CTParagraphStyleSpecifier: CGFloat] = [:]
    for i in 0..<(settings == nil ? 0 : settingCount) {
        let setting = settings![i]
        switch setting.spec {
        case .alignment:
            alignment = CTTextAlignment(rawValue: setting.value.load(as: UInt8.self)) ?? alignment
        case .lineBreakMode:
            lineBreakMode = CTLineBreakMode(rawValue: setting.value.load(as: UInt8.self)) ?? lineBreakMode
        case .baseWritingDirection:
            direction = CTWritingDirection(rawValue: setting.value.load(as: Int8.self)) ?? direction
        case .tabStops:
            break
        default:
            if setting.valueSize >= MemoryLayout<CGFloat>.size {
                floats[setting.spec] = setting.value.loadUnaligned(as: CGFloat.self)
            }
        }
    }
    return CTParagraphStyle(
        alignment: alignment, lineBreakMode: lineBreakMode, baseWritingDirection: direction, floats: floats)
}

/// Copies the value of `spec` into the `valueBufferSize` bytes at `valueBuffer` (Core Text's
/// `CTParagraphStyleGetValueForSpecifier`); false when the buffer is too small or the specifier is
/// not supported.
public func CTParagraphStyleGetValueForSpecifier(
    _ paragraphStyle: CTParagraphStyle, _ spec: CTParagraphStyleSpecifier, _ valueBufferSize: Int,
    _ valueBuffer: UnsafeMutableRawPointer
) -> Bool {
    switch spec {
    case .alignment:
        guard valueBufferSize >= 1 else { return false }
        valueBuffer.storeBytes(of: paragraphStyle.alignment.rawValue, as: UInt8.self)
    case .lineBreakMode:
        guard valueBufferSize >= 1 else { return false }
        valueBuffer.storeBytes(of: paragraphStyle.lineBreakMode.rawValue, as: UInt8.self)
    case .baseWritingDirection:
        guard valueBufferSize >= 1 else { return false }
        valueBuffer.storeBytes(of: paragraphStyle.baseWritingDirection.rawValue, as: Int8.self)
    case .tabStops:
        return false
    default:
        guard valueBufferSize >= MemoryLayout<CGFloat>.size else { return false }
        valueBuffer.storeBytes(of: paragraphStyle.floats[spec] ?? 0, toByteOffset: 0, as: CGFloat.self)
    }
    return true
}

/// The style of an underline or strikethrough: Core Text's `CTUnderlineStyle` (Apple's raw values;
/// UIKit's `NSUnderlineStyle` shares them).
public struct CTUnderlineStyle: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int32
    /// Makes a style from raw bits.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// No underline.
    public static let none = CTUnderlineStyle([])
    /// A single line.
    public static let single = CTUnderlineStyle(rawValue: 0x01)
    /// A thick line.
    public static let thick = CTUnderlineStyle(rawValue: 0x02)
    /// Two lines.
    public static let double = CTUnderlineStyle(rawValue: 0x09)
}
