import CVulkan
import LaminaServer

/// Kept passes (docs/rendering.md, "Kept passes"): an offscreen pass whose content key
/// (`DisplayList.passContentKeys`) matches the content of an image the pool still holds is shown from
/// that image and not drawn again; a rasterized layer (`shouldRasterize`) is such a pass.
extension VulkanRenderer {
    /// The bytes of pass images kept for later frames beyond those the last frame took
    /// (`PassImagePool.defaultKeptBudgetBytes`, 64 MiB); the least recently taken go first. Settable
    /// for tests and tools.
    public var keptPassBudgetBytes: Int {
        get { passPool.keptBudgetBytes }
        set { passPool.keptBudgetBytes = max(0, newValue) }
    }

    /// The bytes of every offscreen-pass image the renderer holds now (those the last frame drew into
    /// and those kept for later frames): the server memory passes and rasterized layers cost.
    public var passImageBytes: Int { passPool.entries.reduce(0) { $0 + $1.bytes } }

    /// The image of each of `list`'s passes for the frame being recorded, and whether it is kept (holds
    /// the pass's content already, so the pass is not drawn). Kept images are found first, so that a
    /// pass drawn this frame never takes the image another pass of the frame could keep. Sets
    /// `lastRenderCounters`.
    func takePassImages(_ list: DisplayList) throws -> (images: [VulkanImage], kept: [Bool]) {
        let frame = timeline.next
        let keys = list.passContentKeys { self.images[$0]?.changesInPlace ?? false }
        var taken = [VulkanImage?](repeating: nil, count: list.passes.count)
        var kept = [Bool](repeating: false, count: list.passes.count)
        for (index, pass) in list.passes.enumerated() {
            guard let key = keys[index] else { continue }
            taken[index] = passPool.takeKept(
                width: pass.texels.width, height: pass.texels.height, key: key, frame: frame)
            kept[index] = taken[index] != nil
        }
        var counters = RenderCounters()
        for (index, pass) in list.passes.enumerated() {
            if taken[index] == nil {
                taken[index] = try passPool.take(
                    width: pass.texels.width, height: pass.texels.height, key: keys[index], frame: frame, vk: vk)
            }
            if kept[index] {
                counters.passesKept += 1
                if pass.isRaster { counters.rasterHits += 1 }
            } else {
                counters.passesDrawn += 1
                if pass.isRaster { counters.rasterMisses += 1 }
            }
        }
        lastRenderCounters = counters
        return (taken.map { $0! }, kept)
    }

    /// The canvas a pass's instances are in: a rasterized layer's own, else the display's.
    static func canvas(of pass: OffscreenPass, displayWidth: Int, displayHeight: Int) -> (width: Int, height: Int) {
        pass.canvas.map { ($0.x, $0.y) } ?? (displayWidth, displayHeight)
    }
}
