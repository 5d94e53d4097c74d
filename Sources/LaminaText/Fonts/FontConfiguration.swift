import CPango
import Foundation

/// Builds the fontconfig configurations text is laid out with: the system's fonts and rules plus
/// Lamina's aliases for Apple's font names, or a fixed list of font files with the same aliases.
enum FontConfiguration {
    /// Apple font families and the free, metric-compatible families Lamina draws them with, most
    /// preferred first. A name absent from the machine falls through to the next; fontconfig's own
    /// rules (and `sans-serif`) come after.
    static let aliases: [(apple: [String], free: [String])] = [
        (
            ["Helvetica", "Helvetica Neue", "HelveticaNeue"],
            ["Nimbus Sans", "Nimbus Sans L", "TeX Gyre Heros", "Liberation Sans", "Arimo", "Arial"]
        ),
        (["Arial", "ArialMT"], ["Liberation Sans", "Arimo", "Nimbus Sans", "Helvetica"]),
        (["Times", "Times Roman"], ["Nimbus Roman", "Nimbus Roman No9 L", "TeX Gyre Termes", "Liberation Serif"]),
        (["Times New Roman", "TimesNewRomanPSMT"], ["Liberation Serif", "Tinos", "Nimbus Roman", "Times"]),
        (["Courier"], ["Nimbus Mono PS", "Nimbus Mono L", "TeX Gyre Cursor", "Liberation Mono"]),
        (["Courier New", "CourierNewPSMT"], ["Liberation Mono", "Cousine", "Nimbus Mono PS", "Courier"]),
        (["Menlo", "Monaco", "SF Mono", "SFMono"], ["DejaVu Sans Mono", "Liberation Mono", "monospace"]),
        (
            [
                ".AppleSystemUIFont", ".SF UI Text", ".SF UI Display", ".SFUIText", ".SFUIDisplay", ".SF NS",
                "SF Pro", "SF Pro Text", "SF Pro Display", "SFProText", "SFProDisplay", "San Francisco", "system-ui",
                "Lucida Grande",
            ],
            ["sans-serif"]
        ),
        (["Apple Color Emoji", "AppleColorEmoji"], ["Noto Color Emoji"]),
        (
            ["PingFang SC", "PingFang TC", "PingFang HK", "Heiti SC", "Heiti TC", "STHeiti", "Hiragino Sans GB"],
            ["WenQuanYi Micro Hei", "Noto Sans CJK SC", "Droid Sans Fallback"]
        ),
        (["Georgia"], ["Gelasio", "DejaVu Serif", "serif"]),
    ]

    /// Every Apple family name the aliases know, lower-cased.
    static let appleFamilies: Set<String> = Set(aliases.flatMap { $0.apple.map { $0.lowercased() } })

    /// The alias rules as fontconfig XML; with `generic`, the generic families (`sans-serif`,
    /// `serif`, `monospace`, `system-ui`) are also aliased to that family and every pattern ends
    /// with it, for a fixed font set that has no system rules to define them.
    static func aliasXML(generic: String?) -> String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig>\n"
        for (apple, free) in aliases {
            for name in apple {
                xml += "<alias binding=\"same\"><family>\(escape(name))</family><prefer>"
                xml += free.map { "<family>\(escape($0))</family>" }.joined()
                xml += "</prefer></alias>\n"
            }
        }
        if let generic {
            for name in ["sans-serif", "serif", "monospace", "system-ui", "emoji"] {
                xml += "<alias binding=\"same\"><family>\(name)</family><prefer><family>\(escape(generic))"
                xml += "</family></prefer></alias>\n"
            }
            // Without the system's rules nothing appends a generic family: every pattern ends with
            // the default family, so names matching nothing get it rather than an arbitrary face.
            xml += "<match target=\"pattern\"><edit name=\"family\" mode=\"append_last\" binding=\"weak\">"
            xml += "<string>\(escape(generic))</string></edit></match>\n"
            xml += bitmapScaling
        }
        return xml + "</fontconfig>\n"
    }

    /// fontconfig's bitmap scaling rules (its `10-scale-bitmap-fonts.conf`, less the hinted
    /// small-scale exception), which a fixed set needs too: without them a colour bitmap font such as
    /// Noto Color Emoji is laid out at its strike's size (109 pixels) whatever size is asked for.
    static let bitmapScaling = """
        <match target="font"><test name="outline" compare="eq"><bool>false</bool></test>
        <edit name="pixelsizefixupfactor" mode="assign"><divide><name target="pattern">pixelsize</name>
        <name target="font">pixelsize</name></divide></edit></match>
        <match target="font"><test name="outline" compare="eq"><bool>false</bool></test>
        <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
        <edit name="matrix" mode="assign"><times><name>matrix</name><matrix><name>pixelsizefixupfactor</name>
        <double>0</double><double>0</double><name>pixelsizefixupfactor</name></matrix></times></edit>
        <edit name="size" mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit>
        </match>

        """

    /// The system's fonts and fontconfig rules with Lamina's aliases added.
    static func system() -> OpaquePointer {
        let config = FcInitLoadConfigAndFonts() ?? FcConfigCreate()!
        load(aliasXML(generic: nil), into: config)
        return config
    }

    /// Only the font files `paths`, with Lamina's aliases and the generic families aliased to
    /// `defaultFamily`. Nil when a file cannot be added.
    static func fixed(paths: [String], defaultFamily: String) -> OpaquePointer? {
        guard let config = FcConfigCreate() else { return nil }
        load(aliasXML(generic: defaultFamily), into: config)
        for path in paths where FcConfigAppFontAddFile(config, path) == 0 {
            FcConfigDestroy(config)
            return nil
        }
        return config
    }

    private static func load(_ xml: String, into config: OpaquePointer) {
        _ = xml.withCString { text in
            text.withMemoryRebound(to: FcChar8.self, capacity: xml.utf8.count + 1) {
                FcConfigParseAndLoadFromMemory(config, $0, 1)
            }
        }
    }
}

