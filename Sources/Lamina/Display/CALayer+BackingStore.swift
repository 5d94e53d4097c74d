import Foundation

extension CALayer {
    /// The default `draw(in:)`: the delegate's `draw(_:in:)`, or nothing (recorded, so that a layer
    /// nobody draws gets no backing store).
    func drawWithDelegate(in ctx: CGContext) {
        if let delegate {
            delegate.draw(self, in: ctx)
        } else {
            displayState.drawFellBack = true
        }
    }

    /// Draws the layer into a backing store and makes it the contents (the drawing half of the
    /// default `display()`).
    ///
    /// The store is `bounds.size × contentsScale` pixels, rounded up. With `dirty` set, the previous
    /// store (when it is still the contents and has that size) is kept and only `dirty` is cleared
    /// and redrawn, with the context clipped to it. While an animation of a key that needs display
    /// runs, the presentation copy (with the delegate) is drawn, and its image (and the model's
    /// drawing once they end) replaces the contents without running the `contents` action; otherwise
    /// `contents` is set through its setter, whose action fades the new drawing in, as Core Animation
    /// does for a layer that was already on screen. A layer that nobody draws (its
    /// `draw(in:)` is the default and the delegate does not draw) gets no backing store.
    func drawBackingStore(dirty: CGRect?) {
        var drawn: CALayer = self
        var animated = false
        let quiet = displayState.isAnimatedForDisplay || displayState.redrawsWithoutActions
        displayState.redrawsWithoutActions = false
        if displayState.isAnimatedForDisplay, CATransaction.state.lock.withLock({ hasRunningDisplayAnimation }),
            let presentation = presentation(at: CACurrentMediaTime())
        {
            presentation.delegate = delegate
            drawn = presentation
            animated = true
        }
        delegate?.layerWillDraw(self)
        let bounds = drawn.bounds
        guard let ctx = CGContext.makeLayerContext(bounds: bounds, contentsScale: drawn.contentsScale) else {
            return
        }
        let previous = displayState.backingStore
        if !animated, let dirty, let previous, previous.width == ctx.width, previous.height == ctx.height,
            (storedContents as? CGImage) === previous
        {
            Self.copyPixels(of: previous, into: ctx)
            ctx.clip(to: dirty)
            ctx.clear(dirty)
        }
        drawn.displayState.drawFellBack = false
        let text = drawn as? CATextLayer
        text?.beginCoverageDrawing()
        drawn.draw(in: ctx)
        guard var image = ctx.makeImage() else { return }
        var tinted = false
        if let text {
            // A plain string drawn in white is coverage the server tints with `foregroundColor`.
            (image, tinted) = text.finishCoverageDrawing(image) {
                guard let again = CGContext.makeLayerContext(bounds: bounds, contentsScale: drawn.contentsScale)
                else { return nil }
                drawn.draw(in: again)
                return again.makeImage()
            }
        }
        if drawn.displayState.drawFellBack, previous == nil, image.premultipliedRGBA.allSatisfy({ $0 == 0 }) {
            // Nobody drew (a subclass calling the default `draw(in:)` after drawing still gets its image).
            return
        }
        displayState.backingStore = image
        if quiet {
            Self.withoutActions { contents = image }
        } else {
            contents = image
        }
        (self as? CATextLayer)?.setTintsContents(tinted)
    }

    /// Writes `image`'s pixels into the layer context `ctx` (premultiplied BGRA in memory, the same
    /// size), so a partial redraw starts from the previous backing store.
    static func copyPixels(of image: CGImage, into ctx: CGContext) {
        guard let data = ctx.data else { return }
        let bytes = data.assumingMemoryBound(to: UInt8.self)
        image.premultipliedRGBA.withUnsafeBufferPointer { rgba in
            for y in 0..<image.height {
                let row = bytes + y * ctx.bytesPerRow
                for x in 0..<image.width {
                    let s = (y * image.width + x) * 4
                    row[x * 4] = rgba[s + 2]
                    row[x * 4 + 1] = rgba[s + 1]
                    row[x * 4 + 2] = rgba[s]
                    row[x * 4 + 3] = rgba[s + 3]
                }
            }
        }
    }

    /// Runs `body` with actions disabled, without committing: an inner transaction level that is
    /// dropped afterwards (its changes belong to the enclosing transaction).
    static func withoutActions(_ body: () -> Void) {
        CATransaction.state.lock.lock()
        defer { CATransaction.state.lock.unlock() }
        let level = CATransaction.Level()
        level.values[kCATransactionDisableActions] = true
        CATransaction.state.levels.append(level)
        body()
        CATransaction.state.levels.removeLast()
    }
}
