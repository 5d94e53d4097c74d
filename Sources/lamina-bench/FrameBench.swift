import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer

/// The retained-frame benchmark (issue 19, points 1, 2 and 6), CPU only: a full display-list build of
/// the 1,000-layer bench scene per layer; on 10,000 small layers, the build of a frame where one layer
/// moved (a commit each frame), of a frame where nothing changed, and the cost per animated layer
/// when 100 or all 10,000 of them run a position and an opacity animation. Builds go through
/// `RetainedDisplayList`, as laminad's frames do; every frame's list is dropped before the next, as the
/// frame worker's is once drawn.
enum FrameBench {
    static func rows(iterations: Int, width: Int, height: Int, row: (String, String) -> Void) throws {
        let n = max(iterations, 20)
        // `LAMINA_BENCH_FRAMES_CASE=animated:N` runs only the row of N animated layers (for profiling).
        if let only = ProcessInfo.processInfo.environment["LAMINA_BENCH_FRAMES_CASE"],
            only.hasPrefix("animated:"), let animated = Int(only.dropFirst("animated:".count))
        {
            return try animatedRows(animated, frames: n, width: width, height: height, row: row)
        }
        // The 1,000-layer bench scene, built whole.
        let scene = BenchScene.layers(count: 1000, width: width, height: height)
        let benchTree = try RenderTree().applying(
            Bench.operations(for: scene, width: width, height: height), displayCount: 1)
        // `LAMINA_BENCH_FRAMES_CASE=full` runs only the full builds (of the bench scene and of the
        // 10,000-layer grid), for profiling.
        let onlyFull = ProcessInfo.processInfo.environment["LAMINA_BENCH_FRAMES_CASE"] == "full"
        var instances = 0
        let full = SoftwareReference.medianMilliseconds(iterations: n) {
            instances =
                DisplayListBuilder.build(trees: [benchTree], display: 0, width: width, height: height)
                .instanceCount
        }
        var retainedFull = RetainedDisplayList()
        let fullRetained = SoftwareReference.medianMilliseconds(iterations: n) {
            var fresh = RetainedDisplayList()
            _ = fresh.build(trees: [benchTree], display: 0, width: width, height: height)
            retainedFull = fresh
        }
        _ = retainedFull
        row(
            "1,000-layer bench scene: full display-list build per layer (\(instances / 1000) instances each)",
            String(format: "%.0f ns (%.2f ms in all)", full * 1e6 / 1000, full))
        row(
            "1,000-layer bench scene: full build recorded for patching, per layer",
            String(format: "%.0f ns (%.2f ms in all)", fullRetained * 1e6 / 1000, fullRetained))

        // The bench scene with one of its layers moved by a commit each frame (it overlaps others).
        if !onlyFull {
            var tree = benchTree
            var retained = RetainedDisplayList()
            _ = retained.build(trees: [tree], display: 0, width: width, height: height)
            var trees: [RenderTree] = []
            for i in 0...(n + 1) {
                tree = try tree.applying(
                    [.set(500, .position(CGPoint(x: 100 + Double(i % 50), y: Double(height) / 2)))], displayCount: 1)
                trees.append(tree)
            }
            var step = 0
            var kinds: [RetainedDisplayList.Build: Int] = [:]
            var reasons: Set<String> = []
            var visited = 0
            let moved = SoftwareReference.medianMilliseconds(iterations: n) {
                visited = retained.build(trees: [trees[step]], display: 0, width: width, height: height).layersVisited
                kinds[retained.lastBuild, default: 0] += 1
                if retained.lastBuild == .full { reasons.insert(retained.lastFullReason) }
                step += 1
            }
            row(
                "1,000-layer bench scene, one layer moved by a commit each frame: build",
                String(
                    format: "%.3f ms, %d layers visited (%d patched, %d spliced, %d full%@)", moved, visited,
                    kinds[.patched] ?? 0, kinds[.spliced] ?? 0, kinds[.full] ?? 0,
                    reasons.isEmpty ? "" : ": " + reasons.sorted().joined(separator: ", ")))
        }

        // 10,000 layers: built whole, then one moving.
        var tree = try grid(width: width, height: height, animated: 0)
        let gridTree = tree
        let gridFull = SoftwareReference.medianMilliseconds(iterations: max(n / 4, 5)) {
            var fresh = RetainedDisplayList()
            _ = fresh.build(trees: [gridTree], display: 0, width: width, height: height)
        }
        row(
            "10,000 layers: full build",
            String(format: "%.2f ms (%.0f ns per layer)", gridFull, gridFull * 1e6 / 10_001))
        if onlyFull { return }
        var retained = RetainedDisplayList()
        _ = retained.build(trees: [tree], display: 0, width: width, height: height)
        var visited: [Int] = []
        var kinds: [RetainedDisplayList.Build] = []
        var step = 0
        var commits: [RenderTree] = []
        for i in 0...(n + 1) {
            tree = try tree.applying(
                [.set(5_002, .position(CGPoint(x: 20 + Double(i % 200), y: Double(height) / 2)))], displayCount: 1)
            commits.append(tree)
        }
        let moving = SoftwareReference.medianMilliseconds(iterations: n) {
            let list = retained.build(trees: [commits[step]], display: 0, width: width, height: height)
            visited.append(list.layersVisited)
            kinds.append(retained.lastBuild)
            step += 1
        }
        row(
            "10,000 layers, one moved by a commit each frame: build",
            String(
                format: "%.1f µs, %d layers visited (%@); %.4f of the full build", moving * 1000, visited.max() ?? -1,
                kinds.allSatisfy { $0 == .patched } ? "every frame patched" : "\(kinds)", moving / gridFull))
        // The same with the damage found as the frame worker finds it.
        var tracker = DamageTracker()
        var damaged: [Int] = []
        step = 0
        var moves: [RenderTree] = []
        for i in 0...(n + 1) {
            tree = try tree.applying(
                [.set(5_002, .position(CGPoint(x: 300 + Double(i % 200), y: Double(height) / 3)))], displayCount: 1)
            moves.append(tree)
        }
        var first = retained.build(trees: [moves[0]], display: 0, width: width, height: height)
        first.damage = tracker.damage(of: first)
        let withDamage = SoftwareReference.medianMilliseconds(iterations: n) {
            step += 1
            var list = retained.build(trees: [moves[step]], display: 0, width: width, height: height)
            list.damage = tracker.damage(of: list, patch: retained.lastChanged, before: retained.lastReplaced)
            damaged.append(list.pixelsToDraw)
        }
        row(
            "10,000 layers, one moved by a commit each frame: build + damage (as the frame worker does)",
            String(format: "%.1f µs, %d pixels to draw", withDamage * 1000, damaged.sorted()[damaged.count / 2]))
        visited = []
        _ = retained.build(trees: [tree], display: 0, width: width, height: height)
        let still = SoftwareReference.medianMilliseconds(iterations: n) {
            visited.append(retained.build(trees: [tree], display: 0, width: width, height: height).layersVisited)
        }
        row(
            "10,000 layers, nothing changed: build",
            String(
                format: "%.2f µs, %d layers visited (%@)", still * 1000, visited.max() ?? -1, "\(retained.lastBuild)"))

        // A commit applied while the tree before it is still held, as the server's trees are held by
        // frames in flight: what applying it copies.
        var held: [RenderTree] = []
        held.reserveCapacity(n + 2)
        var applied = tree
        let apply = SoftwareReference.medianMilliseconds(iterations: n) {
            held.append(applied)
            applied = try! applied.applying(
                [.set(5_002, .position(CGPoint(x: 40 + Double(held.count % 200), y: Double(height) / 4)))],
                displayCount: 1)
        }
        held.removeAll()
        row(
            "10,000 layers: applying a commit that moves one layer, the tree before still held",
            String(format: "%.1f µs", apply * 1000))

        // A commit that adds a sublayer to one of 10,000 layers: the hierarchy checked from what it
        // changed (the server's path) and over every layer (the full check), in turns on the same
        // tree, the tree before still held. The sublayer is a new layer (the commit also copies the
        // tree's id index, as every commit that creates a layer does) or one made beforehand.
        var grown = try applied.applying((0..<n).map { .createLayer(LayerID(30_000 + $0)) }, displayCount: 1)
        for made in [false, true] {
            var times: (incremental: [Double], full: [Double]) = ([], [])
            var visits = (incremental: 0, full: 0)
            for i in 0..<n {
                let child = LayerID(made ? 30_000 + i : 20_000 + i)
                let parent = LayerID(made ? 5_002 + i : 2 + i)
                let ops: [LayerOperation] = (made ? [] : [.createLayer(child)]) + [.setSublayers(parent, [child])]
                var next = grown
                for mode in i % 2 == 0 ? [RenderTree.RelinkMode.automatic, .full] : [.full, .automatic] {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let result = try grown.applying(ops, displayCount: 1, relink: mode)
                    let time = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3
                    if mode == .full {
                        times.full.append(time)
                        visits.full = result.lastRelink.visits
                    } else {
                        times.incremental.append(time)
                        visits.incremental = result.lastRelink.incremental ? result.lastRelink.visits : -1
                        next = result
                    }
                }
                held.append(grown)
                grown = next
            }
            held.removeAll()
            let (incremental, fullCheck) = (median(times.incremental), median(times.full))
            row(
                "10,000 layers: applying a commit that adds \(made ? "an existing" : "a new") layer as a sublayer of one: incremental / full check",
                String(
                    format: "%.1f / %.1f µs (%.1f×; %d / %d layers read)", incremental, fullCheck,
                    fullCheck / incremental, visits.incremental, visits.full))
        }

        // Animated layers: the build (sampling, transforms, instances), the animation bookkeeping and
        // the damage, per animated layer.
        for animated in [100, 10_000] {
            try animatedRows(animated, frames: n, width: width, height: height, row: row)
        }
    }

