import CCairo
import Foundation

extension CGContext {
    /// Pushes a copy of the graphics state (CTM, clip, colours, line settings, alpha, blend mode,
    /// antialiasing, interpolation quality) onto the context's stack. The current path is not part of it.
    public func saveGState() {
        savedStates.append(state)
        cairo_save(cairo)
    }

    /// Restores the graphics state last saved by `saveGState()`; without one (or past the start of
    /// the current transparency layer), does nothing.
    public func restoreGState() {
        guard savedStates.count > (transparencyLayerDepths.last ?? 0), let saved = savedStates.popLast() else { return }
        state = saved
        cairo_restore(cairo)
    }

    /// Sets the colour fills paint with.
    public func setFillColor(_ color: CGColor) {
        state.fillColor = color
    }

    /// Sets the colour strokes paint with.
    public func setStrokeColor(_ color: CGColor) {
        state.strokeColor = color
    }

    /// Sets the fill colour to an RGB colour (components 0…1).
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.fillColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Sets the stroke colour to an RGB colour (components 0…1).
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Sets the fill colour to a grey (0 black … 1 white).
    public func setFillColor(gray: CGFloat, alpha: CGFloat) {
        state.fillColor = CGColor(gray: gray, alpha: alpha)
    }

    /// Sets the stroke colour to a grey (0 black … 1 white).
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(gray: gray, alpha: alpha)
    }

    /// Sets the stroke width in user-space units (as scaled by the CTM when stroking); default 1.
    public func setLineWidth(_ width: CGFloat) {
        cairo_set_line_width(cairo, Double(max(0, width)))
    }

    /// Sets how open ends of strokes look; default `.butt`.
    public func setLineCap(_ cap: CGLineCap) {
        switch cap {
        case .butt: cairo_set_line_cap(cairo, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(cairo, CAIRO_LINE_CAP_SQUARE)
        }
    }

    /// Sets how stroke segments meet; default `.miter`.
    public func setLineJoin(_ join: CGLineJoin) {
        switch join {
        case .miter: cairo_set_line_join(cairo, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(cairo, CAIRO_LINE_JOIN_BEVEL)
        }
    }

    /// Sets the miter limit (miter length over line width above which a miter join is bevelled); default 10.
    public func setMiterLimit(_ limit: CGFloat) {
        cairo_set_miter_limit(cairo, Double(limit))
    }

    /// Sets the dash pattern: alternating painted and unpainted lengths in user space, starting
    /// `phase` units into the pattern. Empty `lengths` gives solid strokes (the default).
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        let dashes = lengths.map { Double($0) }
        guard !dashes.isEmpty, dashes.allSatisfy({ $0 >= 0 }), dashes.contains(where: { $0 > 0 }) else {
            cairo_set_dash(cairo, nil, 0, 0)
            return
        }
        cairo_set_dash(cairo, dashes, Int32(dashes.count), Double(phase))
    }

    /// Sets the global alpha (0…1) every painting call is multiplied by; default 1.
    public func setAlpha(_ alpha: CGFloat) {
        state.alpha = min(1, max(0, alpha))
    }

    /// Sets how painting combines with the context's pixels; default `.normal`.
    ///
    /// Every mode maps to its Cairo operator: the separable and non-separable blend modes to
    /// Cairo's of the same names, the Porter-Duff modes (`clear`, `copy`, `sourceIn`, `sourceOut`,
    /// `sourceAtop`, `destinationOver`, `destinationIn`, `destinationOut`, `destinationAtop`,
    /// `xor`) to `CLEAR`, `SOURCE`, `IN`, `OUT`, `ATOP`, `DEST_OVER`, `DEST_IN`, `DEST_OUT`,
    /// `DEST_ATOP`, `XOR`, and `plusLighter` to `ADD`. `plusDarker` has no Cairo twin and paints as
    /// `.normal`. Fills, images and gradients only change pixels under what they paint (as in Core
    /// Graphics); strokes with `sourceIn`, `sourceOut`, `destinationIn` or `destinationAtop` follow
    /// Cairo, which also clears the pixels outside the stroke within the clip.
    public func setBlendMode(_ mode: CGBlendMode) {
        state.blendMode = mode
    }

    /// Sets whether shapes are antialiased (saved with the graphics state); default true.
    public func setShouldAntialias(_ shouldAntialias: Bool) {
        state.shouldAntialias = shouldAntialias
    }

    /// Sets whether the context allows antialiasing at all (not part of the graphics state); default true.
    public func setAllowsAntialiasing(_ allowsAntialiasing: Bool) {
        self.allowsAntialiasing = allowsAntialiasing
    }

    /// How images are resampled when drawn at another size: `.none` picks the nearest pixel,
    /// `.low` is bilinear, `.default` and `.medium` Cairo's "good" filter, `.high` its best.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolationQuality }
        set { state.interpolationQuality = newValue }
    }

    /// Moves the user-space origin by (x, y) user units.
    public func translateBy(x: CGFloat, y: CGFloat) {
        cairo_translate(cairo, Double(x), Double(y))
    }

    /// Scales user space by (x, y).
    public func scaleBy(x: CGFloat, y: CGFloat) {
        cairo_scale(cairo, Double(x), Double(y))
    }

    /// Rotates user space by `angle` radians; positive turns counter-clockwise in an unflipped context.
    public func rotate(by angle: CGFloat) {
        cairo_rotate(cairo, Double(angle))
    }

    /// Concatenates `transform` with the CTM: user points go through `transform`, then the old CTM.
    public func concatenate(_ transform: CGAffineTransform) {
        var m = cairo_matrix_t(
            xx: Double(transform.a), yx: Double(transform.b), xy: Double(transform.c), yy: Double(transform.d),
            x0: Double(transform.tx), y0: Double(transform.ty))
        cairo_transform(cairo, &m)
    }

    /// The current transformation matrix: user space to the context's device space (pixels, y up).
    ///
    /// A fresh bitmap context's is the identity, as on Apple platforms at scale 1.
    public var ctm: CGAffineTransform {
        cairoMatrix.concatenating(deviceFlip)
    }

    /// The Cairo operator for the current blend mode.
    var cairoOperator: cairo_operator_t {
        switch state.blendMode {
        case .normal, .plusDarker: CAIRO_OPERATOR_OVER
        case .multiply: CAIRO_OPERATOR_MULTIPLY
        case .screen: CAIRO_OPERATOR_SCREEN
        case .overlay: CAIRO_OPERATOR_OVERLAY
        case .darken: CAIRO_OPERATOR_DARKEN
        case .lighten: CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: CAIRO_OPERATOR_COLOR_BURN
        case .softLight: CAIRO_OPERATOR_SOFT_LIGHT
        case .hardLight: CAIRO_OPERATOR_HARD_LIGHT
        case .difference: CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: CAIRO_OPERATOR_EXCLUSION
        case .hue: CAIRO_OPERATOR_HSL_HUE
        case .saturation: CAIRO_OPERATOR_HSL_SATURATION
        case .color: CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: CAIRO_OPERATOR_HSL_LUMINOSITY
        case .clear: CAIRO_OPERATOR_CLEAR
        case .copy: CAIRO_OPERATOR_SOURCE
        case .sourceIn: CAIRO_OPERATOR_IN
        case .sourceOut: CAIRO_OPERATOR_OUT
        case .sourceAtop: CAIRO_OPERATOR_ATOP
        case .destinationOver: CAIRO_OPERATOR_DEST_OVER
        case .destinationIn: CAIRO_OPERATOR_DEST_IN
        case .destinationOut: CAIRO_OPERATOR_DEST_OUT
        case .destinationAtop: CAIRO_OPERATOR_DEST_ATOP
        case .xor: CAIRO_OPERATOR_XOR
        case .plusLighter: CAIRO_OPERATOR_ADD
        }
    }

    /// Whether Cairo's operator also changes pixels outside what is painted (Cairo's unbounded operators).
    var operatorIsUnbounded: Bool {
        switch state.blendMode {
        case .sourceIn, .sourceOut, .destinationIn, .destinationAtop: true
        default: false
        }
    }

    /// Cairo's antialias setting for the current state.
    var cairoAntialias: cairo_antialias_t {
        state.shouldAntialias && allowsAntialiasing ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE
    }

    /// Makes Cairo's source `color` multiplied by the global alpha.
    func setSource(_ color: CGColor) {
        let c = color.rgba
        cairo_set_source_rgba(cairo, c.red, c.green, c.blue, c.alpha * Double(state.alpha))
    }
}
