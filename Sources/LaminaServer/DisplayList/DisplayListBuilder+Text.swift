import LaminaCore

/// Text layers: the client draws a plain string's glyphs in white into the contents (their coverage)
/// and sets `tintsContents`; the builder multiplies those contents by the presented `foregroundColor`,
/// so the colour animates on the server's clock without the client drawing again. Contents that are
/// not coverage (an attributed string in its own colours, an image the app set) are drawn as they are.
extension DisplayListBuilder {
    /// The premultiplied colour a layer's contents are multiplied by: its `foregroundColor` (black when
    /// nil, as Core Text draws a string with no colour) when it is a text layer whose contents are
    /// glyph coverage, else nil. Each component is on the target's 8-bit steps.
    static func contentsTint(_ state: LayerState) -> SIMD4<Float>? {
        guard state.layerClass == .text, state.text.tintsContents else { return nil }
        return (state.text.foregroundColor ?? RGBAColor.black).premultipliedOnEightBitSteps()
    }

    /// The `params` lane of an `ImageShapeInstance`: the opacity, the clip count and the tint packed
    /// as 255 minus each 8-bit component, two per lane (0 in both: no tint).
    static func imageShapeParams(opacity: Float, tint: SIMD4<Float>?, clips: Int) -> SIMD4<Float> {
        guard let tint else { return SIMD4(opacity, 0, Float(clips), 0) }
        let steps = (SIMD4<Float>(repeating: 1) - tint) * 255
        let c = SIMD4<Float>(
            steps.x.rounded(), steps.y.rounded(), steps.z.rounded(), steps.w.rounded())
        return SIMD4(opacity, c.x + 256 * c.y, Float(clips), c.z + 256 * c.w)
    }
}
