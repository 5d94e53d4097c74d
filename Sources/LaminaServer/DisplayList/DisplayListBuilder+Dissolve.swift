import Foundation
import LaminaCore

/// Exact dissolves (docs/rendering.md, "Dissolves"): a fade between two drawings is
/// `(1 − p)·old + p·new`, composited over what lies behind as one image. Fading each drawing's pieces
/// on its own lets the backdrop show through where the two overlap (at p = 0.5 opaque blue over opaque
/// red over white would be (128, 64, 191) instead of (128, 0, 128)); so each drawing goes into an
/// offscreen pass of its own, the two are added with their weights into a third (the additive image
/// kind, ONE + ONE), and that one is drawn "over" with the opacity around them.
extension DisplayListBuilder {
    /// One drawing of a dissolve: its weight and how to draw it (at full opacity).
    struct DissolvePart {
        var weight: Double
        var draw: (inout DisplayListBuilder) -> Void
    }

    /// Whether a dissolve of `parts` drawings may spend its passes in this list: not in a probe, and
    /// within the frame's pass bounds (`maxPasses`, `passPixelBudget`).
    func dissolveFits(parts: Int) -> Bool {
        !measuring && list.passes.count + parts + 1 <= Self.maxPasses
            && passPixels < Self.passPixelBudget * list.width * list.height
    }

    /// Draws `parts` dissolved, cut to `clip` (device pixels), at `opacity`. When `direct` the parts'
    /// instances go straight into the sum's pass, each drawing them with the additive kinds at its
    /// weight (a layer's two contents images, which are flat pieces that never overlap themselves);
    /// otherwise each part is drawn into a pass of its own first (subtrees, whose pieces overlap).
    mutating func drawDissolve(_ parts: [DissolvePart], opacity: Double, clip: CGRect, direct: Bool = false) {
        if retention != nil { retention!.isPatchable = false }
        let bounds = DamageRect(covering: clip, width: list.width, height: list.height)
        let outer = batcher
        var drawn: [(rect: DamageRect, image: RenderImageID, weight: Double)] = []
        var sum = DamageRect(x: 0, y: 0, width: 0, height: 0)
        var sumBatches: [DrawBatch] = []
        if direct {
            batcher = Batcher(width: list.width, height: list.height)
            let start = list.emitted.count
            for part in parts where part.weight > 0 { part.draw(&self) }
            sum = Self.covered(list.emitted[start...]).intersection(bounds)
            sumBatches = batcher.finish()
        } else {
            for part in parts where part.weight > 0 {
                batcher = Batcher(width: list.width, height: list.height)
                let start = list.emitted.count
                part.draw(&self)
                let rect = Self.covered(list.emitted[start...]).intersection(bounds)
                let batches = batcher.finish()
                guard rect.area > 0 else { continue }
                let image = RenderImageID.offscreenPass(list.passes.count)
                list.passes.append(OffscreenPass(rect: rect, batches: batches, image: image))
                passPixels += rect.area
                drawn.append((rect, image, part.weight))
                sum = sum.area == 0 ? rect : sum.union(rect)
            }
            batcher = Batcher(width: list.width, height: list.height)
            for part in drawn {
                let r = part.rect
                let box = CGRect(x: r.x, y: r.y, width: r.width, height: r.height)
                emit(
                    ImageInstance(
                        rect: SIMD4(Float(box.minX), Float(box.minY), Float(box.maxX), Float(box.maxY)),
                        uv: SIMD4(0, 0, 1, 1), opacity: RGBAColor.onEightBitStep(part.weight)),
                    kind: DrawKind.additiveImage.id, box: box,
                    texture: TextureSampling(image: part.image, filter: .nearest))
                batcher.endGroup()
            }
            sumBatches = batcher.finish()
        }
        batcher = outer
        guard sum.area > 0 else { return }
        let image = RenderImageID.offscreenPass(list.passes.count)
        list.passes.append(OffscreenPass(rect: sum, batches: sumBatches, image: image))
        passPixels += sum.area
        let box = CGRect(x: sum.x, y: sum.y, width: sum.width, height: sum.height)
        batcher.endGroup()
        let kind = opacity >= 1 ? DrawKind.plainImage : DrawKind.image
        emit(
            ImageInstance(
                rect: SIMD4(Float(box.minX), Float(box.minY), Float(box.maxX), Float(box.maxY)),
                uv: SIMD4(0, 0, 1, 1), opacity: RGBAColor.onEightBitStep(opacity)),
            kind: kind.id, box: box, texture: TextureSampling(image: image, filter: .nearest))
        batcher.endGroup()
    }
}
