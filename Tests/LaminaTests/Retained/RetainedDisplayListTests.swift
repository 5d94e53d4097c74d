import Foundation
import LaminaCore
import LaminaProtocol
import Testing

@testable import LaminaServer

/// Retained display lists (issue 19, point 1) by their counters: a frame draws only the subtrees that
/// changed or are animated, a frame where nothing changed draws nothing, a subtree whose instances
/// changed in number or kind is spliced in, and what cannot be patched is built in full. Times are never asserted; `RetainedEquivalenceTests` compares the lists and
/// pixels with full builds.
struct RetainedDisplayListTests {
    static let width = 1280
    static let height = 720

    /// A root (layer 1) with `count` sublayers (ids 2...) of 8×4 opaque pixels on a grid, each
    /// `children` sublayers deep in sublayers of its own when `children` > 0.
    static func grid(count: Int, children: Int = 0) throws -> RenderTree {
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: width, height: height))),
            .set(1, .position(CGPoint(x: width / 2, y: height / 2))),
        ]
        var ids: [LayerID] = []
        var next = LayerID(count + 2)
        for i in 0..<count {
            let id = LayerID(i + 2)
            ids.append(id)
            ops += [
                .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: 8, height: 4))),
                .set(id, .position(CGPoint(x: Double(i % 100) * 12 + 6, y: Double(i / 100) * 7 + 4))),
                .set(id, .backgroundColor(RGBAColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1))),
            ]
            var subs: [LayerID] = []
            for _ in 0..<children {
                ops += [
                    .createLayer(next), .set(next, .bounds(CGRect(x: 0, y: 0, width: 2, height: 2))),
                    .set(next, .position(CGPoint(x: 2, y: 2))),
                    .set(next, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))),
                ]
                subs.append(next)
                next += 1
            }
            if !subs.isEmpty { ops.append(.setSublayers(id, subs)) }
        }
        return try RenderTree().applying(
            ops + [.setSublayers(1, ids), .setRoot(display: 0, layer: 1)], displayCount: 1)
    }

    static func build(_ retained: inout RetainedDisplayList, _ tree: RenderTree, time: Double = 0) -> DisplayList {
        retained.build(trees: [tree], display: 0, width: width, height: height, time: time)
    }

    static func full(_ tree: RenderTree, time: Double = 0) -> DisplayList {
        DisplayListBuilder.build(trees: [tree], display: 0, width: width, height: height, time: time)
    }

    @Test func oneMovingLayerAmongAThousandVisitsOnlyItself() throws {
        var tree = try Self.grid(count: 1000)
        var retained = RetainedDisplayList()
        let first = Self.build(&retained, tree)
        #expect(retained.lastBuild == .full)
        #expect(first.layersVisited == 1001)
        for step in 1...5 {
            tree = try tree.applying([.set(500, .position(CGPoint(x: 100 + Double(step), y: 300)))], displayCount: 1)
            let list = Self.build(&retained, tree)
            #expect(retained.lastBuild == .patched, "\(retained.lastFullReason)")
            #expect(list.layersVisited == 1)
            #expect(list.emitted == Self.full(tree).emitted)
        }
    }

    @Test func aFrameWhereNothingChangedDrawsNothing() throws {
        let tree = try Self.grid(count: 1000)
        var retained = RetainedDisplayList()
        let first = Self.build(&retained, tree)
        let second = Self.build(&retained, tree, time: 1)
        #expect(retained.lastBuild == .unchanged)
        #expect(second.layersVisited == 0)
        #expect(second.emitted == first.emitted)
        // A commit that changes a layer on no display draws nothing either.
        let other = try tree.applying(
            [.createLayer(50_000), .set(50_000, .position(CGPoint(x: 3, y: 3)))], displayCount: 1)
        let third = Self.build(&retained, other, time: 2)
        #expect(retained.lastBuild == .unchanged)
        #expect(third.layersVisited == 0)
    }

    @Test func aChangedLayerDrawsItsSubtreeAgain() throws {
        var tree = try Self.grid(count: 100, children: 3)
        var retained = RetainedDisplayList()
        #expect(Self.build(&retained, tree).layersVisited == 1 + 100 * 4)
        tree = try tree.applying([.set(7, .position(CGPoint(x: 400, y: 400)))], displayCount: 1)
        let list = Self.build(&retained, tree)
        #expect(retained.lastBuild == .patched, "\(retained.lastFullReason)")
        #expect(list.layersVisited == 4)
        #expect(list.emitted == Self.full(tree).emitted)
        // A sublayer alone: only itself.
        tree = try tree.applying(
            [.set(105, .backgroundColor(RGBAColor(red: 0, green: 1, blue: 0, alpha: 1)))], displayCount: 1)
        #expect(Self.build(&retained, tree).layersVisited == 1)
    }

    @Test func animatedLayersAreDrawnEveryFrameAndOnceMoreWhenTheyEnd() throws {
        var tree = try Self.grid(count: 1000)
        var retained = RetainedDisplayList()
        _ = Self.build(&retained, tree)
        // Down the display below the grid: a moving layer's piece is batched after the still layers
        // emitted before it, so crossing one emitted after it (in an earlier batch) would splice the
        // frame for draw order (`aLayerMovingOverOthersIsPatchedOnlyWhileTheBatchesStayInOrder`).
        let move = AnimationRecord(
            timing: MediaTiming(beginTime: 0, duration: 1),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("position.y")!),
                BasicValues(from: .number(100), to: .number(690))))
        tree = try tree.applying(
            [
                .addAnimation(20, AttachedAnimation(id: 1, key: "a", record: move)),
                .addAnimation(30, AttachedAnimation(id: 2, key: "a", record: move)),
            ], displayCount: 1)
        for frame in 1...4 {
            let time = Double(frame) / 10
            let list = Self.build(&retained, tree, time: time)
            // A layer that starts to move is cut into the pieces it keeps while it moves
            // (`stablePieces`): the first frame splices them in, the next ones write over them.
            #expect(retained.lastBuild == (frame == 1 ? .spliced : .patched), "\(retained.lastFullReason)")
            #expect(list.layersVisited == 2)
            #expect(list.emitted == Self.full(tree, time: time).emitted)
        }
        // The animations end and are removed: the layers are drawn once more at their model values.
        var advancement = tree.advancement(to: 2)
        _ = tree.apply(&advancement)
        #expect(tree.animatedLayers.isEmpty)
        let ended = Self.build(&retained, tree, time: 2)
        #expect(ended.layersVisited == 2)
        #expect(ended.emitted == Self.full(tree, time: 2).emitted)
        #expect(Self.build(&retained, tree, time: 3).layersVisited == 0)
    }

    /// Two trees (two clients) whose layers have the same ids, drawn into one display: the dirty
    /// roots of both are drawn again in one frame, and what each layer hands its sublayers is kept
    /// per tree, so that a later change under layer 20 of the first tree is drawn in the context of
    /// that tree's layer 20, not of the other tree's (which an animation moves elsewhere). Every
    /// frame is the full build's, instance for instance.
    @Test func theDirtyLayersOfTwoTreesWithTheSameIdsArePatchedApart() throws {
        var a = try Self.grid(count: 200, children: 1)
        var b = try Self.grid(count: 200, children: 1)
        // Layer 20 is sublayer 18 of the root: its own sublayer is 200 + 2 + 18.
        let child: LayerID = 220
        let move = AnimationRecord(
            timing: MediaTiming(beginTime: 0, duration: 10),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("position.y")!),
                BasicValues(from: .number(300), to: .number(600))))
        b = try b.applying([.addAnimation(20, AttachedAnimation(id: 1, key: "a", record: move))], displayCount: 1)
        var retained = RetainedDisplayList()
        func frame(_ time: Double) -> (DisplayList, DisplayList) {
            let list = retained.build(trees: [a, b], display: 0, width: Self.width, height: Self.height, time: time)
            let full = DisplayListBuilder.build(
                trees: [a, b], display: 0, width: Self.width, height: Self.height, time: time)
            return (list, full)
        }
        _ = frame(0)
        for step in 1...6 {
            let time = Double(step) / 10
            switch step {
            case 2: a = try a.applying([.set(20, .position(CGPoint(x: 500, y: 100)))], displayCount: 1)
            case 4:
                a = try a.applying(
                    [.set(child, .backgroundColor(RGBAColor(red: 0, green: 1, blue: 0, alpha: 1)))], displayCount: 1)
            case 5:
                a = try a.applying([.set(child, .position(CGPoint(x: 5, y: 3)))], displayCount: 1)
                b = try b.applying([.set(child, .position(CGPoint(x: 4, y: 1)))], displayCount: 1)
            default: break
            }
            let (list, full) = frame(time)
            #expect(retained.lastBuild != .full, "step \(step): \(retained.lastFullReason)")
            // Tree b's layer 20 (with its sublayer) moves every frame; a's changed layers are drawn in
            // the same frames (b's sublayer 220 at step 5 with its superlayer).
            #expect(list.layersVisited == (step == 2 ? 4 : step == 4 || step == 5 ? 3 : 2), "step \(step)")
            let sameEmitted = list.emitted == full.emitted
            let sameInstances = list.instances == full.instances
            #expect(sameEmitted && sameInstances, "step \(step) (\(retained.lastBuild))")
        }
    }

    /// A layer an animation moves across a pixel, through fractional and whole positions, keeps the
    /// number and kinds of its pieces (`stablePieces`: an edge on a pixel boundary leaves an empty
    /// piece where a fractional edge has a partly covered one), so that every frame after its first
    /// writes over its pieces in place; each list is the one a full build makes.
    @Test func aLayerMovingAcrossPixelsIsWrittenOverInPlace() throws {
        var tree = try Self.grid(count: 1000)
        var retained = RetainedDisplayList()
        _ = Self.build(&retained, tree)
        let move = AnimationRecord(
            timing: MediaTiming(beginTime: 0, duration: 2),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("position")!),
                BasicValues(from: .point(CGPoint(x: 6, y: 4)), to: .point(CGPoint(x: 8, y: 6)))))
        tree = try tree.applying([.addAnimation(2, AttachedAnimation(id: 1, key: "a", record: move))], displayCount: 1)
        // Centres (6.25, 4.25), (6.5, 4.5), ..., (7.75, 5.75): whole pixels at frame 4, fractions
        // at the others.
        for frame in 1...7 {
            let time = Double(frame) / 4
            let list = Self.build(&retained, tree, time: time)
            #expect(retained.lastBuild == (frame == 1 ? .spliced : .patched), "frame \(frame)")
            #expect(list.layersVisited == 1)
            #expect(list.emitted == Self.full(tree, time: time).emitted, "frame \(frame)")
        }
    }

    /// Only layers whose animations run (or change phase) are drawn again: layer 20's animation ends
    /// at t = 1 and is held (`isRemovedOnCompletion` false, `fillMode` forwards, as Apple's
    /// CAMediaTiming documents the hold), layer 30's waits until t = 5, layer 40's repeats forever.
    /// After each frame the bookkeeping advances to its time, as the server does.
    @Test func layersWhoseAnimationsWaitOrAreHeldAreNotDrawnAgain() throws {
        var tree = try Self.grid(count: 1000)
        var retained = RetainedDisplayList()
        _ = Self.build(&retained, tree)
        func move(begin: Double, repeats: Double = 0, fill: CAMediaTimingFillMode = .removed) -> AnimationRecord {
            AnimationRecord(
                timing: MediaTiming(beginTime: begin, duration: 1, repeatCount: repeats, fillMode: fill),
                isRemovedOnCompletion: false,
                content: .basic(
                    PropertyTarget(keyPath: LayerKeyPath("position.y")!),
                    BasicValues(from: .number(100), to: .number(690))))
        }
        tree = try tree.applying(
            [
                .addAnimation(20, AttachedAnimation(id: 1, key: "a", record: move(begin: 0, fill: .forwards))),
                .addAnimation(30, AttachedAnimation(id: 2, key: "a", record: move(begin: 5))),
                .addAnimation(40, AttachedAnimation(id: 3, key: "a", record: move(begin: 0, repeats: .infinity))),
            ], displayCount: 1)
        // New animations are looked at first, and a layer animating in one frame is drawn in the
        // next too; 20 is drawn once more after it ends (the frame after its end logs it), then only
        // 40 until 30 starts.
        let expected: [(time: Double, visited: Int)] = [
            (0.1, 3), (0.5, 3), (1.5, 2), (2, 2), (2.5, 1), (3, 1), (5, 2), (5.5, 2),
        ]
        for (time, visited) in expected {
            let list = Self.build(&retained, tree, time: time)
            // The animated layers' first frame splices in the pieces they keep while they move.
            #expect(
                retained.lastBuild == (time == 0.1 ? .spliced : .patched), "t = \(time): \(retained.lastFullReason)")
            #expect(list.layersVisited == visited, "t = \(time)")
            #expect(list.emitted == Self.full(tree, time: time).emitted, "t = \(time)")
            var advancement = tree.advancement(to: time)
            _ = tree.apply(&advancement)
        }
        #expect(tree.animatedLayers == [20, 30, 40])
    }

    @Test func otherInstancesAreSplicedInAndOtherScenesBuiltInFull() throws {
        var tree = try Self.grid(count: 200)
        var retained = RetainedDisplayList()
        _ = Self.build(&retained, tree)
        // Another size.
        _ = retained.build(trees: [tree], display: 0, width: 640, height: 480)
        #expect(retained.lastBuild == .full)
        _ = Self.build(&retained, tree)
        #expect(retained.lastBuild == .full)
        // A layer that emits more instances (a border) than before: spliced in, batches placed again.
        tree = try tree.applying(
            [.set(9, .borderWidth(1)), .set(9, .borderColor(RGBAColor(red: 0, green: 0, blue: 0, alpha: 1)))],
            displayCount: 1)
        var list = Self.build(&retained, tree)
        #expect(retained.lastBuild == .spliced)
        #expect(list.layersVisited == 1)
        #expect(list.emitted == Self.full(tree).emitted && list.batches == Self.full(tree).batches)
        // Another layer under the root: drawn in the context recorded before the splice.
        tree = try tree.applying([.set(150, .position(CGPoint(x: 600, y: 300)))], displayCount: 1)
        list = Self.build(&retained, tree)
        #expect(retained.lastBuild == .patched)
        #expect(list.emitted == Self.full(tree).emitted)
        // A layer drawn no more (hidden): the root's other sublayers are not drawn again.
        tree = try tree.applying([.set(9, .isHidden(true))], displayCount: 1)
        list = Self.build(&retained, tree)
        #expect(retained.lastBuild == .spliced)
        #expect(list.layersVisited == 1)
        #expect(list.emitted == Self.full(tree).emitted && list.batches == Self.full(tree).batches)
        // Another tree.
        _ = retained.build(trees: [try Self.grid(count: 200)], display: 0, width: Self.width, height: Self.height)
        #expect(retained.lastBuild == .full)
        _ = Self.build(&retained, tree)
        // More than a quarter of the layers changed.
        var ops: [LayerOperation] = []
        for id in 2..<100 { ops.append(.set(LayerID(id), .position(CGPoint(x: 5, y: Double(id))))) }
        tree = try tree.applying(ops, displayCount: 1)
        list = Self.build(&retained, tree)
        #expect(retained.lastBuild == .full)
        #expect(list.emitted == Self.full(tree).emitted)
    }

    @Test func aLayerMovingOverOthersIsPatchedOnlyWhileTheBatchesStayInOrder() throws {
        // Otherwise every instance is placed in batches again: the full build's batches. A blended
        // layer (2) is drawn before an opaque one (3), in a later batch since they do not overlap.
        var tree = try RenderTree().applying(
            [
                .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: 200, height: 100))),
                .set(1, .position(CGPoint(x: 100, y: 50))),
                .createLayer(2), .set(2, .bounds(CGRect(x: 0, y: 0, width: 40, height: 40))),
                .set(2, .position(CGPoint(x: 30, y: 30))),
                .set(2, .backgroundColor(RGBAColor(red: 0, green: 0, blue: 1, alpha: 0.5))),
                .createLayer(3), .set(3, .bounds(CGRect(x: 0, y: 0, width: 40, height: 40))),
                .set(3, .position(CGPoint(x: 150, y: 50))),
                .set(3, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))),
                .setSublayers(1, [2, 3]), .setRoot(display: 0, layer: 1),
            ], displayCount: 1)
        var retained = RetainedDisplayList()
        _ = retained.build(trees: [tree], display: 0, width: 200, height: 100)
        // Layer 2 (blended, drawn first) moves within empty space: patched.
        tree = try tree.applying([.set(2, .position(CGPoint(x: 40, y: 40)))], displayCount: 1)
        _ = retained.build(trees: [tree], display: 0, width: 200, height: 100)
        #expect(retained.lastBuild == .patched, "\(retained.lastFullReason)")
        // Layer 3 (opaque, batch 0 before the blended batch) moves under layer 2: its batch would be
        // drawn before the blended one it must cover, so every instance is placed again.
        tree = try tree.applying([.set(3, .position(CGPoint(x: 45, y: 45)))], displayCount: 1)
        let list = retained.build(trees: [tree], display: 0, width: 200, height: 100)
        #expect(retained.lastBuild == .spliced)
        #expect(list.layersVisited == 1)
        #expect(list.batches == DisplayListBuilder.build(trees: [tree], display: 0, width: 200, height: 100).batches)
    }
}
