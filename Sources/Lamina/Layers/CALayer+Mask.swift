import Foundation

extension CALayer {
    /// An optional layer whose alpha channel masks the layer's content: where the mask is opaque the
    /// layer shows, where it is transparent it is hidden, and partial alpha shows it partly. The mask
    /// is laid out in the layer's own coordinate space, like a sublayer, but is not one and is not
    /// drawn itself; everything the layer draws (its shadow, background, contents, sublayers and
    /// border) is masked, and the layer's opacity applies after the mask. Defaults to nil.
    ///
    /// A mask has no superlayer (Apple: "The layer you assign to this property must not have a
    /// superlayer"); Lamina removes a layer given here from its superlayer first. A layer may mask
    /// only one layer at a time. Each masked layer costs two offscreen passes (docs/rendering.md).
    public var mask: CALayer? {
        // Most layers store no key: a commit reads every layer's mask, so it skips the lookup then.
        get { kvcStorage.isEmpty ? nil : kvcStorage["mask"] as? CALayer }
        set {
            guard newValue !== mask else { return }
            if let newValue, newValue.superlayer != nil { newValue.removeFromSuperlayer() }
            settingKey("mask") { kvcStorage["mask"] = newValue }
            changed()
        }
    }
}
