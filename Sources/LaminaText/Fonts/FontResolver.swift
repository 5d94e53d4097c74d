import CPango
import Foundation

/// A font name resolved to one installed face: what fontconfig matched, and how Pango is asked for it.
struct ResolvedFont: Sendable, Hashable {
    /// The face's family name, as fontconfig reports it.
    var family: String
    /// fontconfig's weight, slant and width of the face.
    var weight: Int32
    var slant: Int32
    var width: Int32
    /// The face's PostScript, full and style names.
    var postScriptName: String
    var fullName: String
    var style: String
    /// The font file and face index.
    var path: String
    var index: Int32
    /// Whether the name named this face (its PostScript name, or a family installed or aliased by
    /// Lamina) rather than falling back to Helvetica's face.
    var isExactMatch: Bool

    /// Pango's weight (the OpenType scale, 100…1000) for fontconfig's.
    var pangoWeight: PangoWeight {
        PangoWeight(UInt32(FcWeightToOpenType(weight)))
    }

    /// Pango's style for fontconfig's slant.
    var pangoStyle: PangoStyle {
        slant >= FC_SLANT_OBLIQUE
            ? PANGO_STYLE_OBLIQUE : slant >= FC_SLANT_ITALIC ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL
    }

    /// Pango's stretch for fontconfig's width.
    var pangoStretch: PangoStretch {
        switch width {
        case ..<63: PANGO_STRETCH_ULTRA_CONDENSED
        case ..<75: PANGO_STRETCH_EXTRA_CONDENSED
        case ..<87: PANGO_STRETCH_CONDENSED
        case ..<100: PANGO_STRETCH_SEMI_CONDENSED
        case 100: PANGO_STRETCH_NORMAL
        case ..<113: PANGO_STRETCH_SEMI_EXPANDED
        case ..<125: PANGO_STRETCH_EXPANDED
        case ..<150: PANGO_STRETCH_EXTRA_EXPANDED
        default: PANGO_STRETCH_ULTRA_EXPANDED
        }
    }

    /// A Pango font description of the face at `size` units (absolute: a unit is a user-space unit).
    /// The caller frees it (`pango_font_description_free`).
    func pangoDescription(size: CGFloat) -> OpaquePointer {
        let description = pango_font_description_new()!
        pango_font_description_set_family(description, family)
        pango_font_description_set_weight(description, pangoWeight)
        pango_font_description_set_style(description, pangoStyle)
        pango_font_description_set_stretch(description, pangoStretch)
        pango_font_description_set_absolute_size(description, Double(size) * Double(PANGO_SCALE))
        return description
    }
}

/// Resolves Apple font names as Core Text does (`kCTFontNameAttribute`: a PostScript name first,
/// then family names), over fontconfig.
///
/// 1. A face whose PostScript name is the name (`DejaVuSans-Bold`, `LiberationSans`).
/// 2. Otherwise the name split at its last `-` into a family and a style (`Helvetica-Bold`,
///    `Arial-BoldItalicMT`, `HelveticaNeue-UltraLight`): a trailing `MT`, `PSMT` or `PS` is dropped,
///    the style words set the weight, slant and width, and the family is tried as written and with its
///    CamelCase words spaced (`HelveticaNeue` becomes `Helvetica Neue`, `TimesNewRoman` becomes
///    `Times New Roman`). A family counts as found when an installed face has it or Lamina's aliases
///    know it (Apple's families, matched to their free counterparts).
/// 3. Otherwise Helvetica's face (through the aliases), as Core Text falls back to Helvetica.
enum FontResolver {
    /// The resolution of `name` in `engine`'s configuration (cached per configuration).
    static func resolve(_ name: String, in engine: TextEngine) -> ResolvedFont {
        if let cached = engine.resolvedNames[name] { return cached }
        let resolved = resolveUncached(name, in: engine)
        engine.resolvedNames[name] = resolved
        return resolved
    }

    private static func resolveUncached(_ name: String, in engine: TextEngine) -> ResolvedFont {
        if !name.isEmpty, let exact = facesNamed(postScriptName: name, in: engine.config) {
            return exact
        }
        let (family, traits) = split(name)
        for candidate in familyCandidates(family) where isKnownFamily(candidate, in: engine.config) {
            if var face = match(family: candidate, traits: traits, in: engine.config) {
                face.isExactMatch = true
                return face
            }
        }
        var fallback =
            match(family: engine.fallbackName, traits: traits, in: engine.config)
            ?? match(family: "sans-serif", traits: traits, in: engine.config)
            ?? ResolvedFont(
                family: "sans-serif", weight: Int32(FC_WEIGHT_REGULAR), slant: 0, width: 100, postScriptName: "",
                fullName: "", style: "", path: "", index: 0, isExactMatch: false)
        fallback.isExactMatch = false
        return fallback
    }

