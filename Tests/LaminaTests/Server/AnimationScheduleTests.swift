import Foundation
import LaminaCore
import LaminaProtocol
import LaminaTesting
import Testing

@testable import LaminaServer

/// The animation bookkeeping as an event-ordered set (`AnimationSchedule`, issue 19 point 2): a
/// frame looks only at the animations whose phase change has come, and finds the same events,
/// the same "running" and no later a wake time than looking at every animation of every animated
/// layer each frame (the bookkeeping before it, kept below as the reference).
///
/// The timing model is Core Animation's `CAMediaTiming` (Apple's "Core Animation Programming Guide",
/// "Timing, Timespaces, and CAAnimation"; decisions.md): a layer's local time is
/// `(parent time − beginTime) × speed + timeOffset`, applied from the root down; an animation is
/// pending before local time 0, active until its active duration, finished after.
@Suite struct AnimationScheduleTests {
    static func fade(_ id: UInt64, _ timing: MediaTiming, removed: Bool = true) -> AttachedAnimation {
        AttachedAnimation(
            id: id, key: "a\(id)",
            record: AnimationRecord(
                timing: timing, isRemovedOnCompletion: removed,
                content: .basic(
                    PropertyTarget(keyPath: LayerKeyPath("opacity")!), BasicValues(from: .number(0), to: .number(1)))))
    }

    /// 1,000 layers, each with an animation from t = 1 to t = 11 (beginTime 1, duration 10): the
    /// frames before the start look at none, the start's frame at all 1,000 (each starts), the
    /// frames in between at none while all run, the end's frame at all 1,000 (each ends and goes).
    @Test func aFrameLooksOnlyAtAnimationsWhoseTimeHasCome() throws {
        var ops: [LayerOperation] = [.createLayer(1), .setRoot(display: 0, layer: 1)]
        for id in 2...1001 as ClosedRange<LayerID> {
            ops += [
                .createLayer(id), .addAnimation(id, Self.fade(UInt64(id), MediaTiming(beginTime: 1, duration: 10))),
            ]
        }
        ops.append(.setSublayers(1, Array(2...1001)))
        var tree = try RenderTree().applying(ops, displayCount: 1)

        var first = tree.advancement(to: 0.5)
        #expect(first.animationsExamined == 1000)  // new: each looked at once
        #expect(tree.apply(&first).isEmpty && !first.running && first.nextStart == 1)

        var waiting = tree.advancement(to: 0.9)
        #expect(waiting.animationsExamined == 0 && !waiting.running && waiting.nextStart == 1)
        _ = tree.apply(&waiting)

        var start = tree.advancement(to: 1)
        #expect(start.animationsExamined == 1000 && start.running)
        #expect(tree.apply(&start).map(\.kind) == Array(repeating: .started, count: 1000))

        for frame in 1...59 {
            var steady = tree.advancement(to: 1 + Double(frame) / 6)
            #expect(steady.animationsExamined == 0 && steady.running)
            #expect(tree.apply(&steady).isEmpty)
        }

        var end = tree.advancement(to: 11)
        #expect(end.animationsExamined == 1000 && !end.running)
        #expect(tree.apply(&end).map(\.kind) == Array(repeating: .finishedAndRemoved, count: 1000))
        #expect(tree.animatedLayers.isEmpty && tree.schedule.items.isEmpty)
        #expect(tree.schedule.running.count + tree.schedule.waiting.count <= 64)
    }

