// LaminaText: Core Text on Linux. Attributed strings are laid out by Pango (HarfBuzz shaping, bidi,
// line breaking, font fallback through fontconfig) and drawn with Cairo into a `CGContext`.
//
// Folders: Fonts (the fontconfig configuration with Lamina's aliases for Apple's font names, name
// resolution, `CTFont`, `CGFont`, metrics from HarfBuzz), Attributes (attribute names,
// `CTParagraphStyle` and UIKit's `NSParagraphStyle` family, the parsed attributes of a run), Layout
// (attributed strings into Pango layouts, `CTLine`, `CTRun`, truncation, `CTFramesetter`, `CTFrame`,
// the multi-line block `CATextLayer` draws), Drawing (runs and glyphs painted into `CGContext`).
//
// Every Pango and fontconfig call runs under one process-wide lock (`TextEngine`), so the Core
// Text objects may be used from any thread; they are immutable once made.
//
// It re-exports LaminaGraphics (and through it Foundation and LaminaCore), so `import LaminaText`
// alone gives Core Graphics too, as `import CoreText` does on Apple platforms.
@_exported import LaminaGraphics

/// An index or count in a Core Foundation collection: Core Foundation's `CFIndex`.
public typealias CFIndex = Int

/// A Core Foundation object of any type: Core Foundation's `CFTypeRef`. Values given as
/// `"Helvetica" as CFTypeRef` arrive as Swift strings; Lamina's APIs that take one accept `String`,
/// `NSString` and the Core Text and Core Graphics font classes.
public typealias CFTypeRef = AnyObject

/// An attributed string: Core Foundation's `CFAttributedString` (toll-free bridged to
/// `NSAttributedString` on Apple platforms, an alias of it here).
public typealias CFAttributedString = NSAttributedString

/// A mutable attributed string: Core Foundation's `CFMutableAttributedString`.
public typealias CFMutableAttributedString = NSMutableAttributedString

/// An allocator argument of Core Foundation's functions; Lamina ignores it (pass nil or
/// `kCFAllocatorDefault`).
public typealias CFAllocator = AnyObject

/// The default allocator: nil, which every Lamina function taking an allocator accepts.
nonisolated(unsafe) public let kCFAllocatorDefault: CFAllocator? = nil

/// A range of a string or collection: Core Foundation's `CFRange` (`location` and `length` in
/// UTF-16 code units for strings).
public struct CFRange: Sendable, Equatable, Hashable {
    /// The first index.
    public var location: CFIndex
    /// How many items the range covers.
    public var length: CFIndex

    /// A range starting at `location` covering `length` items.
    public init(location: CFIndex, length: CFIndex) {
        self.location = location
        self.length = length
    }

    /// The empty range at 0.
    public init() {
        self.init(location: 0, length: 0)
    }
}

/// Makes a `CFRange` (Core Foundation's `CFRangeMake`).
public func CFRangeMake(_ loc: CFIndex, _ len: CFIndex) -> CFRange {
    CFRange(location: loc, length: len)
}

/// Makes an attributed string of `str` whose every character has `attributes` (Core Foundation's
/// `CFAttributedStringCreate`); the allocator is ignored.
public func CFAttributedStringCreate(
    _ alloc: CFAllocator?, _ str: CFString, _ attributes: CFDictionary?
) -> CFAttributedString? {
    var attrs: [NSAttributedString.Key: Any] = [:]
    attributes?.enumerateKeysAndObjects { key, value, _ in
        if let name = TextAttributes.keyName(key) { attrs[NSAttributedString.Key(name)] = value }
    }
    return NSAttributedString(string: String(describing: str), attributes: attrs)
}

/// The length of an attributed string in UTF-16 code units (Core Foundation's
/// `CFAttributedStringGetLength`).
public func CFAttributedStringGetLength(_ aStr: CFAttributedString) -> CFIndex {
    aStr.length
}
