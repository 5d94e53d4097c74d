import LaminaCore
import LaminaProtocol

/// A client's render tree: the server's private copy of its layers, updated only by whole transactions.
public struct RenderTree: Sendable {
    /// The client's live layers by id.
    public var layers = LayerTable()
    /// The layer shown on each display.
    public var roots: [UInt32: LayerID] = [:]
    /// Layers whose `animations` are not empty, and emitter layers with cells (`RenderLayer.isAnimated`).
    public internal(set) var animatedLayers: Set<LayerID> = []
    /// Layers whose `host` is set (`CALayerHost`).
    public internal(set) var hostLayers: Set<LayerID> = []
    /// Animations attached across all layers (group children count too).
    public internal(set) var animationCount = 0
    /// What has been reported to the client about each attached animation.
    var reported: [UInt64: ReportState] = [:]
    /// The animations that have not finished, by the media time of their next start or end
    /// (`RenderTree+AnimationSchedule.swift`).
    var schedule = AnimationSchedule()
    /// Emitter layers with cells: their particles move whenever their clock runs.
    var emitterLayers: Set<LayerID> = []

    /// How far the client has been told an animation has got.
    enum ReportState: Sendable {
        case notStarted, started, finished
    }
    /// Before-images of transitions, by animation id.
    public internal(set) var snapshots: [UInt64: TransitionSnapshot] = [:]
    /// Layers held in `snapshots`.
    var snapshotLayerCount = 0
    /// The client's images that the renderer has imported, by the client's image id: filled by the
    /// frame worker before it builds a frame, read by `DisplayListBuilder` for each layer's `contents`.
    public var contentsImages: [UInt64: ContentsImage] = [:]
    /// The client's image ids that new `contents` values and animations may name: uploaded and not
    /// released (kept by the server's loop; `applying` refuses any other id with `unknownImage`).
    public var liveImages: Set<UInt64> = []
    /// The ids among `liveImages` that are shared surfaces (registered and not released): the ids a
    /// `surfaceChanged` operation may name.
    public var liveSurfaces: Set<UInt64> = []
    /// How many times each shared surface's pixels were said to change (`surfaceChanged`), by id: the
    /// frame worker redraws the layers showing a surface whose count differs from the one it drew
    /// last (and, where it cannot sample the surface in place, copies its rows first).
    public internal(set) var surfaceRevisions: [UInt64: UInt64] = [:]
    /// How many commits named each shared surface as a layer's contents or in an animation, by id
    /// (`noteSurfaceShown`): with `surfaceRevisions`, what the frame worker's presented and discarded
    /// events are about.
    public internal(set) var surfaceShows: [UInt64: UInt64] = [:]
    /// The history this tree belongs to (`RenderTree+Changes.swift`).
    public internal(set) var identity = RenderTreeIdentity()
    /// The number of changes made to the tree: one per commit or applied advancement that changed it.
    public internal(set) var revision: UInt64 = 0
    /// The revision at which `roots` last changed.
    public internal(set) var rootsRevision: UInt64 = 0
    /// The layers changed by recent revisions, oldest first (`changes(since:)`).
    var changeLog = ChangeLog()
    /// The newest revision whose changes are no longer all in `changeLog`.
    var changeLogStart: UInt64 = 0
    /// How the hierarchy check of the commit that made this tree went (`RenderTree+Relink.swift`):
    /// all zero when that commit changed no hierarchy.
    public internal(set) var lastRelink = RelinkCounters()

    /// An empty tree: no layers, no roots.
    public init() {}

    /// Applies a transaction to a copy of the tree and returns it, or throws the first problem found.
    /// The tree itself is never left half-changed: the caller swaps the copy in on success.
    public func applying(_ operations: [LayerOperation], displayCount: Int) throws(TransactionError) -> RenderTree {
        try applying(operations, displayCount: displayCount, relink: .automatic)
    }

    /// `applying(_:displayCount:)` with the hierarchy checked as `mode` says: tests and benchmarks
    /// compare the incremental check with the full one.
    public func applying(
        _ operations: [LayerOperation], displayCount: Int, relink mode: RelinkMode
    ) throws(TransactionError) -> RenderTree {
        try applying(operations[...], displayCount: displayCount, relink: mode)
    }

    /// `applying(_:displayCount:)` of a transaction that came in parts (`transactionPart`s, then the
    /// `commit`'s own operations), in order: the parts are read where they are, not joined into one
    /// list first (a copy of every operation, on the server's loop).
    public func applying(parts: [[LayerOperation]], displayCount: Int) throws(TransactionError) -> RenderTree {
        try applying(parts.joined(), displayCount: displayCount, relink: .automatic)
    }

