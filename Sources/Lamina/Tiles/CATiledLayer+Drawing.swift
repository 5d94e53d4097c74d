import Foundation
import LaminaCore

extension CALayer {
    /// The sublayers the server shows under this layer, back to front: a tiled layer's tiles, then
    /// its sublayers; for any other layer, its sublayers. Takes the transaction lock for a tiled layer.
    var committedSublayers: [CALayer] {
        guard let tiled = self as? CATiledLayer else { return modelSublayers }
        CATransaction.lock()
        defer { CATransaction.unlock() }
        return tiled.tileStore.tiles.isEmpty ? modelSublayers : tiled.tileStore.tileLayers + modelSublayers
    }
}

extension CATiledLayer {
    /// The queue tiles are drawn on: concurrent, so several tiles draw at once.
    static let tileQueue = DispatchQueue(
        label: "lamina.tiled-layer.tiles", qos: .userInitiated, attributes: .concurrent)

    /// Takes the server's report of what a display shows of the layer (`rect` in the layer's
    /// coordinates, those `draw(in:)` draws in) and draws the tiles that cover it. Called with the
    /// transaction lock held.
    func serverDidReport(rect: CGRect, scale: Double) {
        tileStore.report(TileStore.View(rect: rect, scale: scale))
        requestTiles()
    }

    /// Starts drawing the tiles the last reported view needs that are missing or marked for drawing
    /// again, and drops tiles far from it when the layer's tiles are over `tileMemoryBudget`.
    func requestTiles() {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        guard let view = tileStore.view,
            let plan = TileStore.plan(
                view: view, bounds: bounds, tileSize: tileSize, contentsScale: contentsScale, levels: levelsOfDetail,
                bias: levelsOfDetailBias)
        else { return }
        if tileStore.evict(keeping: plan, budget: tileStore.budget) > 0 { changed() }
        let (generation, started) = tileStore.startDrawing(plan)
        // Drawing off the main thread is the class's contract: `draw(in:)` and the delegate's
        // `draw(_:in:)` must be safe to call from any thread, several at once (as on Apple platforms).
        nonisolated(unsafe) let layer = self
        for tile in started {
            Self.tileQueue.async {
                layer.drawTile(tile.key, rect: tile.rect, scale: plan.scale, generation: generation)
            }
        }
    }

    /// Draws one tile on a background thread and commits the sublayer that shows it, fading in.
    private func drawTile(_ key: TileStore.Key, rect: CGRect, scale: Double, generation: Int) {
        guard let ctx = CGContext.makeLayerContext(bounds: rect, contentsScale: scale) else {
            CATransaction.lock()
            tileStore.abandon(key, generation: generation)
            CATransaction.unlock()
            return
        }
        ctx.clip(to: rect)
        draw(in: ctx)
        let image = ctx.makeImage()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.lock()
        if let image {
            let tile = CALayer()
            tile.frame = rect
            tile.contentsScale = scale
            tile.contents = image
            tile.storedSuperlayer = self
            let fade = type(of: self).fadeDuration()
            if fade > 0, fade.isFinite {
                let animation = CABasicAnimation(keyPath: "opacity")
                animation.fromValue = 0
                animation.toValue = 1
                animation.duration = fade
                tile.add(animation, forKey: "fadeIn")
            }
            let bytes = image.width * image.height * 4
            if tileStore.install(key, rect: rect, layer: tile, bytes: bytes, generation: generation) { changed() }
        } else {
            tileStore.abandon(key, generation: generation)
        }
        CATransaction.unlock()
        CATransaction.commit()
    }
}