    /// Style words and the weight, slant or width they stand for.
    private static let styleWords: [String: (weight: Int32?, slant: Int32?, width: Int32?)] = [
        "thin": (Int32(FC_WEIGHT_THIN), nil, nil), "hairline": (Int32(FC_WEIGHT_THIN), nil, nil),
        "ultralight": (Int32(FC_WEIGHT_EXTRALIGHT), nil, nil), "extralight": (Int32(FC_WEIGHT_EXTRALIGHT), nil, nil),
        "light": (Int32(FC_WEIGHT_LIGHT), nil, nil), "book": (Int32(FC_WEIGHT_BOOK), nil, nil),
        "regular": (Int32(FC_WEIGHT_REGULAR), nil, nil), "roman": (Int32(FC_WEIGHT_REGULAR), nil, nil),
        "normal": (Int32(FC_WEIGHT_REGULAR), nil, nil), "plain": (Int32(FC_WEIGHT_REGULAR), nil, nil),
        "medium": (Int32(FC_WEIGHT_MEDIUM), nil, nil), "semibold": (Int32(FC_WEIGHT_DEMIBOLD), nil, nil),
        "demibold": (Int32(FC_WEIGHT_DEMIBOLD), nil, nil), "demi": (Int32(FC_WEIGHT_DEMIBOLD), nil, nil),
        "bold": (Int32(FC_WEIGHT_BOLD), nil, nil), "extrabold": (Int32(FC_WEIGHT_EXTRABOLD), nil, nil),
        "ultrabold": (Int32(FC_WEIGHT_EXTRABOLD), nil, nil), "heavy": (Int32(FC_WEIGHT_HEAVY), nil, nil),
        "black": (Int32(FC_WEIGHT_BLACK), nil, nil), "italic": (nil, Int32(FC_SLANT_ITALIC), nil),
        "oblique": (nil, Int32(FC_SLANT_OBLIQUE), nil), "condensed": (nil, nil, Int32(FC_WIDTH_CONDENSED)),
        "narrow": (nil, nil, Int32(FC_WIDTH_CONDENSED)), "expanded": (nil, nil, Int32(FC_WIDTH_EXPANDED)),
    ]

    /// Weight, slant and width asked for by a name's style part.
    struct Traits: Hashable {
        var weight = Int32(FC_WEIGHT_REGULAR)
        var slant = Int32(FC_SLANT_ROMAN)
        var width = Int32(FC_WIDTH_NORMAL)
    }

    /// The family part and the traits of `name` (`Arial-BoldItalicMT` → `Arial`, bold italic).
    static func split(_ name: String) -> (family: String, traits: Traits) {
        var family = name
        var style = ""
        if let dash = name.lastIndex(of: "-"), dash != name.startIndex {
            family = String(name[..<dash])
            style = String(name[name.index(after: dash)...])
        }
        var traits = Traits()
        // Longest words first, so "UltraLight" is not read as "Light" nor "SemiBold" as "Bold".
        var rest = dropSuffix(style).lowercased()
        for word in styleWords.keys.sorted(by: { $0.count > $1.count }) where rest.contains(word) {
            rest = rest.replacingOccurrences(of: word, with: " ")
            let t = styleWords[word]!
            if let w = t.weight { traits.weight = w }
            if let s = t.slant { traits.slant = s }
            if let w = t.width { traits.width = w }
        }
        return (family, traits)
    }

    /// `s` without a trailing `PSMT`, `MT` or `PS` that follows a lower-case letter (`ArialMT`,
    /// `TimesNewRomanPSMT`, `BoldMT`).
    static func dropSuffix(_ s: String) -> String {
        for suffix in ["PSMT", "MT", "PS"] where s.hasSuffix(suffix) {
            let head = s.dropLast(suffix.count)
            if head.last?.isLowercase == true { return String(head) }
        }
        return s
    }

