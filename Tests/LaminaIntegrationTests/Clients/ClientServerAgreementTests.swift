import Foundation
@testable import Lamina
import LaminaProtocol
import LaminaServer
import LaminaTesting
import Testing

/// Property-based: for random animations, layer timings and times, the client's presentation
/// values equal what the server evaluates from the records it decodes off the wire.
@Suite struct ClientServerAgreementTests {
    /// The generator random cases are drawn from (`SplitMix64`), so a failure can be replayed from
    /// its seed.
    typealias Random = SplitMix64

    static let keyPaths = [
        "opacity", "position", "position.x", "bounds.size.width", "transform.rotation.z",
        "transform.scale", "backgroundColor", "cornerRadius", "transform", "bounds",
    ]

    static func value(for keyPath: String, _ r: inout Random) -> Any {
        func d(_ lo: Double, _ hi: Double) -> Double { Double.random(in: lo...hi, using: &r) }
        switch keyPath {
        case "opacity": return d(0, 1)
        case "position": return CGPoint(x: d(-50, 250), y: d(-50, 150))
        case "backgroundColor": return CGColor(red: d(0, 1), green: d(0, 1), blue: d(0, 1), alpha: d(0, 1))
        case "transform": return CATransform3DRotate(CATransform3DMakeScale(d(0.5, 2), d(0.5, 2), 1), d(-3, 3), 0, 0, 1)
        case "bounds": return CGRect(x: 0, y: 0, width: d(1, 100), height: d(1, 100))
        default: return d(0.1, 60)
        }
    }

    static func randomAnimation(_ r: inout Random) -> CAAnimation {
        let keyPath = keyPaths.randomElement(using: &r)!
        let animation: CAPropertyAnimation
        switch Int.random(in: 0..<4, using: &r) {
        case 0:
            let k = CAKeyframeAnimation(keyPath: keyPath)
            k.values = (0..<Int.random(in: 2...5, using: &r)).map { _ in value(for: keyPath, &r) }
            k.calculationMode = [.linear, .discrete, .paced, .cubic, .cubicPaced].randomElement(using: &r)!
            animation = k
        case 1 where !["backgroundColor", "transform", "bounds", "position"].contains(keyPath):
            let s = CASpringAnimation(keyPath: keyPath)
            s.fromValue = value(for: keyPath, &r)
            s.toValue = value(for: keyPath, &r)
            s.damping = CGFloat.random(in: 2...30, using: &r)
            animation = s
        default:
            let b = CABasicAnimation(keyPath: keyPath)
            if Bool.random(using: &r) { b.fromValue = value(for: keyPath, &r) }
            if Bool.random(using: &r) { b.toValue = value(for: keyPath, &r) }
            if b.toValue == nil && keyPath != "backgroundColor" && (b.fromValue == nil || Bool.random(using: &r)) {
                b.byValue = value(for: keyPath, &r)
            } else if b.fromValue == nil && b.toValue == nil {
                b.toValue = value(for: keyPath, &r)
            }
            animation = b
        }
        animation.isAdditive = keyPath != "backgroundColor" && Int.random(in: 0..<4, using: &r) == 0
        animation.duration = Double.random(in: 0.1...3, using: &r)
        animation.beginTime = Double.random(in: -2...2, using: &r) + 1000
        animation.repeatCount = [0, 1, 2.5, Float.infinity].randomElement(using: &r)!
        animation.autoreverses = Bool.random(using: &r)
        animation.fillMode = [.removed, .forwards, .backwards, .both].randomElement(using: &r)!
        animation.speed = [1, 2, 0.5].randomElement(using: &r)!
        animation.timeOffset = Double.random(in: 0...1, using: &r)
        if Bool.random(using: &r) {
            animation.timingFunction = CAMediaTimingFunction(
                name: [.easeIn, .easeOut, .easeInEaseOut, .default].randomElement(using: &r)!)
        }
        return animation
    }

    @Test(arguments: 0..<40) func clientAndServerAgree(seed: Int) throws {
        var r = Random(seed: UInt64(seed) &* 7919)
        let server = try TestServer(width: 32, height: 32)
        defer { server.stop() }
        let context = try server.connect()
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.speed = [1, 2, 0.5].randomElement(using: &r)!
        root.beginTime = Double.random(in: -1...1, using: &r)
        let box = CALayer()
        box.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        box.timeOffset = Double.random(in: 0...0.5, using: &r)
        root.addSublayer(box)
        // Suites run in parallel, and any thread's flush commits every live context: hold the
        // transaction lock while this test takes its context's operations itself.
        CATransaction.lock()
        context.layer = root
        _ = context.changeOperations()
        for i in 0..<Int.random(in: 1...4, using: &r) {
            let a = Self.randomAnimation(&r)
            if Bool.random(using: &r) {
                let group = CAAnimationGroup()
                let b = Self.randomAnimation(&r)
                // Children's begin times count from the group's start.
                a.beginTime = Double.random(in: 0...1, using: &r)
                b.beginTime = 0
                group.animations = [a, b]
                group.duration = Double.random(in: 0.5...3, using: &r)
                group.beginTime = 1000
                box.add(group, forKey: "group\(i)")
            } else {
                box.add(a, forKey: "a\(i)")
            }
        }
        let ops = context.changeOperations()
        CATransaction.unlock()
        #expect(ops.contains { if case .addAnimation = $0 { true } else { false } })
        // The server's view: the operations as decoded off the wire, applied to a render tree.
        let decoded = try MessageCodec.decodeClient(
            MessageCodec.encode(ClientMessage.commit(serial: 1, operations: ops)))
        guard case .commit(_, let wireOps) = decoded else { Issue.record("not a commit"); return }
        var tree = RenderTree()
        let rootOps =
            [
                LayerOperation.createLayer(root.layerID), .createLayer(box.layerID),
                .setSublayers(root.layerID, [box.layerID]), .setRoot(display: 0, layer: root.layerID),
            ]
            + LayerProperty.differences(from: nil, to: root.modelState).map { .set(root.layerID, $0) }
            + LayerProperty.differences(from: nil, to: box.modelState).map { .set(box.layerID, $0) }
        tree = try tree.applying(rootOps, displayCount: 1)
        tree = try tree.applying(wireOps, displayCount: 1)
        let serverLayer = try #require(tree.layers[box.layerID])
        var animated = 0
        for _ in 0..<60 {
            // A media time at which the box's local time lies around the animations' begin times.
            let t = box.convertTime(Double.random(in: 997...1004, using: &r), to: nil)
            var transitions: [TransitionProgress] = []
            let serverState = LayerAnimator.presentation(
                of: serverLayer.state, animations: serverLayer.animations,
                layerTime: tree.localTime(of: box.layerID, at: t).time, transitions: &transitions)
            let clientState = box.presentedState(at: t, from: box.modelState)
            #expect(serverState == clientState, "seed \(seed) at t = \(t)")
            if clientState != box.modelState { animated += 1 }
        }
        // The comparison is not trivial: at some of the times an animation changes the layer.
        #expect(animated > 0, "seed \(seed): no animation had an effect at the sampled times")
    }
}