    /// Applies `operations`, the whole transaction, to a copy of the tree (`applying(_:displayCount:)`).
    func applying(
        _ operations: some Sequence<LayerOperation>, displayCount: Int, relink mode: RelinkMode
    ) throws(TransactionError) -> RenderTree {
        var next = self
        next.lastRelink = RelinkCounters()
        var edits = HierarchyEdits()
        var touchedHierarchy = false
        var touchedClocks = false
        next.beginRevision()
        for op in operations {
            switch op {
            case .createLayer(let id, let layerClass):
                guard id != 0 else { throw .invalidValue("layer id 0 is reserved") }
                guard next.layers[id] == nil else { throw .duplicateLayer(id) }
                guard next.layers.count < WireLimits.maxLayersPerClient else {
                    throw .limitExceeded("more than \(WireLimits.maxLayersPerClient) layers")
                }
                next.layers[id] = RenderLayer(state: LayerState(layerClass: layerClass))
                next.noteChange(id, .hierarchy)
                edits.created.append(id)
            case .destroyLayer(let id):
                guard let removed = next.layers.removeValue(forKey: id) else { throw .unknownLayer(id) }
                for animation in removed.animations { next.forget(animation) }
                next.animatedLayers.remove(id)
                next.emitterLayers.remove(id)
                next.hostLayers.remove(id)
                next.noteChange(id, .hierarchy)
                edits.destroyed.append(id)
                touchedHierarchy = true
            case .set(let id, let property):
                // Applied before the image check, which may still refuse the transaction (the copy is
                // then dropped): the layer is looked up once.
                try Self.set(property, of: id, in: &next.layers[id])
                if case .contents(let image) = property {
                    try next.checkImage(image)
                    next.noteSurfaceShown(image)
                }
                next.noteChange(id, .of(property.name))
                if Self.isClockProperty(property.name) { touchedClocks = true }
            case .setSublayers(let id, let children):
                guard next.layers[id] != nil else { throw .unknownLayer(id) }
                next.layers[id]!.sublayers = children
                next.noteChange(id, .hierarchy)
                edits.listed.append(id)
                touchedHierarchy = true
            case .setRoot(let display, let layer):
                guard display < displayCount else { throw .badDisplay(display) }
                if let layer { next.roots[display] = layer } else { next.roots[display] = nil }
                next.rootsRevision = next.revision
                touchedHierarchy = true
            case .addAnimation(let id, let animation):
                try next.add(animation, to: id, before: self)
                next.noteChange(id, .animations)
            case .removeAnimation(let id, let animationID):
                guard next.layers[id] != nil else { throw .unknownLayer(id) }
                if let index = next.layers[id]!.animations.firstIndex(where: { $0.id == animationID }) {
                    next.forget(next.layers[id]!.animations.remove(at: index))
                    if !next.layers[id]!.isAnimated { next.animatedLayers.remove(id) }
                    next.noteChange(id, .animations)
                }
            case .setHost(let id, let contextId, let token):
                guard next.layers[id] != nil else { throw .unknownLayer(id) }
                if contextId == 0 {
                    next.layers[id]!.host = nil
                    next.hostLayers.remove(id)
                } else {
                    next.layers[id]!.host = HostedContext(contextId: contextId, token: token)
                    next.hostLayers.insert(id)
                }
                next.noteChange(id, .hierarchy)
            case .setMask(let id, let mask):
                guard next.layers[id] != nil else { throw .unknownLayer(id) }
                if let mask, mask == id { throw .cycle("layer \(id) is its own mask") }
                next.layers[id]!.mask = mask
                next.noteChange(id, .hierarchy)
                edits.masked.append(id)
                touchedHierarchy = true
            case .surfaceChanged(let id):
                guard next.liveSurfaces.contains(id) else { throw .unknownSurface(id) }
                next.surfaceRevisions[id, default: 0] &+= 1
            case .setEmitterCells(let id, let cells):
                try next.setEmitterCells(cells, of: id)
            }
        }
        if touchedHierarchy { try next.relink(after: edits, from: self, mode: mode) }
        // A layer's clock hangs on its ancestors' timing: when either changed, every animation's
        // next event is found again (in time proportional to the animated layers).
        if touchedHierarchy || touchedClocks { next.rescheduleAnimations() }
        return next
    }

    /// Whether property `name` is one of those a layer's clock (`localTime(of:at:)`) is made of.
    @inline(__always)
    static func isClockProperty(_ name: LayerPropertyName) -> Bool {
        switch name {
        case .beginTime, .timeOffset, .speed: true
        default: false
        }
    }

