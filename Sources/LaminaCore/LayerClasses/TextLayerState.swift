import Foundation

/// The properties of a `CATextLayer` as the render server knows them: the storage behind
/// `LayerClassState.text`.
///
/// The client draws the text into the layer's contents, so most fields are copies of the client's
/// values that `laminactl tree` prints (`LayerPropertyDescriptor.textRows`, kept by the client).
/// Two are read for drawing: `foregroundColor`, animated on the server's clock, and `tintsContents`,
/// set by the client when the contents are the text's glyph coverage (white glyphs), which the
/// server then multiplies by the presented `foregroundColor`.
public struct TextLayerState: Sendable, Hashable {
    /// The string's characters (an attributed string's too), cut to `maxStringCharacters` with an
    /// ellipsis; nil when the layer has no string.
    public var string: String? = nil
    /// The font's name (a font object's PostScript name); nil for the default (Helvetica).
    public var font: String? = nil
    /// The size of a plain string's font, in points.
    public var fontSize: CGFloat = 36
    /// The colour of a plain string; opaque white by default. Nil draws black.
    public var foregroundColor: RGBAColor? = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
    /// Whether the text wraps at the bounds' width.
    public var isWrapped = false
    /// How text too wide is shortened (`CATextLayerTruncationMode`'s name).
    public var truncationMode = "none"
    /// How lines are aligned (`CATextLayerAlignmentMode`'s name).
    public var alignmentMode = "natural"
    /// Whether glyph positions may be quantised to subpixels.
    public var allowsFontSubpixelQuantization = false
    /// Whether the contents are the text's coverage in white, to be multiplied by the presented
    /// `foregroundColor` (a plain string without colour glyphs); false for anything else the contents
    /// hold (an attributed string drawn in its own colours, an image the app set).
    public var tintsContents = false

    /// A text layer's properties at their defaults.
    public init() {}

    /// The defaults, read when a layer of another class is asked for a text property.
    public static let defaults = TextLayerState()

    /// The most characters of `string` the server is sent (it only prints them).
    public static let maxStringCharacters = 120

    /// `text` cut to `maxStringCharacters` characters, the last one an ellipsis when it was cut.
    public static func shortened(_ text: String) -> String {
        guard text.count > maxStringCharacters else { return text }
        return String(text.prefix(maxStringCharacters - 1)) + "\u{2026}"
    }
}
