import CPango
import Foundation

/// The fonts and the Pango objects every text call uses: one fontconfig configuration, one Pango
/// font map over it and one Pango context, made at first use and replaced by `LaminaFonts`.
///
/// Pango contexts, layouts and font maps other than the per-thread default are not thread-safe, and
/// fontconfig's configurations must not change under a running match, so every use goes through
/// `TextEngine.run(_:)`, which holds one process-wide recursive lock. Text work is short (a layout
/// of a label, a paragraph), so one lock costs little and makes every Core Text object usable from
/// any thread.
final class TextEngine: @unchecked Sendable {
    /// The fontconfig configuration (`FcConfig *`), owned.
    let config: OpaquePointer
    /// The Pango font map over `config` (a `PangoCairoFcFontMap`), owned.
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    /// The Pango context layouts are made in, owned: 72 units an inch (a point is a unit), no
    /// hinting, unrounded glyph positions and greyscale antialiasing, as Core Text lays out.
    let context: OpaquePointer
    /// Font names resolved in this configuration.
    var resolvedNames: [String: ResolvedFont] = [:]
    /// HarfBuzz faces by font file and index.
    var faces: [FontFileKey: FontFace] = [:]
    /// The family used when a name resolves to nothing installed: Helvetica's, through the aliases.
    let fallbackName = "Helvetica"

    private static let lock = NSRecursiveLock()
    nonisolated(unsafe) private static var current: TextEngine?

    /// Takes ownership of `config` (an `FcConfig *` with fonts and Lamina's aliases loaded).
    init(config: OpaquePointer) {
        self.config = config
        fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)
        pango_fc_font_map_set_config(OpaquePointer(fontMap), config)
        context = pango_font_map_create_context(fontMap)
        pango_cairo_context_set_resolution(context, 72)
        pango_context_set_round_glyph_positions(context, 0)
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
        FcConfigDestroy(config)
    }

    /// Runs `body` with the current engine under the text lock, making the engine over the system's
    /// fonts first if none has been made.
    static func run<T>(_ body: (TextEngine) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        if current == nil { current = TextEngine(config: FontConfiguration.system()) }
        return try body(current!)
    }

    /// Runs `body` under the text lock without making an engine (to release Pango objects while no
    /// other thread uses their context).
    static func locked(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body()
    }

    /// Replaces the current engine by one over `config`; later text uses it. Objects made before
    /// keep the layouts they hold.
    static func replace(config: OpaquePointer) {
        lock.lock()
        defer { lock.unlock() }
        current = TextEngine(config: config)
    }

    /// Lets the current engine see fonts added to its configuration since it was made.
    func configurationChanged() {
        pango_fc_font_map_config_changed(OpaquePointer(fontMap))
        resolvedNames.removeAll()
    }

    /// A new Pango layout in the engine's context (a `PangoLayout *` the caller owns).
    func makeLayout() -> OpaquePointer {
        pango_layout_new(context)
    }

    /// The HarfBuzz face of font file `path` (face `index`), made once.
    func face(path: String, index: Int32) -> FontFace? {
        let key = FontFileKey(path: path, index: index)
        if let face = faces[key] { return face }
        guard let face = FontFace(path: path, index: index) else { return nil }
        faces[key] = face
        return face
    }
}

/// A font file and the index of a face in it.
struct FontFileKey: Hashable {
    let path: String
    let index: Int32
}
