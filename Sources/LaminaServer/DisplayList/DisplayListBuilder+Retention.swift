import LaminaCore

extension DisplayListBuilder {
    /// What a layer hands its sublayers, without the tree's tables: the part of a `DrawContext` that a
    /// retained display list keeps per drawn superlayer, so that a changed sublayer can be drawn again
    /// alone.
    struct ChildContext {
        var parentSublayerTransform: CATransform3D
        var parentToDevice: CATransform3D
        var opacity: Double
        var clip: Clip
        var flipped: Bool
        var opacityFadesGroup: Bool
        var moving: Bool

        init(_ context: DrawContext) {
            parentSublayerTransform = context.parentSublayerTransform
            parentToDevice = context.parentToDevice
            opacity = context.opacity
            clip = context.clip
            flipped = context.flipped
            opacityFadesGroup = context.opacityFadesGroup
            moving = context.moving
        }

        /// The full context again, with `tree`'s tables.
        func context(in tree: RenderTree) -> DrawContext {
            DrawContext(
                layers: tree.layers, snapshots: tree.snapshots, parentSublayerTransform: parentSublayerTransform,
                parentToDevice: parentToDevice, opacity: opacity, clip: clip, contentsImages: tree.contentsImages,
                flipped: flipped, opacityFadesGroup: opacityFadesGroup, moving: moving)
        }
    }

    /// What a retained build records while it walks (`RetainedDisplayList`): for each drawn layer,
    /// the emitted instances of its subtree (a range of `DisplayList.emitted`), and for each layer
    /// whose sublayers were drawn, what it handed them. Kept per tree of the scene, since layer ids
    /// are per client.
    struct Retention {
        /// Whether the list may be patched later: false once the walk met what a patch cannot
        /// reproduce alone (a transition, a host layer, a shape layer whose raster may be evicted).
        var isPatchable = true
        /// The tree being walked (its index in the scene).
        var tree = 0
        /// Per tree, every drawn layer in the order the walk reached it (pre-order).
        var visits: [[LayerID]]
        /// Per tree, the subtree of each entry of `visits`, at the same index.
        var ranges: [[SubtreeRange]]
        /// Per tree, what each layer whose sublayers were drawn handed them.
        var contexts: [[LayerID: ChildContext]]

        /// A record for a scene of `treeCount` trees.
        init(treeCount: Int) {
            visits = Array(repeating: [], count: treeCount)
            ranges = Array(repeating: [], count: treeCount)
            contexts = Array(repeating: [:], count: treeCount)
        }

        /// Forgets what was recorded, keeping the storage (the same number of trees).
        mutating func removeAll() {
            isPatchable = true
            tree = 0
            for index in visits.indices {
                visits[index].removeAll(keepingCapacity: true)
                ranges[index].removeAll(keepingCapacity: true)
                contexts[index].removeAll(keepingCapacity: true)
            }
        }

        /// Notes that the walk reached layer `id`, and returns its visit number.
        @inline(__always)
        mutating func enter(_ id: LayerID) -> Int {
            visits[tree].append(id)
            ranges[tree].append(SubtreeRange(start: 0, end: 0, layers: 0))
            return visits[tree].count - 1
        }

        /// Notes that the subtree of visit `visit` emitted `DisplayList.emitted[start..<end]`.
        @inline(__always)
        mutating func exit(_ visit: Int, start: Int, end: Int) {
            ranges[tree][visit] = SubtreeRange(
                start: Int32(start), end: Int32(end), layers: Int32(visits[tree].count - visit))
        }

        @inline(__always)
        mutating func noteChildContext(_ id: LayerID, _ context: DrawContext) {
            contexts[tree][id] = ChildContext(context)
        }
    }

    /// What one drawn layer's subtree holds: the instances it emitted, `DisplayList.emitted[start..<end]`,
    /// and the layers drawn, `layers` visits from the layer's own.
    struct SubtreeRange {
        var start: Int32
        var end: Int32
        var layers: Int32
    }
}
