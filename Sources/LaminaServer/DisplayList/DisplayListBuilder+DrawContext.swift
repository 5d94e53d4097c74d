import LaminaCore

extension DisplayListBuilder {
    /// What a layer's drawing inherits from its superlayer: one value instead of a long parameter list.
    ///
    /// `parentSublayerTransform` is the superlayer's `sublayerTransform` about its anchor; the child is
    /// flattened into the superlayer's plane only after it, so a parent's perspective foreshortens its
    /// children. `image` moves and fades the whole subtree within the layer's plane (one image of a
    /// transition); sublayers start again from the identity image.
    struct DrawContext {
        /// The tree's layers, where the layer's sublayers are looked up.
        var layers: LayerTable
        /// The before-images of transitions in the tree, by transition id.
        var snapshots: [UInt64: TransitionSnapshot]
        /// The superlayer's `sublayerTransform` about its anchor point.
        var parentSublayerTransform: CATransform3D
        /// The superlayer's layer-to-device matrix.
        var parentToDevice: CATransform3D
        /// The accumulated opacity of the superlayers.
        var opacity: Double
        /// The clip in force.
        var clip: Clip
        /// The tree's imported contents images, by the client's image id.
        var contentsImages: [UInt64: ContentsImage] = [:]
        /// Whether the layer's coordinate system is mirrored by an odd number of ancestors with
        /// `isGeometryFlipped` (Apple's `contentsAreFlipped()`): its contents are then drawn mirrored
        /// too, so the image stays upright on the screen.
        var flipped = false
        /// The transition image the layer is drawn as.
        var image: TransitionImage = .identity
        /// What the red, green and blue of every colour the layer draws are multiplied by, inside a
        /// replicator's copy (`DisplayListBuilder+Replicator.swift`; the copy's alpha is in `opacity`);
        /// nil outside any copy.
        var instanceTint: SIMD3<Double>? = nil
        /// Whether `opacity` (with the transition image's) fades what is drawn below as one group:
        /// it comes from ancestors with group opacity whose drawing has no overlapping pieces. False
        /// where part of it fades each drawing on its own: an ancestor with `allowsGroupOpacity` false,
        /// a replicator copy's alpha. A leaf's background and border faded as one (`GroupFade`) take
        /// the rest apart.
        var opacityFadesGroup = true
        /// Whether an ancestor is animated, so that the layer moves with it (`stablePieces`).
        var moving = false
    }
}
