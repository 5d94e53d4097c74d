import LaminaCore

/// A render tree's animations ordered by the media time at which each next changes phase (starts,
/// ends, or, on a clock running backwards, becomes active again), so that a frame's bookkeeping looks
/// only at the animations whose time has come, not at every animated layer (docs/rendering.md,
/// "Animation bookkeeping").
///
/// A layer's local time is an affine function of media time until a commit changes its clock (its
/// or an ancestor's `beginTime`, `timeOffset`, `speed`, or the hierarchy), and so is an animation's
/// local time: its phase changes only where that function crosses 0 or the active duration. Each
/// attached animation has an item: its layer, the time of its next look (when it was last looked at,
/// the time of its next phase change; `-infinity`: at the next frame, as after it is added or its
/// clock changes), and whether it counts as running (active on a clock that runs, when last looked
/// at). Two binary min-heaps order the looks, one for the animations counted as running (their
/// next change is an end) and one for the others (a start), so that the earliest start is found
/// without passing the running ones. An item moved or removed leaves its old heap entry behind,
/// recognised as stale by its serial and dropped from the top when the schedule changes, or all at
/// once when stale entries outnumber live ones.
struct AnimationSchedule: Sendable {
    /// What the schedule knows about one animation.
    struct Item: Sendable {
        var layer: LayerID
        /// The media time at which to look at the animation next: `-infinity` at the next frame,
        /// `infinity` never (its phase changes only through a commit).
        var time: Double
        /// The serial of its live heap entry (in `running` when counted, else in `waiting`).
        var serial: UInt64
        /// Whether it counts in `runningCount`.
        var counted: Bool
    }

    /// The items by animation id.
    private(set) var items: [UInt64: Item] = [:]
    /// The looks of the animations counted as running, and of the others (entries may be stale).
    private(set) var running = EventHeap()
    private(set) var waiting = EventHeap()
    private var lastSerial: UInt64 = 0
    /// The animations active on a clock that runs, when last looked at: while any is, every frame
    /// is needed.
    private(set) var runningCount = 0
    /// The number of running (counted) animations of each layer that has any: the layers a frame
    /// draws again, kept as they change rather than gathered every frame.
    private(set) var runningByLayer: [LayerID: Int] = [:]

    /// Whether heap entry `entry` is its animation's current one.
    func isLive(_ entry: EventHeap.Entry) -> Bool { items[entry.animation]?.serial == entry.serial }

    /// The media time after `time` at which an animation next changes phase, given its local time
    /// `local` at `time`, the rate `slope` at which that local time follows media time, its phase
    /// then and its active duration. Nil when it never does by the passing of time.
    static func nextChange(after time: Double, local: Double, slope: Double, phase: AnimationPhase, duration: Double)
        -> Double?
    {
        // The local time the animation's phase next changes at, in the direction its time runs.
        let target: Double
        switch (slope > 0, slope < 0, phase) {
        case (true, _, .pending): target = 0
        case (true, _, .active): target = duration
        case (_, true, .finished): target = duration
        case (_, true, .active): target = 0
        default: return nil
        }
        let change = time + (target - local) / slope
        return change.isFinite ? max(change, time) : nil
    }

    /// Adds animation `id` of layer `layer`, to be looked at the next frame.
    mutating func add(_ id: UInt64, layer: LayerID) {
        set(id, Item(layer: layer, time: -.infinity, serial: 0, counted: false))
        // Room for every animation's layer to count as running, made as animations are added (by a
        // commit, off the server's loop when it is large) rather than when they start: the table
        // grows by rehashing all it holds, and 200,000 layers starting at once made the loop do
        // that in one call.
        if runningByLayer.capacity < items.count { runningByLayer.reserveCapacity(items.count) }
    }

    /// Records a look at animation `id`: its next look at media time `time` (infinity: none), and
    /// whether it counts as running. Nothing when `serial` is no longer its item's (a commit added
    /// it again or moved its clock since).
    mutating func looked(at id: UInt64, serial: UInt64, next time: Double, counted: Bool) {
        guard let item = items[id], item.serial == serial else { return }
        set(id, Item(layer: item.layer, time: time, serial: 0, counted: counted))
    }

    /// Makes every animation due at the next frame: its clock may have moved.
    mutating func lookAgainAtAll() {
        for (id, item) in items { set(id, Item(layer: item.layer, time: -.infinity, serial: 0, counted: item.counted)) }
    }

