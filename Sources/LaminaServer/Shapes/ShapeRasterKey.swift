import LaminaCore

/// What a shape raster depends on: the shape's properties, how the layer maps onto the raster's pixels
/// and the raster's size. Two layers, or two frames, with equal keys share one raster.
///
/// The mapping is kept relative to the raster's origin, so a shape moved by whole device pixels (with
/// its clip) keeps its raster.
struct ShapeRasterKey: Hashable {
    /// The shape's properties (path, colours, stroke style, dash and trim).
    var shape: ShapeLayerState
    /// The linear part of the layer-to-raster mapping: a, b, c, d of the affine transform.
    var linear: SIMD4<Double>
    /// The translation of the layer-to-raster mapping, in raster pixels.
    var offset: SIMD2<Double>
    /// The raster's width and height in pixels.
    var size: SIMD2<Int>
    /// The standard deviation of the blur applied to the raster's alpha, in raster pixels; 0 for a
    /// shape layer's raster (a shadow's is blurred: `ShadowBlur`).
    var blur: Double = 0
}
