import Foundation
import LaminaCore

/// Shapes: a `CAShapeLayer`'s path, rasterized by `ShapeRasterizer` at the device's resolution and
/// drawn as an image between the layer's contents and its sublayers (Apple: "composited between the
/// layer's contents and its first sublayer").
///
/// Under an affine layer-to-device matrix (any scale, rotation or skew) the raster is drawn straight
/// in device pixels: Cairo maps the path and the stroke's pen by the matrix, and the raster covers
/// exactly the shape's device bounding box within the clip, rounded out to whole pixels, so it is
/// drawn one texel per pixel (`plainImage` on llvmpipe's linear path when no general clip is in
/// force). Under a projective matrix (perspective) the raster is drawn in the layer's own plane at the
/// largest scale the plane reaches on screen (at most `maxPerspectiveSide` pixels a side), through the
/// matrix, like contents. The shape is clipped by its ancestors' clips, and by its own bounds (and
/// corner radius) only with `masksToBounds`.
extension DisplayListBuilder {
    /// The most pixels a side of one shape raster drawn in device pixels (the device's own limit is
    /// larger; a shape wider than this is cut at it).
    static let maxShapeSide = 8192
    /// The most pixels a side of a raster drawn in a layer's plane under perspective.
    static let maxPerspectiveSide = 2048

    /// Draws the path of shape layer `state` if it paints anything and the frame has a raster cache.
    mutating func drawShape(
        _ state: LayerState, radius: CGFloat, opacity: Double, toDevice m: CATransform3D, clip parentClip: Clip
    ) {
        guard let cache = shapes, let extent = cache.extent(of: state.shape) else { return }
        guard let clip = Self.ownClip(parentClip, of: state, radius: radius, toDevice: m) else { return }
        let alpha = RGBAColor.onEightBitStep(opacity)
        guard alpha > 0 else { return }
        if m.m14 == 0 && m.m24 == 0 && m.m44 > 0 {
            drawShapeInDevicePixels(state.shape, extent: extent, opacity: alpha, toDevice: m, clip: clip, cache: cache)
        } else {
            drawShapeInLayerPlane(state.shape, extent: extent, opacity: alpha, toDevice: m, clip: clip, cache: cache)
        }
    }