    /// Writes `property` into `layer`, the layer of id `id` (nil: the tree has none), after the
    /// checks of a `set` operation: the layer exists, has the property, and the value is valid.
    @inline(__always)
    static func set(_ property: LayerProperty, of id: LayerID, in layer: inout RenderLayer?) throws(TransactionError) {
        guard let layerClass = layer?.state.layerClass else { throw .unknownLayer(id) }
        let descriptor = property.descriptor
        guard descriptor.belongs(to: layerClass) else {
            throw .wrongLayerClass(id, key: descriptor.key, owner: descriptor.layerClass, actual: layerClass)
        }
        if let reason = property.invalidReason { throw .invalidValue("layer \(id): \(reason)") }
        property.apply(to: &layer!.state)
    }

    /// Attaches `animation` to layer `id`, replacing the one under the same key; a transition also
    /// records the layer's subtree as it was in `old`, the tree before this transaction.
    mutating func add(_ animation: AttachedAnimation, to id: LayerID, before old: RenderTree) throws(TransactionError) {
        guard let layerClass = layers[id]?.state.layerClass else { throw .unknownLayer(id) }
        if let wrong = animation.record.propertyOfAnotherClass(than: layerClass) {
            throw .wrongLayerClass(id, key: wrong.key, owner: wrong.layerClass, actual: layerClass)
        }
        if let reason = animation.record.invalidReason {
            throw .invalidValue("animation '\(animation.key.truncatedToUTF8(64))' on layer \(id): \(reason)")
        }
        try checkImages(of: animation.record)
        for image in animation.record.imageIDs { noteSurfaceShown(image) }
        if let index = layers[id]!.animations.firstIndex(where: { $0.key == animation.key }) {
            forget(layers[id]!.animations.remove(at: index))
        }
        guard reported[animation.id] == nil else {
            throw .invalidValue("animation id \(animation.id) is already attached")
        }
        guard layers[id]!.animations.count < WireLimits.maxAnimationsPerLayer else {
            throw .limitExceeded("more than \(WireLimits.maxAnimationsPerLayer) animations on layer \(id)")
        }
        let count = animation.record.recordCount
        guard animationCount + count <= WireLimits.maxAnimationsPerClient else {
            throw .limitExceeded("more than \(WireLimits.maxAnimationsPerClient) animations")
        }
        if animation.record.containsTransition {
            let snapshot = old.snapshot(of: id)
            guard snapshotLayerCount + snapshot.layers.count <= WireLimits.maxLayersPerClient else {
                throw .limitExceeded(
                    "transition snapshots would hold more than \(WireLimits.maxLayersPerClient) layers")
            }
            snapshots[animation.id] = snapshot
            snapshotLayerCount += snapshot.layers.count
        }
        layers[id]!.animations.append(animation)
        animatedLayers.insert(id)
        animationCount += count
        reported[animation.id] = .notStarted
        schedule.add(animation.id, layer: id)
        schedule.compact()
    }

    /// Counts a showing of surface `id` when a commit names it as a layer's contents (or in an
    /// animation): it is shown with what it holds now (`surfaceShows`; the pixels' revision,
    /// `surfaceRevisions`, is not moved, so nothing is copied again). A surface that no commit has
    /// named has no showing, so a registered buffer not yet presented is never taken for a discarded frame
    /// (`FrameWorker+SurfaceFeedback.swift`); a pool buffer's first present, which names it without
    /// a `surfaceChanged`, counts like any other.
    mutating func noteSurfaceShown(_ id: UInt64) {
        guard liveSurfaces.contains(id) else { return }
        surfaceShows[id, default: 0] &+= 1
    }

    /// Drops the bookkeeping of an animation leaving its layer.
    mutating func forget(_ animation: AttachedAnimation) {
        animationCount -= animation.record.recordCount
        reported[animation.id] = nil
        schedule.remove(animation.id)
        if let snapshot = snapshots.removeValue(forKey: animation.id) {
            snapshotLayerCount -= snapshot.layers.count
        }
    }

    /// The subtree rooted at `id` (empty when the layer does not exist here).
    func snapshot(of id: LayerID) -> TransitionSnapshot {
        var result = TransitionSnapshot(root: id, layers: [:])
        var stack = [id]
        while let next = stack.popLast() {
            guard var layer = layers[next], result.layers[next] == nil else { continue }
            // Animations keep running in the snapshot, but not transitions (no snapshots of snapshots).
            layer.animations.removeAll { $0.record.containsTransition }
            result.layers[next] = layer
            stack += layer.sublayers
        }
        return result
    }
}
