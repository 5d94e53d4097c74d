import LaminaServer

/// A `RecordingRenderer` target: host memory holding premultiplied BGRA pixels.
public final class RecordingTarget: RenderTarget {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixels as the last render left them.
    public private(set) var bitmap: Bitmap
    /// How many lists were drawn into this target.
    public private(set) var renderCount = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        bitmap = Bitmap(
            width: width, height: height, stride: width * 4,
            pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// Clears to the list's colour and blends its fills over, in batch order, on whole pixels (a fill
    /// covers the pixels whose centres it contains; a coverage fill its pixels, its colour times each
    /// one's coverage, as `coverage-fill.frag` draws it).
    func draw(_ list: DisplayList) {
        renderCount += 1
        var pixels = [Float](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            for c in 0..<4 { pixels[i * 4 + c] = list.clearColor[c] }
        }
        for batch in list.batches {
            let coverage = batch.kind == DrawKind.coverageFill.id
            guard coverage || batch.kind == DrawKind.opaqueFill.id || batch.kind == DrawKind.blendedFill.id else {
                continue
            }
            for index in batch.instances {
                // The rectangle whose pixel centres are drawn, the colour, and each pixel's coverage.
                let rect: SIMD4<Float>
                let color: SIMD4<Float>
                var cover: ((Int, Int) -> Float)?
                if coverage {
                    let fill = list.instances[batch.kind].instance(Int(index), as: CoverageFillInstance.self)
                    (rect, color) = (fill.pixels + SIMD4(0.5, 0.5, 0.5, 0.5), fill.color)
                    cover = { x, y in Self.coverage(of: fill, x: Float(x), y: Float(y)) }
                } else {
                    let fill = list.instances[batch.kind].instance(Int(index), as: FillInstance.self)
                    (rect, color) = (fill.rect, fill.color)
                }
                let minX = max(0, Int((rect.x - 0.5).rounded(.up)))
                let minY = max(0, Int((rect.y - 0.5).rounded(.up)))
                let maxX = min(width, Int((rect.z - 0.5).rounded(.up)))
                let maxY = min(height, Int((rect.w - 0.5).rounded(.up)))
                guard minX < maxX, minY < maxY else { continue }
                for y in minY..<maxY {
                    for x in minX..<maxX {
                        let c = cover.map { FillInstance.onEightBitSteps(color * $0(x, y)) } ?? color
                        let i = (y * width + x) * 4
                        for k in 0..<4 { pixels[i + k] = c[k] + pixels[i + k] * (1 - c.w) }
                    }
                }
            }
        }
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            // RGBA floats to BGRA bytes.
            let channel = { (c: Int) in UInt8(max(0, min(255, (pixels[i * 4 + c] * 255).rounded()))) }
            bytes[i * 4] = channel(2)
            bytes[i * 4 + 1] = channel(1)
            bytes[i * 4 + 2] = channel(0)
            bytes[i * 4 + 3] = channel(3)
        }
        bitmap = Bitmap(width: width, height: height, stride: width * 4, pixels: bytes)
    }

    /// The coverage `coverage-fill.frag` gives pixel (`x`, `y`) of `fill`.
    static func coverage(of fill: CoverageFillInstance, x: Float, y: Float) -> Float {
        let p = fill.pixels
        let (left, right, top, bottom) = (x == p.x, x == p.z - 1, y == p.y, y == p.w - 1)
        if (left || right) && (top || bottom) {
            return top ? (left ? fill.corners.x : fill.corners.y) : (left ? fill.corners.z : fill.corners.w)
        }
        if left || right { return left ? fill.edges.x : fill.edges.z }
        if top || bottom { return top ? fill.edges.y : fill.edges.w }
        return 1
    }
}