    /// The family as written, then with its CamelCase words spaced, then both without an `MT`-like suffix.
    static func familyCandidates(_ family: String) -> [String] {
        var candidates: [String] = []
        for written in [family, dropSuffix(family)] {
            for candidate in [written, camelWords(written).joined(separator: " ")]
            where !candidate.isEmpty && !candidates.contains(candidate) {
                candidates.append(candidate)
            }
        }
        return candidates
    }

    /// `HelveticaNeue` → [Helvetica, Neue]; `SFProText` → [SF, Pro, Text]; runs of capitals stay whole
    /// up to the capital that starts the next word.
    static func camelWords(_ s: String) -> [String] {
        var words: [String] = []
        var current = ""
        let chars = Array(s)
        for (i, c) in chars.enumerated() {
            if c == " " || c == "_" {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            let startsWord =
                c.isUppercase && !current.isEmpty
                && (current.last?.isLowercase == true || current.last?.isNumber == true
                    || (i + 1 < chars.count && chars[i + 1].isLowercase))
            if startsWord {
                words.append(current)
                current = ""
            }
            current.append(c)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Whether `family` is installed in `config` or an Apple family Lamina aliases.
    static func isKnownFamily(_ family: String, in config: OpaquePointer) -> Bool {
        if FontConfiguration.appleFamilies.contains(family.lowercased()) { return true }
        guard let pattern = FcPatternCreate() else { return false }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, FC_FAMILY, family)
        return list(pattern, in: config).isEmpty == false
    }

    /// The face whose PostScript name is `name`, if one is installed.
    static func facesNamed(postScriptName name: String, in config: OpaquePointer) -> ResolvedFont? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, FC_POSTSCRIPT_NAME, name)
        guard var face = list(pattern, in: config).first else { return nil }
        face.isExactMatch = true
        return face
    }

    /// fontconfig's best face for `family` with `traits`, after its substitution rules (so
    /// aliases apply).
    static func match(family: String, traits: Traits, in config: OpaquePointer) -> ResolvedFont? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, FC_FAMILY, family)
        FcPatternAddInteger(pattern, FC_WEIGHT, traits.weight)
        FcPatternAddInteger(pattern, FC_SLANT, traits.slant)
        FcPatternAddInteger(pattern, FC_WIDTH, traits.width)
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let matched = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(matched) }
        return describe(matched)
    }

    /// The faces matching `pattern` (fontconfig's list, unordered).
    private static func list(_ pattern: OpaquePointer, in config: OpaquePointer) -> [ResolvedFont] {
        guard let objects = FcObjectSetCreate() else { return [] }
        defer { FcObjectSetDestroy(objects) }
        for object in [
            FC_FAMILY, FC_STYLE, FC_WEIGHT, FC_SLANT, FC_WIDTH, FC_POSTSCRIPT_NAME, FC_FULLNAME, FC_FILE, FC_INDEX,
        ] {
            FcObjectSetAdd(objects, object)
        }
        guard let set = FcFontList(config, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        var faces: [ResolvedFont] = []
        for i in 0..<Int(set.pointee.nfont) {
            if let font = set.pointee.fonts[i], let face = describe(font) { faces.append(face) }
        }
        return faces.sorted { $0.path < $1.path }
    }

    /// The face a fontconfig pattern names.
    static func describe(_ pattern: OpaquePointer) -> ResolvedFont? {
        func string(_ object: String) -> String? {
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(pattern, object, 0, &value) == FcResultMatch, let value else { return nil }
            return String(cString: value)
        }
        func integer(_ object: String, _ fallback: Int32) -> Int32 {
            var value: Int32 = 0
            if FcPatternGetInteger(pattern, object, 0, &value) == FcResultMatch { return value }
            var real = 0.0
            return FcPatternGetDouble(pattern, object, 0, &real) == FcResultMatch ? Int32(real) : fallback
        }
        guard let family = string(FC_FAMILY) else { return nil }
        return ResolvedFont(
            family: family, weight: integer(FC_WEIGHT, Int32(FC_WEIGHT_REGULAR)),
            slant: integer(FC_SLANT, Int32(FC_SLANT_ROMAN)), width: integer(FC_WIDTH, Int32(FC_WIDTH_NORMAL)),
            postScriptName: string(FC_POSTSCRIPT_NAME) ?? family.replacingOccurrences(of: " ", with: ""),
            fullName: string(FC_FULLNAME) ?? family, style: string(FC_STYLE) ?? "", path: string(FC_FILE) ?? "",
            index: integer(FC_INDEX, 0), isExactMatch: false)
    }
}
