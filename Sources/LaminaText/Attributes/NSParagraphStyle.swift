import Foundation

// UIKit's paragraph types, which swift-corelibs-foundation lacks, for Apple source that builds
// attributed strings with `.paragraphStyle`. Raw values are iOS's.

/// How lines are aligned: UIKit's `NSTextAlignment` (iOS raw values: center 1, right 2).
public enum NSTextAlignment: Int, Sendable {
    /// Flush left.
    case left = 0
    /// Centred.
    case center = 1
    /// Flush right.
    case right = 2
    /// Stretched to both edges, except each paragraph's last line.
    case justified = 3
    /// By the paragraph's direction (the default).
    case natural = 4

    /// Core Text's alignment of the same meaning.
    var coreText: CTTextAlignment {
        switch self {
        case .left: .left
        case .center: .center
        case .right: .right
        case .justified: .justified
        case .natural: .natural
        }
    }
}

/// Where lines break and how a line that does not fit ends: UIKit's `NSLineBreakMode` (the same
/// raw values as `CTLineBreakMode`).
public enum NSLineBreakMode: Int, Sendable {
    /// Between words (the default).
    case byWordWrapping = 0
    /// Between any characters.
    case byCharWrapping = 1
    /// No wrapping; cut off.
    case byClipping = 2
    /// No wrapping; an ellipsis replaces the start.
    case byTruncatingHead = 3
    /// No wrapping; an ellipsis replaces the end.
    case byTruncatingTail = 4
    /// No wrapping; an ellipsis replaces the middle.
    case byTruncatingMiddle = 5
}

/// Underline and strikethrough styles: UIKit's `NSUnderlineStyle` (raw values as on Apple; give
/// `.single.rawValue` as the attribute's value, as UIKit code does).
public struct NSUnderlineStyle: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Makes a style from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// A single line.
    public static let single = NSUnderlineStyle(rawValue: 0x01)
    /// A thick line.
    public static let thick = NSUnderlineStyle(rawValue: 0x02)
    /// Two lines.
    public static let double = NSUnderlineStyle(rawValue: 0x09)
}

/// A paragraph style: UIKit's `NSParagraphStyle`. Lamina lays text out with `alignment`,
/// `lineBreakMode` and `baseWritingDirection`; the spacing values are kept and read back.
open class NSParagraphStyle: NSObject, NSCopying, @unchecked Sendable {
    /// The style every paragraph has when none is given.
    public static let `default` = NSParagraphStyle()

    /// How lines are aligned; `.natural` by default.
    open internal(set) var alignment: NSTextAlignment = .natural
    /// Where lines break; `.byWordWrapping` by default.
    open internal(set) var lineBreakMode: NSLineBreakMode = .byWordWrapping
    /// The paragraph's base direction; `.natural` by default.
    open internal(set) var baseWritingDirection: CTWritingDirection = .natural
    /// Extra space between lines (kept, not applied).
    open internal(set) var lineSpacing: CGFloat = 0
    /// Space after the paragraph (kept, not applied).
    open internal(set) var paragraphSpacing: CGFloat = 0
    /// The line-height multiple (kept, not applied).
    open internal(set) var lineHeightMultiple: CGFloat = 0

    /// A style with the default values.
    public override init() {
        super.init()
    }

    /// A copy of the style.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSParagraphStyle()
        copy.take(self)
        return copy
    }

    /// A mutable copy of the style.
    open override func mutableCopy() -> Any {
        let copy = NSMutableParagraphStyle()
        copy.take(self)
        return copy
    }

    func take(_ other: NSParagraphStyle) {
        alignment = other.alignment
        lineBreakMode = other.lineBreakMode
        baseWritingDirection = other.baseWritingDirection
        lineSpacing = other.lineSpacing
        paragraphSpacing = other.paragraphSpacing
        lineHeightMultiple = other.lineHeightMultiple
    }
}

/// A paragraph style whose values can be set: UIKit's `NSMutableParagraphStyle`.
open class NSMutableParagraphStyle: NSParagraphStyle, @unchecked Sendable {
    /// How lines are aligned.
    open override var alignment: NSTextAlignment {
        get { super.alignment }
        set { super.alignment = newValue }
    }
    /// Where lines break.
    open override var lineBreakMode: NSLineBreakMode {
        get { super.lineBreakMode }
        set { super.lineBreakMode = newValue }
    }
    /// The paragraph's base direction.
    open override var baseWritingDirection: CTWritingDirection {
        get { super.baseWritingDirection }
        set { super.baseWritingDirection = newValue }
    }
    /// Extra space between lines (kept, not applied).
    open override var lineSpacing: CGFloat {
        get { super.lineSpacing }
        set { super.lineSpacing = newValue }
    }
    /// Space after the paragraph (kept, not applied).
    open override var paragraphSpacing: CGFloat {
        get { super.paragraphSpacing }
        set { super.paragraphSpacing = newValue }
    }
    /// The line-height multiple (kept, not applied).
    open override var lineHeightMultiple: CGFloat {
        get { super.lineHeightMultiple }
        set { super.lineHeightMultiple = newValue }
    }

    /// Sets every value from `obj`.
    open func setParagraphStyle(_ obj: NSParagraphStyle) {
        take(obj)
    }
}
