import Foundation
import LaminaCore

/// Finds what changed between the frames presented on one target: the damage of a new display list
/// against the one drawn before it (docs/rendering.md, "Damage").
///
/// Two frames are compared by their instances in emission order, which is the order in which
/// overlapping instances are drawn (the batcher only reorders instances that cannot overlap). The
/// longest common prefix and suffix are matched, then the middle is matched greedily, resynchronising
/// within a small window after each difference. Every instance left unmatched, in either frame, damages
/// the pixels it may touch. A pixel outside the damage is then covered by the same matched instances,
/// in the same order, in both frames, so it keeps its value: drawing only the damage gives exactly the
/// full redraw. The damage is collapsed to its bounding box beyond `maxRects` rectangles, and becomes a
/// full redraw (nil) beyond `fullRedrawFraction` of the display, when the size or the clear colour
/// changed, or when there is no frame before.
public struct DamageTracker {
    /// The most rectangles a frame's damage keeps before it becomes their bounding box.
    static let maxRects = 16
    /// Unmatched instances beyond which the damage is their bounding box without merging.
    static let maxUnmatchedToMerge = 64
    /// The part of the display beyond which the damage becomes a full redraw.
    static let fullRedrawFraction = 0.5
    /// Instances looked ahead, in both frames together, to resynchronise after a difference.
    static let resyncWindow = 16

    /// A tracker that has seen no frame: the first is drawn whole.
    public init() {}

    /// The frame drawn last into the target, and the hash of each of its emitted instances.
    private var previous: DisplayList?
    private var previousHashes: [UInt64] = []
    /// After a patched frame (`damage(of:patch:before:)`), the frame before is not kept (keeping it
    /// would make the retained list copy its arrays at its next write): only its size, clear colour
    /// and hashes are, and the caller hands the list over when it is needed again.
    private var patchedFrame: (width: Int, height: Int, clearColor: SIMD4<Float>)?

    /// The damage of `list` against the frame before (nil: draw it whole), remembering `list` as the
    /// frame the target will hold once it is drawn. Call `forget()` when it was not drawn.
    public mutating func damage(of list: DisplayList) -> [DamageRect]? {
        let hashes = list.emitted.map { Self.hash($0, in: list) }
        defer {
            previous = list
            previousHashes = hashes
        }
        guard let old = previous, old.width == list.width, old.height == list.height,
            old.clearColor == list.clearColor
        else { return nil }
        let oldHashes = previousHashes
        let same = { (i: Int, j: Int) -> Bool in
            oldHashes[i] == hashes[j] && Self.equal(old, i, list, j)
        }
        var unmatched: [DamageRect] = []
        var i = 0
        var j = 0
        var endOld = old.emitted.count
        var endNew = list.emitted.count
        while endOld > i, endNew > j, same(endOld - 1, endNew - 1) {
            endOld -= 1
            endNew -= 1
        }
        while i < endOld, j < endNew {
            if same(i, j) {
                i += 1
                j += 1
                continue
            }
            guard let (a, b) = Self.resync(i, j, endOld, endNew, same) else {
                unmatched += old.emitted[i..<endOld].map(\.pixels)
                unmatched += list.emitted[j..<endNew].map(\.pixels)
                i = endOld
                j = endNew
                break
            }
            unmatched += old.emitted[i..<a].map(\.pixels)
            unmatched += list.emitted[j..<b].map(\.pixels)
            i = a
            j = b
        }
        unmatched += old.emitted[i..<endOld].map(\.pixels)
        unmatched += list.emitted[j..<endNew].map(\.pixels)
        unmatched += Self.passSpread(of: unmatched.filter { !$0.isEmpty }, in: list)
        return Self.collapse(unmatched.filter { !$0.isEmpty }, width: list.width, height: list.height)
    }

    /// The pixels of the instances that show an offscreen pass whose rectangle meets `damage`: a change
    /// inside a pass may change more of what the pass shows than the changed instances' own pixels (a
    /// blur spreads it by 3σ; a backdrop pass replays what lies under a frosted layer, whose instance
    /// is otherwise unchanged).
    static func passSpread(of damage: [DamageRect], in list: DisplayList) -> [DamageRect] {
        guard !list.passes.isEmpty, !damage.isEmpty else { return [] }
        var out: [DamageRect] = []
        for e in list.emitted {
            guard let index = e.texture?.image.offscreenPassIndex, index < list.passes.count else { continue }
            let rect = list.passes[index].rect
            if damage.contains(where: { $0.intersects(rect) }) { out.append(e.pixels) }
        }
        return out
    }