    /// Takes animation `id` out of the schedule (it left its layer).
    mutating func remove(_ id: UInt64) {
        guard let old = items.removeValue(forKey: id) else { return }
        if old.counted { uncount(old.layer) }
    }

    /// Counts one more running animation of `layer`.
    private mutating func count(_ layer: LayerID) {
        runningCount += 1
        runningByLayer[layer, default: 0] += 1
    }

    /// Counts one running animation of `layer` less.
    private mutating func uncount(_ layer: LayerID) {
        runningCount -= 1
        if let n = runningByLayer[layer], n > 1 { runningByLayer[layer] = n - 1 } else { runningByLayer[layer] = nil }
    }

    private mutating func set(_ id: UInt64, _ item: Item) {
        var item = item
        lastSerial &+= 1
        item.serial = lastSerial
        if let old = items[id], old.counted { uncount(old.layer) }
        if item.counted { count(item.layer) }
        items[id] = item
        // A running animation has an entry even when it never ends by itself, so that the running
        // heap lists every running animation (`animating(at:)`).
        let entry = EventHeap.Entry(time: item.time, animation: id, serial: item.serial)
        if item.counted {
            running.push(entry)
        } else if item.time < .infinity {
            waiting.push(entry)
        }
    }

    /// Drops stale entries from the tops of the heaps, and rebuilds a heap from the items when its
    /// stale entries outnumber its live ones: each heap stays within twice its live items (plus a
    /// little), so the running heap is as long as the running animations, not all of them.
    mutating func compact() {
        let items = self.items
        running.dropTop { items[$0.animation]?.serial != $0.serial }
        waiting.dropTop { items[$0.animation]?.serial != $0.serial }
        let rebuildRunning = running.count > 2 * runningCount + 64
        let rebuildWaiting = waiting.count > 2 * (items.count - runningCount) + 64
        guard rebuildRunning || rebuildWaiting else { return }
        var live: (running: [EventHeap.Entry], waiting: [EventHeap.Entry]) = ([], [])
        for (id, item) in items {
            let entry = EventHeap.Entry(time: item.time, animation: id, serial: item.serial)
            if item.counted {
                live.running.append(entry)
            } else if item.time < .infinity {
                live.waiting.append(entry)
            }
        }
        if rebuildRunning { running = EventHeap(live.running) }
        if rebuildWaiting { waiting = EventHeap(live.waiting) }
    }

    /// The layers whose animations may look different at media time `time` than when last looked
    /// at: those with a running animation (a view of `runningByLayer`, kept as animations change), and
    /// those of the animations due then (new ones, moved clocks, phase changes come; they may repeat
    /// some of the first). Linear in the animations due, not in the running ones.
    func animating(at time: Double) -> AnimatingLayers {
        var due: [LayerID] = []
        let time = time + 1e-9 * max(1, abs(time))
        _ = waiting.visit(upTo: time, isLive: isLive) { due.append(items[$0.animation]!.layer) }
        return AnimatingLayers(running: runningByLayer.keys, due: due)
    }

    /// The live entries due at media time `time` (their time is not after it, give or take the
    /// rounding of the arithmetic that found it: a look a hair early finds nothing and looks again
    /// at the next frame), and the earliest time after it of an animation not counted as running
    /// (its next start; nil when none). Visits the due entries, the stale ones above them and the
    /// entries just past them, not the whole of either heap.
    func due(at time: Double) -> (due: [EventHeap.Entry], nextStart: Double?) {
        let time = time + 1e-9 * max(1, abs(time))
        var due: [EventHeap.Entry] = []
        _ = running.visit(upTo: time, isLive: isLive) { due.append($0) }
        let next = waiting.visit(upTo: time, isLive: isLive) { due.append($0) }
        return (due, next)
    }
}

/// The layers whose animations may look different at a frame's time than when last looked at
/// (`AnimationSchedule.animating(at:)`, `RenderTree.animating(at:)`): those with a running animation,
/// and others, which may repeat them.
struct AnimatingLayers {
    /// The layers with a running animation, each once.
    var running: Dictionary<LayerID, Int>.Keys
    /// Other layers: those of animations due, and emitter layers; they may repeat `running`'s.
    var due: [LayerID]

    /// The number of layers, at least (a layer in both lists counts twice).
    var count: Int { running.count + due.count }

    /// Every layer, some perhaps twice.
    var list: [LayerID] { Array(running) + due }
}
