import CPango
import Foundation

/// A UTF-16 code unit: Core Foundation's `UniChar`.
public typealias UniChar = UInt16

/// A font at a size: Core Text's `CTFont`. Immutable and usable from any thread.
///
/// Made by `CTFontCreateWithName(_:_:_:)`, which resolves the name through fontconfig and Lamina's
/// aliases (`LaminaFonts`), so `"Helvetica"` is drawn with a free, metric-compatible face such as
/// Nimbus Sans. Its metrics (`CTFontGetAscent`, `CTFontGetDescent`, `CTFontGetLeading`) are that
/// face's, scaled to the size; `CTFontCopyPostScriptName` names that face.
public final class CTFont: NSObject, @unchecked Sendable {
    /// The face the name resolved to.
    let resolved: ResolvedFont
    /// The name the font was made with.
    let requestedName: String
    /// The point size (an em in user-space units).
    let pointSize: CGFloat
    /// The matrix given at creation; kept and returned, not applied to layout (Lamina draws fonts
    /// unskewed).
    let matrix: CGAffineTransform
    /// The face's metrics (nil only for a face HarfBuzz cannot open).
    let face: FontFace?

    init(resolved: ResolvedFont, requestedName: String, size: CGFloat, matrix: CGAffineTransform, face: FontFace?) {
        self.resolved = resolved
        self.requestedName = requestedName
        self.pointSize = size
        self.matrix = matrix
        self.face = face
        super.init()
    }

    /// The font named `name` at `size` (0 or less: 12, Core Text's default).
    convenience init(name: String, size: CGFloat, matrix: CGAffineTransform = .identity) {
        let (resolved, face) = TextEngine.run { engine in
            let resolved = FontResolver.resolve(name, in: engine)
            return (resolved, engine.face(path: resolved.path, index: resolved.index))
        }
        self.init(
            resolved: resolved, requestedName: name, size: size > 0 ? size : 12, matrix: matrix, face: face)
    }

    /// The font Pango chose for a run (`PangoFont *`, a `PangoFcFont`), as a `CTFont`. Caller holds
    /// the text lock.
    static func from(pangoFont: UnsafeMutablePointer<PangoFont>, engine: TextEngine) -> CTFont? {
        let fcFont = UnsafeMutableRawPointer(pangoFont).assumingMemoryBound(to: PangoFcFont.self)
        guard let pattern = fcFont.pointee.font_pattern, var resolved = FontResolver.describe(pattern) else {
            return nil
        }
        resolved.isExactMatch = true
        let description = pango_font_describe_with_absolute_size(pangoFont)
        defer { pango_font_description_free(description) }
        let size = CGFloat(pango_font_description_get_size(description)) / CGFloat(PANGO_SCALE)
        return CTFont(
            resolved: resolved, requestedName: resolved.postScriptName, size: size, matrix: .identity,
            face: engine.face(path: resolved.path, index: resolved.index))
    }

    /// The same face at another size.
    func withSize(_ size: CGFloat) -> CTFont {
        CTFont(resolved: resolved, requestedName: requestedName, size: size, matrix: matrix, face: face)
    }

    /// A Pango description of the font (the caller frees it).
    func pangoDescription() -> OpaquePointer {
        resolved.pangoDescription(size: pointSize)
    }

    /// Font units to user-space units at this size.
    var unitScale: CGFloat {
        guard let face, face.unitsPerEm > 0 else { return pointSize / 1000 }
        return pointSize / CGFloat(face.unitsPerEm)
    }

    /// The ascent (above the baseline), in user-space units.
    var ascent: CGFloat { CGFloat(face?.ascender ?? 800) * unitScale }
    /// The descent (below the baseline, positive), in user-space units.
    var descent: CGFloat { CGFloat(face?.descender ?? 200) * unitScale }
    /// The leading (line gap), in user-space units.
    var leading: CGFloat { CGFloat(face?.lineGap ?? 0) * unitScale }

    /// Whether two fonts are the same face at the same size and matrix.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CTFont else { return false }
        return other.resolved == resolved && other.pointSize == pointSize && other.matrix == matrix
    }

    /// A hash consistent with `isEqual(_:)`.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(resolved)
        hasher.combine(pointSize)
        return hasher.finalize()
    }

    /// The PostScript name and size, as `CFCopyDescription` shows a font.
    public override var description: String {
        "<CTFont \(resolved.postScriptName) \(pointSize) pt (asked for \(requestedName))>"
    }
}

/// Which way glyph metrics are measured: Core Text's `CTFontOrientation`.
public enum CTFontOrientation: UInt32, Sendable {
    /// The font's default orientation (horizontal here).
    case `default` = 0
    /// Horizontal metrics.
    case horizontal = 1
    /// Vertical metrics (Lamina gives the horizontal ones).
    case vertical = 2
}

/// The style traits of a font: Core Text's `CTFontSymbolicTraits`.
public struct CTFontSymbolicTraits: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt32
    /// Makes traits from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Italic or oblique.
    public static let traitItalic = CTFontSymbolicTraits(rawValue: 1 << 0)
    /// Bold.
    public static let traitBold = CTFontSymbolicTraits(rawValue: 1 << 1)
    /// Expanded.
    public static let traitExpanded = CTFontSymbolicTraits(rawValue: 1 << 5)
    /// Condensed.
    public static let traitCondensed = CTFontSymbolicTraits(rawValue: 1 << 6)
    /// Every glyph has the same advance.
    public static let traitMonoSpace = CTFontSymbolicTraits(rawValue: 1 << 10)
    /// Colour glyphs (emoji).
    public static let traitColorGlyphs = CTFontSymbolicTraits(rawValue: 1 << 13)
}