    /// `damage(of:)` for a frame of a retained list (`RetainedDisplayList`). `patch` is what the
    /// list's patch rewrote (`lastChanged`: positions in `emitted`, and their pixels before), when it
    /// was patched; then the damage is the old and new pixels of those instances, found without
    /// comparing the others, and `list` is not kept (so the retained list does not copy its arrays at
    /// its next write). Otherwise `before`, the list that the retained list replaced (`lastReplaced`),
    /// stands for the frame before when it was not kept, and the frames are compared as `damage(of:)`
    /// does. The damage is the one `damage(of:)` would find, or smaller where `damage(of:)` gives up
    /// matching; drawing only it gives the full redraw.
    public mutating func damage(
        of list: DisplayList, patch: (positions: [Int], pixelsBefore: [DamageRect])?, before: DisplayList?
    ) -> [DamageRect]? {
        let size = previous.map { ($0.width, $0.height, $0.clearColor) } ?? patchedFrame
        if let patch, let (width, height, clearColor) = size, width == list.width, height == list.height,
            clearColor == list.clearColor, previousHashes.count == list.emitted.count
        {
            var rects: [DamageRect] = []
            rects.reserveCapacity(2 * patch.positions.count)
            for (position, pixels) in zip(patch.positions, patch.pixelsBefore) {
                rects.append(pixels)
                rects.append(list.emitted[position].pixels)
                previousHashes[position] = Self.hash(list.emitted[position], in: list)
            }
            previous = nil
            patchedFrame = (list.width, list.height, list.clearColor)
            return Self.collapse(rects.filter { !$0.isEmpty }, width: list.width, height: list.height)
        }
        if previous == nil, patchedFrame != nil {
            // The frame before was a patched frame of the list `before` now holds.
            guard let before, before.emitted.count == previousHashes.count else {
                forget()
                return damage(of: list)
            }
            previous = before
        }
        patchedFrame = nil
        return damage(of: list)
    }

    /// Forgets the frame before: the next is drawn whole (its target did not get the last one).
    public mutating func forget() {
        previous = nil
        patchedFrame = nil
        previousHashes = []
    }

    /// The nearest pair of positions (old ≥ `i`, new ≥ `j`, fewest skipped in both together, at most
    /// `resyncWindow`) whose instances are the same; nil when there is none.
    static func resync(_ i: Int, _ j: Int, _ endOld: Int, _ endNew: Int, _ same: (Int, Int) -> Bool) -> (Int, Int)? {
        for skipped in 1...resyncWindow {
            for a in 0...skipped {
                let b = skipped - a
                guard i + a < endOld, j + b < endNew else { continue }
                if same(i + a, j + b) { return (i + a, j + b) }
            }
        }
        return nil
    }

    /// `rects` made disjoint enough to draw: overlapping ones merged, their bounding box beyond
    /// `maxRects`, nil (full redraw) beyond `fullRedrawFraction` of the display.
    public static func collapse(_ rects: [DamageRect], width: Int, height: Int) -> [DamageRect]? {
        var merged: [DamageRect]
        if rects.count > maxUnmatchedToMerge {
            merged = [rects.reduce(DamageRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }]
        } else {
            merged = []
            for rect in rects {
                var current = rect
                var changed = true
                while changed {
                    changed = false
                    if let k = merged.firstIndex(where: { $0.intersects(current) }) {
                        current = current.union(merged.remove(at: k))
                        changed = true
                    }
                }
                merged.append(current)
            }
            if merged.count > maxRects {
                merged = [merged.reduce(DamageRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }]
            }
        }
        let area = merged.reduce(0) { $0 + $1.area }
        guard Double(area) <= fullRedrawFraction * Double(width * height) else { return nil }
        return merged
    }

    /// Whether instance `i` of `a` and instance `j` of `b` draw the same: kind, sampling, pixels and bytes.
    static func equal(_ a: DisplayList, _ i: Int, _ b: DisplayList, _ j: Int) -> Bool {
        let x = a.emitted[i]
        let y = b.emitted[j]
        guard x.kind == y.kind, x.texture == y.texture, x.pixels == y.pixels, x.content == y.content else {
            return false
        }
        let stride = a.instances[x.kind].stride
        return a.instances[x.kind].bytes.withUnsafeBytes { p in
            b.instances[y.kind].bytes.withUnsafeBytes { q in
                memcmp(p.baseAddress! + x.index * stride, q.baseAddress! + y.index * stride, stride) == 0
            }
        }
    }

    /// A hash of an emitted instance's kind, sampling and bytes (FNV-1a over 8-byte words, mixed).
    static func hash(_ e: EmittedInstance, in list: DisplayList) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(e.kind)
        if let t = e.texture { h = (h ^ t.image.rawValue) &* 0x100_0000_01b3 }
        if e.content != 0 { h = (h ^ e.content) &* 0x100_0000_01b3 }
        let stride = list.instances[e.kind].stride
        list.instances[e.kind].bytes.withUnsafeBytes { p in
            // Eight bytes a step, then what is left one by one.
            var k = e.index * stride
            let end = k + stride
            while k + 8 <= end {
                h = (h ^ p.loadUnaligned(fromByteOffset: k, as: UInt64.self)) &* 0x100_0000_01b3
                h ^= h >> 29
                k += 8
            }
            while k < end {
                h = (h ^ UInt64(p[k])) &* 0x100_0000_01b3
                k += 1
            }
        }
        return h
    }
}
