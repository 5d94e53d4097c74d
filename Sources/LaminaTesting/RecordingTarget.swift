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
    /// covers the pixels whose centres it contains).
    func draw(_ list: DisplayList) {
        renderCount += 1
        var pixels = [Float](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            for c in 0..<4 { pixels[i * 4 + c] = list.clearColor[c] }
        }
        let fillKinds: Set = [DrawKind.opaqueFill.id, DrawKind.blendedFill.id]
        let fills = list.batches.filter { fillKinds.contains($0.kind) }.flatMap { batch in
            batch.instances.map { list.instances[batch.kind].instance(Int($0), as: FillInstance.self) }
        }
        for fill in fills {
            let minX = max(0, Int((fill.rect.x - 0.5).rounded(.up)))
            let minY = max(0, Int((fill.rect.y - 0.5).rounded(.up)))
            let maxX = min(width, Int((fill.rect.z - 0.5).rounded(.up)))
            let maxY = min(height, Int((fill.rect.w - 0.5).rounded(.up)))
            guard minX < maxX, minY < maxY else { continue }
            for y in minY..<maxY {
                for x in minX..<maxX {
                    let i = (y * width + x) * 4
                    for c in 0..<4 { pixels[i + c] = fill.color[c] + pixels[i + c] * (1 - fill.color.w) }
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
}
