import Foundation

/// How `CGContext.drawPath(using:)` paints the current path: fill, stroke or both, with a fill rule.
///
/// The raw values are Apple's (`kCGPathFill` 0 … `kCGPathEOFillStroke` 4).
public enum CGPathDrawingMode: Int32, Sendable, Hashable {
    /// Fills the path with the nonzero winding rule.
    case fill = 0
    /// Fills the path with the even-odd rule.
    case eoFill = 1
    /// Strokes the path.
    case stroke = 2
    /// Fills with the nonzero winding rule, then strokes.
    case fillStroke = 3
    /// Fills with the even-odd rule, then strokes.
    case eoFillStroke = 4
}
