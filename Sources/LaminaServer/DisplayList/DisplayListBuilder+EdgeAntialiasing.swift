import LaminaCore

/// `allowsEdgeAntialiasing` and `edgeAntialiasingMask` (docs/rendering.md, "Edge anti-aliasing"): the
/// edges of a layer's own quad (background, border, contents) that are anti-aliased when the layer is
/// drawn by the general kinds (`shape`, `continuousShape`, `imageShape`: turned, projected or clipped by
/// a rounded clip). An edge left out is drawn hard, by the pixel-centre rule. Axis-aligned layers on
/// the fill path keep their exact fractional coverage (docs/apple-differences.md).
///
/// Apple's bits, in the layer's coordinates: `layerLeftEdge` 1 (minX), `layerRightEdge` 2 (maxX),
/// `layerBottomEdge` 4 (minY), `layerTopEdge` 8 (maxY).
extension DisplayListBuilder {
    /// The edges of the layer drawn hard, in Apple's bits: all four when `allowsEdgeAntialiasing` is
    /// off, else those not in `edgeAntialiasingMask`.
    static func hardEdges(_ state: LayerState) -> UInt32 {
        state.allowsEdgeAntialiasing ? ~state.edgeAntialiasingMask.rawValue & 15 : 15
    }

    /// Per side of a contents piece (minX, minY, maxX, maxY), 1 where the edge is anti-aliased and 0
    /// where it is drawn hard (`emitContents`).
    static func softEdges(_ state: LayerState) -> SIMD4<Float> {
        let hard = hardEdges(state)
        func soft(_ bit: UInt32) -> Float { hard & bit == 0 ? 1 : 0 }
        return SIMD4(soft(1), soft(4), soft(2), soft(8))
    }
}
