import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan

/// The damage benchmark (issue 19, point 3): a 50×50 layer moving over the static 1,000-layer scene at
/// `width`×`height`, drawn whole and drawn only where it changed (each into its own target), frame
/// after frame in turns so both see the same machine; the pixels drawn; and what finding the damage
/// costs when everything changed (every layer's opacity animated), against the frame it saves nothing on.
enum DamageBench {
    static func rows(
        renderer: VulkanRenderer, iterations: Int, width: Int, height: Int, row: (String, String) -> Void
    ) throws {
        let mover: LayerID = 100_000
        let sweep = AnimationRecord(
            timing: MediaTiming(beginTime: 0, duration: 10),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("position.x")!),
                BasicValues(from: .number(60), to: .number(Double(width - 60)))))
        let scene = BenchScene.layers(count: 1000, width: width, height: height)
        var operations = Bench.operations(for: scene, width: width, height: height)
        operations.removeLast(2)
        operations += [
            .createLayer(mover), .set(mover, .bounds(CGRect(x: 0, y: 0, width: 50, height: 50))),
            .set(mover, .position(CGPoint(x: 60, y: Double(height) / 2))),
            .set(mover, .backgroundColor(RGBAColor(red: 1, green: 0.2, blue: 0.1, alpha: 1))),
            .addAnimation(mover, AttachedAnimation(id: 1, key: "sweep", record: sweep)),
            .setSublayers(1, (0..<scene.count).map { LayerID($0 + 2) } + [mover]), .setRoot(display: 0, layer: 1),
        ]
        let tree = try RenderTree().applying(operations, displayCount: 1)
        func list(at time: Double) -> DisplayList {
            DisplayListBuilder.build(
                trees: [tree], display: 0, width: width, height: height, clearColor: SIMD4(0, 0, 0, 1), time: time)
        }
        let whole = try renderer.makeTarget(width: width, height: height)
        let partial = try renderer.makeTarget(width: width, height: height)
        var tracker = DamageTracker()
        // The first frame of each target is drawn whole.
        var first = list(at: 0)
        first.damage = tracker.damage(of: first)
        try renderer.render(first, into: whole)
        try renderer.render(first, into: partial)
        try renderer.waitForAllFrames()
        var wholeTimes: [Double] = []
        var partialTimes: [Double] = []
        var trackTimes: [Double] = []
        var drawn: [Int] = []
        for frame in 1...max(iterations, 20) {
            let time = Double(frame) / 60
            var next = list(at: time)
            let start = DispatchTime.now().uptimeNanoseconds
            next.damage = tracker.damage(of: next)
            trackTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            drawn.append(next.pixelsToDraw)
            var full = next
            full.damage = nil
            wholeTimes.append(try timed(renderer) { try renderer.render(full, into: whole) })
            partialTimes.append(try timed(renderer) { try renderer.render(next, into: partial) })
        }
        let equal = try renderer.readPixels(whole).pixels == renderer.readPixels(partial).pixels
        let (w, p) = (median(wholeTimes), median(partialTimes))
        let size = "\(width)×\(height)"
        row(
            "damage \(size): 50×50 layer moving over 1,000 layers, frame drawn whole / only the damage (ms)",
            String(format: "%.2f / %.2f (%.1f %%)", w, p, 100 * p / w))
        // The mover's old and new places, each 50×50 with a pixel of margin, cover at most 2 × 52 × 52.
        row(
            "damage \(size): pixels drawn per frame (median) / display / the mover's two places",
            "\(drawn.sorted()[drawn.count / 2]) / \(width * height) / \(2 * 52 * 52)")
        row("damage \(size): the last frames of both targets are the same bytes", equal ? "yes" : "NO")
        row(
            "damage \(size): finding the damage, 1,001 instances, one moving (ms)",
            String(format: "%.3f", median(trackTimes)))

        // Everything changes: finding that out is the cost tracking adds to a frame drawn whole anyway.
        let fading = AnimationRecord(
            timing: MediaTiming(beginTime: 0, duration: 10),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("opacity")!), BasicValues(from: .number(0.2), to: .number(1))))
        let fadingTree = try tree.applying(
            (0..<scene.count).map {
                .addAnimation(LayerID($0 + 2), AttachedAnimation(id: UInt64($0 + 2), key: "fade", record: fading))
            },
            displayCount: 1)
        var allTracker = DamageTracker()
        var allTrack: [Double] = []
        var allFull: [Double] = []
        for frame in 0...max(iterations, 20) {
            var next = DisplayListBuilder.build(
                trees: [fadingTree], display: 0, width: width, height: height, clearColor: SIMD4(0, 0, 0, 1),
                time: Double(frame) / 60)
            let start = DispatchTime.now().uptimeNanoseconds
            next.damage = allTracker.damage(of: next)
            if frame > 0 { allTrack.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
            if frame > 0 { allFull.append(try timed(renderer) { try renderer.render(next, into: whole) }) }
        }
        row(
            "damage \(size): every layer fading, finding the damage / the whole frame it then draws (ms)",
            String(
                format: "%.3f / %.2f (%.1f %%)", median(allTrack), median(allFull),
                100 * median(allTrack) / median(allFull)))
    }

    /// Milliseconds of `body` and the GPU work it submitted.
    static func timed(_ renderer: VulkanRenderer, _ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        try renderer.waitForAllFrames()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