/// Chooses the fonts LaminaText finds by name: by default the system's fonts through fontconfig,
/// with Lamina's aliases mapping Apple's font names to free, metric-compatible families
/// (Helvetica and Helvetica Neue to Nimbus Sans or Liberation Sans, Times to Nimbus Roman,
/// Courier to Nimbus Mono PS, Arial to Liberation Sans, Menlo to DejaVu Sans Mono, the system
/// font to `sans-serif`, Apple Color Emoji to Noto Color Emoji, PingFang to WenQuanYi Micro Hei).
///
/// Tests that compare drawn text with golden images call `useOnly(fontFiles:defaultFamily:)` first,
/// so their pixels do not depend on the fonts of the machine. A change applies to text laid out
/// afterwards, from any thread; fonts and lines made before keep the fonts they found.
public enum LaminaFonts {
    /// Lays out text with the font files at `fontFiles` only, ignoring the system's fonts and
    /// rules; Apple's names go through Lamina's aliases to these files, and the generic families
    /// (`sans-serif`, `serif`, `monospace`) and unknown names to `defaultFamily`. Characters the
    /// files do not cover fall back to whichever of them covers them, else draw as missing glyphs.
    /// Throws `LaminaFontsError` when a file cannot be read as a font.
    public static func useOnly(fontFiles: [URL], defaultFamily: String) throws {
        for url in fontFiles where !FileManager.default.isReadableFile(atPath: url.path) {
            throw LaminaFontsError(description: "cannot read the font file \(url.path)")
        }
        guard let config = FontConfiguration.fixed(paths: fontFiles.map(\.path), defaultFamily: defaultFamily)
        else {
            throw LaminaFontsError(description: "fontconfig refused one of the font files \(fontFiles.map(\.path))")
        }
        TextEngine.replace(config: config)
    }

    /// Goes back to the system's fonts (the default).
    public static func useSystemFonts() {
        TextEngine.replace(config: FontConfiguration.system())
    }
}

/// A font file LaminaText could not use.
public struct LaminaFontsError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, naming the file.
    public var description: String
}

/// How widely a registered font is visible: Core Text's `CTFontManagerScope`. Lamina registers every
/// font for the process.
public enum CTFontManagerScope: UInt32, Sendable {
    /// Not registered.
    case none = 0
    /// For this process.
    case process = 1
    /// For the user (Lamina: the process).
    case persistent = 2
    /// For the session (Lamina: the process).
    case session = 3
}

/// Makes the fonts in the file at `fontURL` available by name to this process (Core Text's
/// `CTFontManagerRegisterFontsForURL`), whatever `scope` says. False when the file is not a font
/// fontconfig can read; `error` is left untouched (Lamina has no `CFError`).
public func CTFontManagerRegisterFontsForURL(
    _ fontURL: CFURL, _ scope: CTFontManagerScope, _ error: UnsafeMutableRawPointer?
) -> Bool {
    guard let path = fontURL.path else { return false }
    return TextEngine.run { engine in
        guard FcConfigAppFontAddFile(engine.config, path) != 0 else { return false }
        engine.configurationChanged()
        return true
    }
}
