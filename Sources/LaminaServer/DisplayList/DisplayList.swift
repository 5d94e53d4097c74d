/// What one frame draws: the instances of every draw kind and the batches that order them.
///
/// Pure data, renderer-agnostic: `instances` holds one buffer per entry of `DrawKind.all` (indexed by
/// `DrawKind.id`), and each batch names a kind and the indices of its instances in draw order.
public struct DisplayList: Sendable {
    /// Device width in pixels.
    public var width: Int
    /// Device height in pixels.
    public var height: Int
    /// Premultiplied colour the target is cleared to.
    public var clearColor: SIMD4<Float>
    /// One instance buffer per draw kind, indexed by `DrawKind.id`.
    public var instances: [InstanceBuffer] = DrawKind.all.map { InstanceBuffer(stride: $0.stride) }
    /// The batches in draw order.
    public var batches: [DrawBatch] = []
    /// The offscreen passes drawn before the display's own pass, in drawing order (masks, group
    /// opacity: docs/rendering.md, "Offscreen passes"); their batches index the same `instances`.
    public var passes: [OffscreenPass] = []
    /// The layers the builder walked to make the list (a frame counter: `FrameRecord.layersVisited`).
    public var layersVisited = 0
    /// Shadows that would have been drawn through offscreen passes but, the frame's pass budget spent,
    /// were drawn in closed form from the layer's rounded bounds instead (docs/rendering.md, "Shadows").
    public var passShadowsApproximated = 0
    /// What the display shows of each `CATiledLayer` drawn (`DisplayListBuilder+Tiles.swift`).
    public var tiledViews: [TiledLayerView] = []
    /// Every instance in the order it was emitted, with the device pixels it may touch: what
    /// `DamageTracker` compares two frames by.
    public var emitted: [EmittedInstance] = []
    /// The parts of the display that differ from the frame drawn before it into the same target, in
    /// device pixels, disjoint; nil when the whole display is to be drawn. The frame worker sets it for
    /// presented frames (`DamageTracker`); a renderer whose target holds that earlier frame keeps the
    /// rest of the image and clears and redraws only these parts; any other target is drawn whole.
    /// Captures leave it nil.
    public var damage: [DamageRect]?

    /// The pixels a renderer draws for this list: the damaged area, or the whole display.
    public var pixelsToDraw: Int {
        damage.map { $0.reduce(0) { $0 + $1.area } } ?? width * height
    }

    /// An empty list for a `width`×`height` display cleared to `clearColor`.
    public init(width: Int, height: Int, clearColor: SIMD4<Float> = .zero) {
        self.width = width
        self.height = height
        self.clearColor = clearColor
    }

    /// Empties the list for a `width`×`height` display, keeping its storage.
    mutating func removeAllInstances(width: Int, height: Int) {
        self.width = width
        self.height = height
        for kind in instances.indices { instances[kind].removeAll() }
        batches.removeAll(keepingCapacity: true)
        passes.removeAll()
        emitted.removeAll(keepingCapacity: true)
        layersVisited = 0
        passShadowsApproximated = 0
        tiledViews.removeAll()
        damage = nil
    }

    /// Reserves room for as many instances of each kind, and emitted records, as `other` holds.
    mutating func reserveCapacity(like other: DisplayList) {
        for kind in instances.indices where kind < other.instances.count {
            instances[kind].reserveCapacity(other.instances[kind].count)
        }
        emitted.reserveCapacity(other.emitted.count)
    }

    /// The number of instances in all batches.
    public var instanceCount: Int { batches.reduce(0) { $0 + $1.instances.count } }

    /// Appends `instance` to the buffer of `kind` (a `DrawKind.id`) and returns its index there.
    @discardableResult
    public mutating func append<Instance>(_ instance: Instance, kind: Int) -> Int {
        instances[kind].append(instance)
    }

    /// Every instance of `kind`, read as `Instance`: for tests and tools.
    public func instances<Instance>(of kind: DrawKind, as type: Instance.Type) -> [Instance] {
        instances[kind.id].instances(as: type)
    }
}