    /// An affine layer-to-device matrix: the raster is the shape in device pixels.
    mutating func drawShapeInDevicePixels(
        _ shape: ShapeLayerState, extent: CGRect, opacity: Float, toDevice m: CATransform3D, clip: Clip,
        cache: ShapeRasterCache
    ) {
        let w = m.m44
        let t = CGAffineTransform(a: m.m11 / w, b: m.m12 / w, c: m.m21 / w, d: m.m22 / w, tx: m.m41 / w, ty: m.m42 / w)
        let box = extent.applying(t).intersection(clip.deviceRect)
        guard !box.isNull, !box.isEmpty, box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite
        else { return }
        let x0 = box.minX.rounded(.down), y0 = box.minY.rounded(.down)
        let width = Int(min(box.maxX.rounded(.up) - x0, CGFloat(Self.maxShapeSide)))
        let height = Int(min(box.maxY.rounded(.up) - y0, CGFloat(Self.maxShapeSide)))
        guard width > 0, height > 0 else { return }
        let toRaster = CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx - x0, ty: t.ty - y0)
        let key = ShapeRasterKey(
            shape: shape, linear: SIMD4(t.a, t.b, t.c, t.d), offset: SIMD2(toRaster.tx, toRaster.ty),
            size: SIMD2(width, height))
        guard let raster = cache.raster(for: key, transform: toRaster) else { return }
        emitRaster(
            rect: CGRect(x: x0, y: y0, width: CGFloat(width), height: CGFloat(height)),
            sampling: TextureSampling(image: raster.image, filter: .nearest), opacity: opacity,
            toDevice: CATransform3DIdentity, clip: clip)
    }

    /// A projective matrix: the raster is the shape in its own plane, scaled to the largest scale the
    /// plane reaches on screen, drawn through the matrix.
    mutating func drawShapeInLayerPlane(
        _ shape: ShapeLayerState, extent: CGRect, opacity: Float, toDevice m: CATransform3D, clip: Clip,
        cache: ShapeRasterCache
    ) {
        guard extent.width > 0 || extent.height > 0,
            let device = Self.deviceBoundingBox(extent, m), device.intersects(clip.deviceRect)
        else { return }
        let side = CGFloat(Self.maxPerspectiveSide)
        var scale = max(
            extent.width > 0 ? device.width / extent.width : 0, extent.height > 0 ? device.height / extent.height : 0)
        scale = min(max(scale, 1.0 / 64), 16)
        scale = min(scale, side / max(extent.width, 1e-9), side / max(extent.height, 1e-9))
        guard scale.isFinite, scale > 0 else { return }
        let width = max(1, Int((extent.width * scale).rounded(.up)))
        let height = max(1, Int((extent.height * scale).rounded(.up)))
        let toRaster = CGAffineTransform(
            a: scale, b: 0, c: 0, d: scale, tx: -extent.minX * scale, ty: -extent.minY * scale)
        let key = ShapeRasterKey(
            shape: shape, linear: SIMD4(scale, 0, 0, scale), offset: SIMD2(toRaster.tx, toRaster.ty),
            size: SIMD2(width, height))
        guard let raster = cache.raster(for: key, transform: toRaster) else { return }
        emitRaster(
            rect: CGRect(
                x: extent.minX, y: extent.minY, width: CGFloat(width) / scale, height: CGFloat(height) / scale),
            sampling: TextureSampling(image: raster.image, filter: .linear), opacity: opacity, toDevice: m, clip: clip)
    }

    /// Emits a raster filling `rect` (layer coordinates, the whole image): an `ImageInstance` on the
    /// linear path (`plainImage` at opacity 1, else `image`) when the matrix is axis-aligned, no
    /// general clip is in force and the rectangle and the device clip lie on whole pixels; otherwise
    /// an `ImageShapeInstance` through the matrix and the clips. Its edges stay hard: the raster
    /// carries the shape's own anti-aliasing.
    mutating func emitRaster(
        rect: CGRect, sampling: TextureSampling, opacity: Float, toDevice m: CATransform3D, clip: Clip
    ) {
        let deviceRect = Self.isAxisAligned(m) ? Self.deviceRect(rect, m) : .null
        if clip.general.isEmpty && !deviceRect.isNull && Self.isIntegral(clip.deviceRect)
            && Self.isIntegral(deviceRect)
        {
            let device = deviceRect.intersection(clip.deviceRect)
            guard !device.isNull, !device.isEmpty else { return }
            func u(_ x: CGFloat) -> Float { Float((x - deviceRect.minX) / deviceRect.width) }
            func v(_ y: CGFloat) -> Float { Float((y - deviceRect.minY) / deviceRect.height) }
            // A mirrored axis shows the image mirrored, as the layer's plane is.
            let (uMin, uMax) = m.m11 < 0 ? (1 - u(device.minX), 1 - u(device.maxX)) : (u(device.minX), u(device.maxX))
            let (vMin, vMax) = m.m22 < 0 ? (1 - v(device.minY), 1 - v(device.maxY)) : (v(device.minY), v(device.maxY))
            let instance = ImageInstance(
                rect: SIMD4(Float(device.minX), Float(device.minY), Float(device.maxX), Float(device.maxY)),
                uv: SIMD4(uMin, vMin, uMax, vMax), opacity: opacity)
            emit(
                instance, kind: opacity >= 1 ? DrawKind.plainImage.id : DrawKind.image.id, box: device,
                texture: sampling)
            batcher.endGroup()
            return
        }
        guard let box = Self.deviceBoundingBox(rect, m) else { return }
        let drawn = box.insetBy(dx: -1, dy: -1).intersection(clip.deviceRect)
        guard !drawn.isNull, !drawn.isEmpty else { return }
        func v(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> SIMD4<Float> {
            SIMD4(Float(a), Float(b), Float(c), Float(d))
        }
        let au = 1 / rect.width, av = 1 / rect.height
        let instance = ImageShapeInstance(
            row1: v(m.m11, m.m12, m.m13, m.m14), row2: v(m.m21, m.m22, m.m23, m.m24),
            row4: v(m.m41, m.m42, m.m43, m.m44), rect: v(rect.minX, rect.minY, rect.maxX, rect.maxY), grow: .zero,
            uvTransform: v(au, av, -rect.minX * au, -rect.minY * av),
            params: SIMD4(opacity, 0, Float(clip.general.count), 0),
            deviceClip: v(clip.deviceRect.minX, clip.deviceRect.minY, clip.deviceRect.maxX, clip.deviceRect.maxY),
            clipA: clip.general.count > 0 ? clip.general[0] : .none,
            clipB: clip.general.count > 1 ? clip.general[1] : .none)
        emit(instance, kind: DrawKind.imageShape.id, box: drawn, texture: sampling)
        batcher.endGroup()
    }
}