    /// The server applies a frame's bookkeeping a slice per turn of its loop (`Server.advance`,
    /// `apply(_:limit:)`), so that a client whose 250,000 animations start at once does not hold up
    /// the others: the looks recorded in the schedule are sliced as the changes are (at most `limit`
    /// of both per call), and the slices end where applying the whole advancement at once does: the
    /// same events, states and schedule.
    @Test func aSlicedAdvancementEndsWhereAWholeOneDoes() throws {
        var ops: [LayerOperation] = [.createLayer(1), .setRoot(display: 0, layer: 1)]
        for id in 2...301 as ClosedRange<LayerID> {
            let timing = MediaTiming(beginTime: Double(id % 3), duration: 1 + Double(id % 5))
            ops += [.createLayer(id), .addAnimation(id, Self.fade(UInt64(id), timing, removed: id % 2 == 0))]
        }
        ops.append(.setSublayers(1, Array(2...301)))
        var whole = try RenderTree().applying(ops, displayCount: 1)
        var sliced = whole
        for time in [0.5, 1, 2, 3.5, 8] {
            var all = whole.advancement(to: time)
            let expected = whole.apply(&all)
            var found = sliced.advancement(to: time)
            var events: [AnimationEvent] = []
            var calls = 0
            while !found.isApplied {
                let (changes, looks) = (found.appliedCount, found.recordedLooks)
                events += sliced.apply(&found, limit: 7)
                #expect(found.appliedCount - changes + found.recordedLooks - looks <= 7, "t = \(time)")
                calls += 1
            }
            #expect(found.looks.count + found.changes.count > 7 * 10, "t = \(time): too few to slice")
            #expect(calls >= (found.looks.count + found.changes.count) / 7, "t = \(time)")
            #expect(events == expected, "t = \(time)")
            #expect(sliced.reported == whole.reported, "t = \(time)")
            #expect(
                sliced.schedule.items.mapValues { "\($0.layer) \($0.time) \($0.counted)" }
                    == whole.schedule.items.mapValues { "\($0.layer) \($0.time) \($0.counted)" }, "t = \(time)")
            #expect(sliced.schedule.runningByLayer == whole.schedule.runningByLayer, "t = \(time)")
        }
    }

    /// The count of running animations per layer has room for every animation's layer once they are
    /// added (by the commit, off the server's loop when it is large): when they start, the loop only
    /// writes into it, and never rehashes a table of 200,000 layers in one turn.
    @Test func roomForRunningLayersIsMadeWhenAnimationsAreAdded() throws {
        var ops: [LayerOperation] = [.createLayer(1), .setRoot(display: 0, layer: 1)]
        for id in 2...3001 as ClosedRange<LayerID> {
            ops += [
                .createLayer(id), .addAnimation(id, Self.fade(UInt64(id), MediaTiming(beginTime: 1, duration: 10))),
            ]
        }
        ops.append(.setSublayers(1, Array(2...3001)))
        var tree = try RenderTree().applying(ops, displayCount: 1)
        let room = tree.schedule.runningByLayer.capacity
        #expect(room >= 3000 && tree.schedule.runningByLayer.isEmpty)
        var start = tree.advancement(to: 1)
        _ = tree.apply(&start)
        #expect(tree.schedule.runningByLayer.count == 3000)
        #expect(tree.schedule.runningByLayer.capacity == room, "the table grew while the animations started")
    }

    /// A commit that changes a layer's clock makes its animations looked at again: layer 2 frozen
    /// (speed 0) at local time 0.5 holds its animation (begin 1) pending; a commit setting its
    /// `timeOffset` to 2 puts local time past the start, and the next frame starts it.
    @Test func aClockChangeIsLookedAtTheNextFrame() throws {
        var tree = try RenderTree().applying(
            [
                .createLayer(1), .createLayer(2), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1),
                .set(2, .speed(0)), .set(2, .timeOffset(0.5)),
                .addAnimation(2, Self.fade(9, MediaTiming(beginTime: 1, duration: 5))),
            ], displayCount: 1)
        var frozen = tree.advancement(to: 3)
        #expect(tree.apply(&frozen).isEmpty && !frozen.running && frozen.nextStart == nil)
        var idle = tree.advancement(to: 4)
        #expect(idle.animationsExamined == 0)
        _ = tree.apply(&idle)

        tree = try tree.applying([.set(2, .timeOffset(2))], displayCount: 1)
        var moved = tree.advancement(to: 5)
        #expect(moved.animationsExamined == 1)
        #expect(tree.apply(&moved).map(\.kind) == [.started])
        // Active on a frozen clock: it changes nothing by itself, so it needs no frames.
        #expect(!moved.running)
    }

    /// Seeded random trees (nested layers with their own `beginTime`, `speed` 0, negative or not,
    /// `timeOffset`), animations of every timing (repeat counts, autoreverse, zero and negative
    /// speeds, kept or removed on completion) and commits between frames (clocks changed, layers
    /// moved, animations added and removed): every frame, the schedule finds the same events and the
    /// same "running" as looking at everything, and a wake time no later than its.
    @Test(arguments: 1...12 as ClosedRange<UInt64>) func agreesWithLookingAtEveryAnimation(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[random.below(values.count)] }
        let layerCount = 24
        var children: [LayerID: [LayerID]] = [:]
        var parent: [LayerID: LayerID] = [:]
        var ops: [LayerOperation] = [.createLayer(1), .setRoot(display: 0, layer: 1)]
        for id in 2...LayerID(layerCount) {
            let up = LayerID(1 + random.below(Int(id) - 1))
            ops.append(.createLayer(id))
            children[up, default: []].append(id)
            parent[id] = up
        }
        for (up, list) in children { ops.append(.setSublayers(up, list)) }
        var nextAnimation: UInt64 = 100
        var attached: [(layer: LayerID, id: UInt64)] = []
        func clockChange() -> LayerOperation {
            let id = LayerID(1 + random.below(layerCount))
            switch random.below(3) {
            case 0: return .set(id, .speed(pick([1, 2, 0.5, 0, -1])))
            case 1: return .set(id, .beginTime(pick([0, 1, 3, -2])))
            default: return .set(id, .timeOffset(pick([0, 0.5, -2, 4])))
            }
        }
        func newAnimation() -> LayerOperation {
            nextAnimation += 1
            let layer = LayerID(1 + random.below(layerCount))
            attached.append((layer, nextAnimation))
            let timing = MediaTiming(
                beginTime: pick([0, 0.5, 1, 2.5, 4, 7]), timeOffset: pick([0, 0, 0.3]),
                duration: pick([0, 0.25, 1, 2]), speed: pick([1, 1, 2, 0.5, -1, 0]),
                repeatCount: pick([0, 0, 2, 2.5, .infinity]), autoreverses: random.below(3) == 0)
            return .addAnimation(layer, Self.fade(nextAnimation, timing, removed: random.below(2) == 0))
        }
        for _ in 0..<8 { ops.append(clockChange()) }
        for _ in 0..<40 { ops.append(newAnimation()) }
        var tree = try RenderTree().applying(ops, displayCount: 1)

        var time = 0.0
        var frames = 0
        var examined = 0
        while time < 12 {
            if random.below(7) == 0 {
                var commit: [LayerOperation] = []
                switch random.below(4) {
                case 0: commit.append(clockChange())
                case 1: commit.append(newAnimation())
                case 2:
                    if !attached.isEmpty {
                        let gone = attached.remove(at: random.below(attached.count))
                        commit.append(.removeAnimation(gone.layer, animationID: gone.id))
                    }
                default:
                    // Moves a layer under another of lower id (no cycles).
                    let id = LayerID(3 + random.below(layerCount - 2))
                    let old = parent[id]!
                    let new = LayerID(1 + random.below(Int(id) - 1))
                    if new != old {
                        children[old]!.removeAll { $0 == id }
                        children[new, default: []].append(id)
                        parent[id] = new
                        commit += [.setSublayers(old, children[old]!), .setSublayers(new, children[new]!)]
                    }
                }
                tree = try tree.applying(commit, displayCount: 1)
            }
            let reference = tree.walkingAdvancement(to: time)
            var found = tree.advancement(to: time)
            let events = tree.apply(&found)
            let context = "seed \(seed), t = \(time)"
            #expect(
                events.map { "\($0.animationID) \($0.kind)" }.sorted() == reference.events.sorted(), "\(context)")
            #expect(found.running == reference.running, "\(context)")
            // The running animations counted per layer as they change are those of the items.
            var counts: [LayerID: Int] = [:]
            for item in tree.schedule.items.values where item.counted { counts[item.layer, default: 0] += 1 }
            #expect(tree.schedule.runningByLayer == counts, "\(context)")
            if !reference.running, let wake = reference.nextStart {
                #expect((found.nextStart ?? .infinity) <= wake + 1e-9, "\(context)")
            }
            examined += found.animationsExamined
            frames += 1
            time += pick([1.0 / 60, 1.0 / 60, 0.1, 0.35])
        }
        // Looking at every animation every frame would be 40+ per frame.
        #expect(examined < frames * 40 / 2, "seed \(seed): \(examined) looks in \(frames) frames")
    }
}

