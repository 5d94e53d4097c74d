import Foundation

/// How a `CATextLayer` shortens text too wide for its bounds: Core Animation's
/// `CATextLayerTruncationMode`. A name Lamina does not know is kept as given and truncates nothing.
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a mode name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a mode name without an argument label.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// No truncation: the text is wrapped (with `isWrapped`) or clipped at the bounds (the default).
    public static let none = CATextLayerTruncationMode("none")
    /// The end stays visible; an ellipsis replaces the start.
    public static let start = CATextLayerTruncationMode("start")
    /// The start stays visible; an ellipsis replaces the end.
    public static let end = CATextLayerTruncationMode("end")
    /// Both ends stay visible; an ellipsis replaces the middle.
    public static let middle = CATextLayerTruncationMode("middle")
}

/// How a `CATextLayer` places each line across its bounds: Core Animation's
/// `CATextLayerAlignmentMode`. A name Lamina does not know is kept as given and aligns naturally.
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a mode name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a mode name without an argument label.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Left for left-to-right text, right for right-to-left text (the default).
    public static let natural = CATextLayerAlignmentMode("natural")
    /// Flush left.
    public static let left = CATextLayerAlignmentMode("left")
    /// Flush right.
    public static let right = CATextLayerAlignmentMode("right")
    /// Centred.
    public static let center = CATextLayerAlignmentMode("center")
    /// Wrapped lines stretched to both edges; a paragraph's last line (and an unwrapped line) is
    /// natural.
    public static let justified = CATextLayerAlignmentMode("justified")
}
