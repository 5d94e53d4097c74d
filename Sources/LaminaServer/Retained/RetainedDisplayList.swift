import Foundation
import LaminaCore

/// One display's display list, kept from frame to frame and patched where the trees changed
/// (docs/rendering.md, "Retained frames").
///
/// A full build walks every tree and records, for every drawn layer, the instances its subtree
/// emitted and what it handed its sublayers (`DisplayListBuilder.Retention`). A later frame reads
/// each tree's change log since the revision it last built (`RenderTree.changes(since:)`), adds the
/// animated layers (this frame's and the last one's), and keeps only the topmost of those layers: the
/// dirty roots. Each dirty root's subtree is drawn again alone, in the context its superlayer handed
/// it last time; no other layer is visited. A frame with no dirty root is not built: the last list
/// is returned as it is.
///
/// When each subtree emitted the same kinds (and images) as before and every moved instance stays
/// in draw order with what may touch the same pixels (`DrawOrderGrid`), the new instances overwrite
/// the old ones in place, in their old batches (`patched`). Otherwise the subtrees' instances are
/// spliced in and every instance is placed in batches again from the cells and groups recorded for
/// it (`spliced`): a copy and a batcher pass over the instances, still without visiting the unchanged
/// layers. A full build is made for another size, tree or context, a new root, new contents
/// images, hosting, transitions, shape layers, an animated `zPosition`, a subtree that draws other
/// layers than before, or more dirty layers than `patchFraction` of a tree. The instances are always
/// those of a full build, to the byte and in emission order; spliced and full builds have its batches
/// too, and patched ones batches that draw the same pixels.
///
/// Not thread-safe; a frame worker keeps one per display and uses it on its thread.
public struct RetainedDisplayList {
    /// How the last list was made.
    public enum Build: Sendable, Equatable {
        /// Every tree walked.
        case full
        /// The dirty subtrees drawn again and written over their instances.
        case patched
        /// The dirty subtrees drawn again and put in place of their instances, every instance placed
        /// in batches again (their number or kinds changed, or the old batches would draw out of order).
        case spliced
        /// Nothing changed: the list before, as it was.
        case unchanged
    }

    /// How the last list was made.
    public private(set) var lastBuild = Build.full
    /// Why the last full build could not patch the list before (for tests and tools).
    public private(set) var lastFullReason = "no list yet"
    /// The positions in `DisplayList.emitted` whose instance the last build rewrote (its bytes or
    /// pixels changed), with their pixels before, when it was patched; empty when it was unchanged;
    /// nil after a spliced or full build, whose changes are not known.
    /// `DamageTracker.damage(of:patch:before:)` takes it.
    public internal(set) var lastChanged: (positions: [Int], pixelsBefore: [DamageRect])?
    /// The list the last build replaced, when it was spliced or full (nil otherwise): the frame
    /// before, for a damage tracker that did not keep it (`DamageTracker.damage(of:patch:before:)`).
    public internal(set) var lastReplaced: DisplayList?
    /// The builds made so far, by how they were made.
    public private(set) var buildCounts = (full: 0, patched: 0, spliced: 0, unchanged: 0)

    /// The share of a tree's layers beyond which dirty layers are built in full.
    public static let patchFraction = 0.25

    /// What a tree was when the list was last made from it.
    struct TreeKey {
        var identity: RenderTreeIdentity
        var revision: UInt64
        var contextId: UInt32?
        var images: [UInt64: ContentsImage]
        /// The layers animating then (`RenderTree.animating(at:)`, some perhaps twice): drawn again
        /// next frame too, as they show other values once their animations end.
        var animated: [LayerID]
    }

    var list: DisplayList?
    var display: UInt32 = 0
    var keys: [TreeKey] = []
    var record = DisplayListBuilder.Retention(treeCount: 0)
    /// Per tree, each drawn layer's visit number in `record` (filled at the first patch).
    var visitIndex: [[LayerID: Int32]] = []
    /// Whether the last full build can be patched at all.
    var patchable = false
    /// The batch of each emitted instance, and the groups the batcher placed them in.
    var placed: [(batch: Int32, kind: Int, index: Int32)] = []
    var groupEnds: [Int32] = []
    /// The cells each emitted instance was placed by (`Batcher.placedCells`).
    var placedCells: [SIMD4<Int32>] = []
    /// Per emitted instance: the highest batch of the instances before its group, and the lowest of
    /// those after it (filled at the first patch).
    var earlierMax: [Int32] = []
    var laterMin: [Int32] = []
    /// The instances by the cells they reach into (filled at the first patch).
    var order: DrawOrderGrid?
    /// Draws a frame's dirty subtrees, one after another (`Redrawn`); kept so that its storage is
    /// reused.
    var scratch = DisplayListBuilder(
        list: DisplayList(width: 1, height: 1), batcher: Batcher(width: 1, height: 1, recordsOnly: true))

    /// A retained list that has made no frame yet: the first is a full build.
    public init() {}