    /// The rows of `animated` layers of 10,000 with a position and an opacity animation each, over
    /// `frames` frames.
    static func animatedRows(
        _ animated: Int, frames n: Int, width: Int, height: Int, row: (String, String) -> Void
    ) throws {
        var tree = try grid(width: width, height: height, animated: animated)
        var retained = RetainedDisplayList()
        var tracker = DamageTracker()
        var frame = 0
        var builds: [Double] = []
        var advances: [Double] = []
        var damages: [Double] = []
        var kinds: [RetainedDisplayList.Build: Int] = [:]
        var reasons: Set<String> = []
        for _ in 0...n {
            frame += 1
            let time = 100 + Double(frame) / 60
            let t0 = SoftwareReference.monotonicSeconds()
            var list = retained.build(trees: [tree], display: 0, width: width, height: height, time: time)
            let t1 = SoftwareReference.monotonicSeconds()
            var advancement = tree.advancement(to: time)
            _ = tree.apply(&advancement)
            let t2 = SoftwareReference.monotonicSeconds()
            // The frame worker's call: a patched frame's damage comes from the instances it rewrote.
            list.damage = tracker.damage(of: list, patch: retained.lastChanged, before: retained.lastReplaced)
            let t3 = SoftwareReference.monotonicSeconds()
            guard frame > 1 else { continue }
            builds.append((t1 - t0) * 1000)
            advances.append((t2 - t1) * 1000)
            damages.append((t3 - t2) * 1000)
            kinds[retained.lastBuild, default: 0] += 1
            if retained.lastBuild == .full { reasons.insert(retained.lastFullReason) }
        }
        let (b, a, d) = (median(builds), median(advances), median(damages))
        row(
            "10,000 layers, \(animated) with a position and an opacity animation: build / bookkeeping / damage per frame",
            String(
                format: "%.3f / %.3f / %.3f ms (%d patched, %d spliced, %d full%@)", b, a, d,
                kinds[.patched] ?? 0, kinds[.spliced] ?? 0, kinds[.full] ?? 0,
                reasons.isEmpty ? "" : ": " + reasons.sorted().joined(separator: ", ")))
        row(
            "10,000 layers, \(animated) animated: per animated layer (build + bookkeeping; with damage)",
            String(
                format: "%.0f ns; %.0f ns", (b + a) * 1e6 / Double(animated), (b + a + d) * 1e6 / Double(animated)))
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// 10,000 opaque 8×4 layers on a 100×100 grid of whole pixels over `width`×`height`, the first
    /// `animated` of them with an opacity and an eased position animation each (phases spread).
    static func grid(width: Int, height: Int, animated: Int) throws -> RenderTree {
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: width, height: height))),
            .set(1, .position(CGPoint(x: Double(width) / 2, y: Double(height) / 2))),
        ]
        var children: [LayerID] = []
        let w = Double(min(8, max(1, width / 100 - 1))), h = Double(min(4, max(1, height / 100 - 1)))
        for i in 0..<10_000 {
            let id = LayerID(i + 2)
            children.append(id)
            let x = Double((i % 100) * width / 100) + w / 2, y = Double((i / 100) * height / 100) + h / 2
            ops += [
                .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: w, height: h))),
                .set(id, .position(CGPoint(x: x, y: y))),
                .set(id, .backgroundColor(RGBAColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1))),
            ]
            guard i < animated else { continue }
            let phase = Double(i % 97) / 97
            let fade = AnimationRecord(
                timing: MediaTiming(beginTime: -phase, duration: 1, repeatCount: .infinity, autoreverses: true),
                content: .basic(
                    PropertyTarget(keyPath: LayerKeyPath("opacity")!), BasicValues(from: .number(1), to: .number(0.2))))
            let move = AnimationRecord(
                timing: MediaTiming(beginTime: -phase, duration: 2, repeatCount: .infinity, autoreverses: true),
                timingFunction: AnimationBench.eased,
                content: .basic(
                    PropertyTarget(keyPath: LayerKeyPath("position")!),
                    BasicValues(from: .point(CGPoint(x: x - 3, y: y)), to: .point(CGPoint(x: x + 3, y: y)))))
            ops += [
                .addAnimation(id, AttachedAnimation(id: UInt64(2 * i + 1), key: "fade", record: fade)),
                .addAnimation(id, AttachedAnimation(id: UInt64(2 * i + 2), key: "move", record: move)),
            ]
        }
        return try RenderTree().applying(
            ops + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)], displayCount: 1)
    }
}