extension RenderTree {
    /// The bookkeeping before the schedule, kept as the reference: every animation of every animated
    /// layer looked at each frame; events as "id kind" strings.
    func walkingAdvancement(to time: Double) -> (events: [String], running: Bool, nextStart: Double?) {
        var events: [String] = []
        var running = false
        var nextStart: Double?
        for id in animatedLayers {
            guard let layer = layers[id] else { continue }
            let clock = localTime(of: id, at: time)
            if clock.rate != 0, layer.isEmitting { running = true }
            for animation in layer.animations {
                let phase = animation.record.phase(atParent: clock.time)
                let state = reported[animation.id] ?? .notStarted
                if phase != .pending && state == .notStarted { events.append("\(animation.id) started") }
                if phase == .finished && state != .finished {
                    let kind: AnimationEvent.Kind =
                        animation.record.isRemovedOnCompletion ? .finishedAndRemoved : .finished
                    events.append("\(animation.id) \(kind)")
                    if kind == .finishedAndRemoved { continue }
                }
                if phase == .active && clock.rate != 0 { running = true }
                let timing = animation.record.timing
                if phase == .pending, clock.rate * timing.speed > 0 {
                    let startLayerTime = timing.beginTime - timing.timeOffset / timing.speed
                    let start = time + (startLayerTime - clock.time) / clock.rate
                    if start.isFinite { nextStart = min(nextStart ?? start, max(start, time)) }
                }
            }
        }
        return (events, running, nextStart)
    }
}