    /// The list for `display` of `trees` at media time `time`, as `DisplayListBuilder.build` makes
    /// it, patched from the last one where that is exact. The list's `layersVisited` counts the
    /// layers drawn for it (0 when nothing changed).
    public mutating func build(
        trees: [RenderTree], display: UInt32, width: Int, height: Int, clearColor: SIMD4<Float> = .zero,
        time: Double = 0, contextIds: [UInt32] = [], exported: [UInt32: ExportedTree] = [:],
        shapes: ShapeRasterCache? = nil
    ) -> DisplayList {
        if let reason = blocker(trees, display, width, height, clearColor, contextIds, exported) {
            return fullBuild(trees, display, width, height, clearColor, time, contextIds, exported, shapes, reason)
        }
        var redrawn: [Redrawn] = []
        resetScratch(width: width, height: height, treeCount: trees.count)
        // The layers animating now, per tree: looked at once a frame.
        var animating: [AnimatingLayers] = []
        animating.reserveCapacity(trees.count)
        for index in trees.indices {
            animating.append(trees[index].animating(at: time))
            switch redrawDirty(tree: index, of: trees, size: (width, height), time: time, animating: animating[index]) {
            case .failure(let reason):
                return fullBuild(
                    trees, display, width, height, clearColor, time, contextIds, exported, shapes, reason,
                    animating: animating)
            case .success(let found): redrawn += found
            }
        }
        for (index, tree) in trees.enumerated() {
            keys[index].revision = tree.revision
            keys[index].animated = animating[index].list
        }
        lastChanged = nil
        lastReplaced = nil
        if redrawn.isEmpty {
            lastChanged = ([], [])
            lastBuild = .unchanged
            buildCounts.unchanged += 1
        } else if overwrite(redrawn) {
            lastBuild = .patched
            buildCounts.patched += 1
        } else {
            splice(redrawn)
            lastBuild = .spliced
            buildCounts.spliced += 1
        }
        list!.layersVisited = scratch.list.layersVisited
        list!.damage = nil
        return list!
    }

    /// Why the list cannot be patched for this scene, or nil when it may be.
    private func blocker(
        _ trees: [RenderTree], _ display: UInt32, _ width: Int, _ height: Int, _ clearColor: SIMD4<Float>,
        _ contextIds: [UInt32], _ exported: [UInt32: ExportedTree]
    ) -> String? {
        guard let list else { return "no list yet" }
        guard patchable else { return "the last build drew a transition, host, shape layer or raster shadow" }
        guard list.width == width, list.height == height, list.clearColor == clearColor, self.display == display
        else { return "another display size, colour or number" }
        guard exported.isEmpty else { return "exported trees" }
        guard trees.count == keys.count else { return "another set of trees" }
        for (index, tree) in trees.enumerated() {
            let key = keys[index]
            guard key.identity === tree.identity, key.contextId == (index < contextIds.count ? contextIds[index] : nil)
            else { return "another set of trees" }
            guard tree.rootsRevision <= key.revision else { return "a new root" }
            guard tree.hostLayers.isEmpty, tree.snapshots.isEmpty else { return "hosting or transitions" }
            guard tree.contentsImages == key.images else { return "new contents images" }
        }
        return nil
    }

    /// Builds the whole list and records it for later patches. `animating` holds the layers
    /// animating at `time` of the first trees, where they were already looked at.
    private mutating func fullBuild(
        _ trees: [RenderTree], _ display: UInt32, _ width: Int, _ height: Int, _ clearColor: SIMD4<Float>,
        _ time: Double, _ contextIds: [UInt32], _ exported: [UInt32: ExportedTree], _ shapes: ShapeRasterCache?,
        _ reason: String, animating: [AnimatingLayers] = []
    ) -> DisplayList {
        var builder = DisplayListBuilder(
            list: DisplayList(width: width, height: height, clearColor: clearColor),
            batcher: Batcher(width: width, height: height), exported: exported, shapes: shapes)
        builder.retention = DisplayListBuilder.Retention(treeCount: trees.count)
        builder.batcher.keepsCells = true
        // Room for as many instances as the last list held: a scene drawn again needs about as many,
        // and the arrays then grow no more (each growth copies what they hold).
        if let list {
            builder.list.reserveCapacity(like: list)
            builder.batcher.reserveCapacity(list.emitted.count, groups: groupEnds.count)
        }
        builder.drawTrees(trees, display: display, time: time, contextIds: contextIds)
        builder.list.batches = builder.batcher.finish()
        record = builder.retention!
        patchable = record.isPatchable
        placed = builder.batcher.placed
        groupEnds = builder.batcher.groupEnds
        placedCells = builder.batcher.placedCells
        earlierMax = []
        laterMin = []
        order = nil
        visitIndex = []
        keys = trees.enumerated().map { index, tree in
            TreeKey(
                identity: tree.identity, revision: tree.revision,
                contextId: index < contextIds.count ? contextIds[index] : nil, images: tree.contentsImages,
                animated: (index < animating.count ? animating[index] : tree.animating(at: time)).list)
        }
        self.display = display
        lastReplaced = list
        list = builder.list
        lastBuild = .full
        lastChanged = nil
        lastFullReason = reason
        buildCounts.full += 1
        return builder.list
    }
}
