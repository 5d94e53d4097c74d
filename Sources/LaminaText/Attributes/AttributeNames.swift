import Foundation

// Core Text's attribute names, with Apple's raw values (the UIKit/AppKit keys Core Text shares are
// "NS…", Core Text's own "CT…"). On Linux they are `NSString`s (`CFString` is an alias of it):
// `NSAttributedString.Key(kCTFontAttributeName as String)` names the same key as `.font`.

/// The font of a run: a `CTFont` ("NSFont"; default Helvetica 12, as Core Text documents).
nonisolated(unsafe) public let kCTFontAttributeName: CFString = "NSFont"
/// The colour of a run's glyphs: a `CGColor` ("CTForegroundColor"; default black, as Core Text
/// documents).
nonisolated(unsafe) public let kCTForegroundColorAttributeName: CFString = "CTForegroundColor"
/// Whether the glyphs take the context's fill colour instead ("CTForegroundColorFromContext"): a
/// Boolean `NSNumber` or `Bool`.
nonisolated(unsafe) public let kCTForegroundColorFromContextAttributeName: CFString = "CTForegroundColorFromContext"
/// Extra space after each character, in points ("NSKern"): a number.
nonisolated(unsafe) public let kCTKernAttributeName: CFString = "NSKern"
/// The paragraph style: a `CTParagraphStyle` or `NSParagraphStyle` ("NSParagraphStyle").
nonisolated(unsafe) public let kCTParagraphStyleAttributeName: CFString = "NSParagraphStyle"
/// The underline: a `CTUnderlineStyle` raw value as a number ("NSUnderline").
nonisolated(unsafe) public let kCTUnderlineStyleAttributeName: CFString = "NSUnderline"
/// The underline colour: a `CGColor` ("NSUnderlineColor"; default: the foreground colour).
nonisolated(unsafe) public let kCTUnderlineColorAttributeName: CFString = "NSUnderlineColor"
/// The stroke width, in percent of the font size ("NSStrokeWidth"): positive strokes only,
/// negative fills and strokes.
nonisolated(unsafe) public let kCTStrokeWidthAttributeName: CFString = "NSStrokeWidth"
/// The stroke colour: a `CGColor` ("CTStrokeColor"; default: the foreground colour).
nonisolated(unsafe) public let kCTStrokeColorAttributeName: CFString = "CTStrokeColor"
/// Ligatures: 0 only the required ones, 1 the standard ones (the default) ("NSLigature").
nonisolated(unsafe) public let kCTLigatureAttributeName: CFString = "NSLigature"
/// How far the baseline is raised, in points ("NSBaselineOffset").
nonisolated(unsafe) public let kCTBaselineOffsetAttributeName: CFString = "NSBaselineOffset"

extension NSAttributedString.Key {
    /// The font: a `CTFont` here (UIKit's `UIFont` does not exist on Linux). UIKit's key, "NSFont".
    public static let font = NSAttributedString.Key("NSFont")
    /// The text colour: a `CGColor` here. UIKit's key, "NSColor"; default black.
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// The paragraph style: an `NSParagraphStyle` or `CTParagraphStyle`. UIKit's key, "NSParagraphStyle".
    public static let paragraphStyle = NSAttributedString.Key("NSParagraphStyle")
    /// Extra space after each character, in points. UIKit's key, "NSKern".
    public static let kern = NSAttributedString.Key("NSKern")
    /// The underline: an `NSUnderlineStyle` raw value. UIKit's key, "NSUnderline".
    public static let underlineStyle = NSAttributedString.Key("NSUnderline")
    /// The underline colour: a `CGColor`. UIKit's key, "NSUnderlineColor".
    public static let underlineColor = NSAttributedString.Key("NSUnderlineColor")
    /// The strikethrough: an `NSUnderlineStyle` raw value. UIKit's key, "NSStrikethrough".
    public static let strikethroughStyle = NSAttributedString.Key("NSStrikethrough")
    /// The stroke colour: a `CGColor`. UIKit's key, "NSStrokeColor".
    public static let strokeColor = NSAttributedString.Key("NSStrokeColor")
    /// The stroke width in percent of the font size (positive: stroke only; negative: fill and
    /// stroke). UIKit's key, "NSStrokeWidth".
    public static let strokeWidth = NSAttributedString.Key("NSStrokeWidth")
    /// How far the baseline is raised, in points. UIKit's key, "NSBaselineOffset".
    public static let baselineOffset = NSAttributedString.Key("NSBaselineOffset")
    /// Ligatures: 0 none but the required ones, 1 the default. UIKit's key, "NSLigature".
    public static let ligature = NSAttributedString.Key("NSLigature")
    /// A background colour. UIKit's key, "NSBackgroundColor"; Core Text does not draw it, nor does
    /// Lamina.
    public static let backgroundColor = NSAttributedString.Key("NSBackgroundColor")
}
