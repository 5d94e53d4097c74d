import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan

/// Animation costs: evaluating one animated property for one frame, by kind of animation, and the
/// frame of 10,000 layers that each run a position and an opacity animation.
enum AnimationBench {
    /// One kind of animation for the per-property table.
    struct Case {
        let name: String
        let record: AnimationRecord
    }

    static let timing = MediaTiming(duration: 2, repeatCount: .infinity, autoreverses: true)
    static let eased = TimingCurve(CAMediaTimingFunction(name: .easeInEaseOut))

    static func basic(_ path: String, from: AnimationValue, to: AnimationValue, additive: Bool = false)
        -> AnimationRecord
    {
        AnimationRecord(
            timing: timing, timingFunction: eased,
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath(path)!, isAdditive: additive),
                BasicValues(from: from, to: to)))
    }

    /// The cases to measure: every case, or, when the environment variable
    /// `LAMINA_BENCH_ANIMATION_CASE` is set, those whose names contain it (to profile one kind alone).
    static var selectedCases: [Case] {
        guard let filter = ProcessInfo.processInfo.environment["LAMINA_BENCH_ANIMATION_CASE"] else { return cases }
        return cases.filter { $0.name.contains(filter) }
    }

    static var cases: [Case] {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 74, y: 74))
        path.addCurve(to: CGPoint(x: 320, y: 74), control1: CGPoint(x: 74, y: 500), control2: CGPoint(x: 320, y: 500))
        path.addCurve(to: CGPoint(x: 566, y: 74), control1: CGPoint(x: 320, y: 500), control2: CGPoint(x: 566, y: 500))
        let rotation = CATransform3DMakeRotation(.pi / 3, 0.3, 1, 0.2)
        let scaled = CATransform3DScale(CATransform3DMakeTranslation(40, -20, 0), 1.5, 0.5, 1)
        let colors: [AnimationValue] = [
            .color(RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)),
            .color(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)),
            .color(RGBAColor(red: 0, green: 1, blue: 0, alpha: 1)),
        ]
        return [
            Case(name: "opacity (number)", record: basic("opacity", from: .number(1), to: .number(0))),
            Case(
                name: "position (point)",
                record: basic(
                    "position", from: .point(CGPoint(x: 10, y: 10)),
                    to: .point(CGPoint(x: 300, y: 200)))),
            Case(
                name: "bounds (rect)",
                record: basic(
                    "bounds", from: .rect(CGRect(x: 0, y: 0, width: 10, height: 10)),
                    to: .rect(CGRect(x: 0, y: 0, width: 200, height: 80)))),
            Case(name: "backgroundColor (colour)", record: basic("backgroundColor", from: colors[0], to: colors[1])),
            Case(
                name: "transform (matrix, decomposed)",
                record: basic("transform", from: .transform(rotation), to: .transform(scaled))),
            Case(
                name: "transform.rotation.z (virtual component)",
                record: basic("transform.rotation.z", from: .number(0), to: .number(2 * .pi))),
            Case(
                name: "position.x, additive",
                record: basic("position.x", from: .number(-20), to: .number(20), additive: true)),
            Case(
                name: "spring (transform.scale)",
                record: AnimationRecord(
                    timing: MediaTiming(duration: 1.27, repeatCount: .infinity),
                    content: .spring(
                        PropertyTarget(keyPath: LayerKeyPath("transform.scale")!),
                        BasicValues(from: .number(0.5), to: .number(1)),
                        SpringParameters()))),
            Case(
                name: "keyframes, 3 colours, paced",
                record: AnimationRecord(
                    timing: timing,
                    content: .keyframe(
                        PropertyTarget(keyPath: LayerKeyPath("backgroundColor")!),
                        Keyframes(values: colors, calculationMode: .paced)))),
            Case(
                name: "keyframes, 2-curve path, rotateAuto",
                record: AnimationRecord(
                    timing: timing,
                    content: .keyframe(
                        PropertyTarget(keyPath: LayerKeyPath("position")!),
                        Keyframes(values: [], path: path, calculationMode: .paced, rotationMode: .rotateAuto)))),
        ]
    }

    /// Nanoseconds per evaluation of one animation on one layer, at a different time each call,
    /// through `LayerAnimator` as the renderer calls it. The median of `rounds` rounds of `count`
    /// evaluations. With no record, the same calls with no animation: what copying the layer's state
    /// into its presentation state costs, which every evaluation includes.
    static func evaluationCost(_ record: AnimationRecord?, rounds: Int, count: Int = 20_000) -> Double {
        var model = LayerState()
        model.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        model.position = CGPoint(x: 200, y: 200)
        model.backgroundColor = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
        let animations = record.map { [AttachedAnimation(id: 1, key: "a", record: $0)] } ?? []
        var sink = 0.0
        var times: [Double] = []
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            var transitions: [TransitionProgress] = []
            for i in 0..<count {
                let state = LayerAnimator.presentation(
                    of: model, animations: animations, layerTime: Double(i) * 0.000_37,
                    transitions: &transitions)
                sink +=
                    Double(state.opacity) + state.position.x + state.transform.m11 + state.bounds.width
                    + Double(state.backgroundColor?.red ?? 0)
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count))
        }
        if sink.isNaN { print("") }  // Keeps the work from being optimised away.
        return times.sorted()[times.count / 2]
    }

    /// Nanoseconds per evaluation of one animation on one layer applied in place to a presentation
    /// state the caller already holds (`LayerAnimator.apply`), at a different time each call: what one
    /// animated property adds to a frame. The copy of the layer's state into its presentation state
    /// that `evaluationCost` includes is left out: the display list builder makes that copy for every
    /// layer, animated or not. The median of `rounds` rounds of `count` evaluations; the state is reset
    /// to the model at the start of each round (an additive animation builds on its last value within
    /// a round, which changes the value written, not the work).
    static func inPlaceCost(_ record: AnimationRecord, rounds: Int, count: Int = 20_000) -> Double {
        var model = LayerState()
        model.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        model.position = CGPoint(x: 200, y: 200)
        model.backgroundColor = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
        let animations = [AttachedAnimation(id: 1, key: "a", record: record)]
        var sink = 0.0
        var times: [Double] = []
        var state = model
        for _ in 0..<rounds {
            state = model
            var transitions: [TransitionProgress] = []
            let start = DispatchTime.now().uptimeNanoseconds
            for i in 0..<count {
                LayerAnimator.apply(animations, to: &state, layerTime: Double(i) * 0.000_37, transitions: &transitions)
                sink +=
                    Double(state.opacity) + state.position.x + state.transform.m11 + state.bounds.width
                    + Double(state.backgroundColor?.red ?? 0)
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count))
        }
        if sink.isNaN { print("") }  // Keeps the work from being optimised away.
        return times.sorted()[times.count / 2]
    }

    /// 10,000 layers of 8×4 points on a 100×100 grid over the run's display size (1280×720 by default), each with an opacity and a
    /// position animation (the same scene without animations is the baseline).
    static func tenThousandLayers(animated: Bool) throws -> RenderTree {
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: BenchSize.width, height: BenchSize.height))),
            .set(1, .position(CGPoint(x: Double(BenchSize.width) / 2, y: Double(BenchSize.height) / 2))),
        ]
        var children: [LayerID] = []
        for i in 0..<10_000 {
            let id = LayerID(i + 2)
            children.append(id)
            let x = Double(i % 100) * Double(BenchSize.width) / 100 + 6
            let y = Double(i / 100) * Double(BenchSize.height) / 100 + 3.6
            ops += [
                .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: 8, height: 4))),
                .set(id, .position(CGPoint(x: x, y: y))),
                .set(id, .backgroundColor(RGBAColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1))),
            ]
            guard animated else { continue }
            // Different phases so the layers do not all show the same value.
            let phase = Double(i % 97) / 97
            let fade = AnimationRecord(
                timing: MediaTiming(beginTime: -phase, duration: 1, repeatCount: .infinity, autoreverses: true),
                content: .basic(
                    PropertyTarget(keyPath: LayerKeyPath("opacity")!), BasicValues(from: .number(1), to: .number(0.2))))
            let move = AnimationRecord(
                timing: MediaTiming(beginTime: -phase, duration: 2, repeatCount: .infinity, autoreverses: true),
                timingFunction: eased,
                content: .basic(
                    PropertyTarget(keyPath: LayerKeyPath("position")!),
                    BasicValues(from: .point(CGPoint(x: x - 3, y: y)), to: .point(CGPoint(x: x + 3, y: y)))))
            ops += [
                .addAnimation(id, AttachedAnimation(id: UInt64(2 * i + 1), key: "fade", record: fade)),
                .addAnimation(id, AttachedAnimation(id: UInt64(2 * i + 2), key: "move", record: move)),
            ]
        }
        return try RenderTree().applying(
            ops + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)],
            displayCount: 1)
    }

    /// The frame of the 10,000-layer scene: display-list build (which evaluates the animations),
    /// `advanceAnimations` (the server's per-frame bookkeeping), and the Vulkan render. Times advance
    /// by 1/60 s per frame.
    static func tenThousandLayerFrame(
        _ tree: RenderTree, renderer: VulkanRenderer, target: any RenderTarget,
        iterations: Int
    ) -> (build: Double, advance: Double, render: Double) {
        var tree = tree
        var list = DisplayList(width: 0, height: 0)
        var frame = 0
        let build = SoftwareReference.medianMilliseconds(iterations: iterations) {
            frame += 1
            list = DisplayListBuilder.build(
                trees: [tree], display: 0, width: BenchSize.width, height: BenchSize.height, clearColor: .zero,
                time: 100 + Double(frame) / 60)
        }
        let advance = SoftwareReference.medianMilliseconds(iterations: iterations) {
            frame += 1
            _ = tree.advanceAnimations(to: 100 + Double(frame) / 60)
        }
        let render = SoftwareReference.medianMilliseconds(iterations: iterations) {
            try! renderer.render(list, into: target)
            try! renderer.waitForAllFrames()
        }
        return (build, advance, render)
    }
}
