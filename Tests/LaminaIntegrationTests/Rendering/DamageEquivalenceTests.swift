import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan
import Testing

/// Damage-limited redraw (issue 19, point 3): a frame drawn only where it differs from the frame
/// before, into a target that holds that frame, is the full redraw to the byte, over seeded random
/// scenes, commits and animations at every frame; and the damage stays near what changed.
@Suite struct DamageEquivalenceTests {
    static let width = 160
    static let height = 120

    /// A random scene and its changes, from one seed.
    struct Scene {
        var random: SplitMix64
        var tree = RenderTree()
        /// The layers under the root (ids 2...), and the next id to give.
        var children: [LayerID] = []
        var nextID: LayerID = 2
        var nextAnimation: UInt64 = 1

        init(seed: UInt64) { random = SplitMix64(seed: seed) }

        mutating func unit() -> Double { Double(random.below(1_000_001)) / 1_000_000 }

        mutating func color() -> RGBAColor {
            RGBAColor(
                red: unit(), green: unit(), blue: unit(), alpha: random.below(3) == 0 ? 0.3 + 0.6 * unit() : 1)
        }

        /// Operations that create layer `id` with random geometry and looks.
        mutating func create(_ id: LayerID) -> [LayerOperation] {
            let w = 6 + Double(random.below(40))
            let h = 6 + Double(random.below(40))
            var ops: [LayerOperation] = [
                .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: w, height: h))),
                .set(id, .position(CGPoint(x: Double(random.below(width)), y: Double(random.below(height))))),
                .set(id, .backgroundColor(color())),
                // Faded per piece: a faded group drawn through an offscreen pass makes the list
                // unpatchable (OffscreenPassPixelTests covers passes with damage and retention).
                .set(id, .allowsGroupOpacity(false)),
            ]
            if random.below(3) == 0 { ops.append(.set(id, .cornerRadius(Double(random.below(10))))) }
            if random.below(3) == 0 {
                ops.append(.set(id, .borderWidth(1 + Double(random.below(3)))))
                ops.append(.set(id, .borderColor(color())))
            }
            if random.below(4) == 0 {
                ops.append(.set(id, .transform(CATransform3DMakeRotation(unit() * .pi, 0, 0, 1))))
            }
            if random.below(4) == 0 { ops.append(.set(id, .opacity(Float(0.2 + 0.8 * unit())))) }
            if random.below(5) == 0 {
                // A soft shadow (closed form), which reaches past the layer by three radii. Its path is
                // the bounds: without one, a shadowed layer that gains sublayers sticking out would cast
                // its shadow through passes, which makes a list unpatchable.
                ops += [
                    .set(id, .shadowPath(CGPath(rect: CGRect(x: 0, y: 0, width: w, height: h), transform: nil))),
                    .set(id, .shadowOpacity(Float(0.3 + 0.7 * unit()))),
                    .set(id, .shadowRadius(Double(random.below(6)))),
                    .set(id, .shadowOffset(CGSize(width: Double(random.below(7)) - 3, height: 3))),
                ]
            }
            return ops
        }

        /// The first commit: a root and `count` random layers.
        mutating func start(count: Int) throws {
            var ops: [LayerOperation] = [
                .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: width, height: height))),
                .set(1, .position(CGPoint(x: width / 2, y: height / 2))),
                .set(1, .backgroundColor(RGBAColor(red: 0.9, green: 0.9, blue: 0.85, alpha: 1))),
            ]
            for _ in 0..<count {
                ops += create(nextID)
                children.append(nextID)
                nextID += 1
            }
            ops += [.setSublayers(1, children), .setRoot(display: 0, layer: 1)]
            tree = try tree.applying(ops, displayCount: 1)
        }

        /// A commit of one to three random changes (or none), at media time `time`.
        mutating func change(at time: Double) throws {
            var ops: [LayerOperation] = []
            for _ in 0..<random.below(4) {
                guard let id = children.isEmpty ? nil : children[random.below(children.count)] else { break }
                switch random.below(9) {
                case 0:
                    ops.append(
                        .set(id, .position(CGPoint(x: Double(random.below(width)), y: Double(random.below(height))))))
                case 1: ops.append(.set(id, .backgroundColor(color())))
                case 2: ops.append(.set(id, .opacity(Float(unit()))))
                case 3: ops.append(.set(id, .isHidden(random.below(2) == 0)))
                case 4: ops.append(.set(id, .zPosition(Double(random.below(3)))))
                case 5:
                    // A layer leaves, or a new one comes.
                    if random.below(2) == 0, children.count > 1 {
                        children.removeAll { $0 == id }
                        ops += [.setSublayers(1, children), .destroyLayer(id)]
                    } else {
                        ops += create(nextID)
                        children.insert(nextID, at: random.below(children.count + 1))
                        nextID += 1
                        ops.append(.setSublayers(1, children))
                    }
                case 6:
                    // An animation of the position from somewhere else, running for a while, now or
                    // a little later, removed when it ends or held by its fill mode (so that layers
                    // wait and hold between frames: retained lists do not draw those again).
                    let from = AnimationValue.point(
                        CGPoint(x: Double(random.below(width)), y: Double(random.below(height))))
                    let fills: [CAMediaTimingFillMode] = [.removed, .forwards, .backwards, .both]
                    let record = AnimationRecord(
                        timing: MediaTiming(
                            beginTime: time + [0, 0, 0.1, 0.3][random.below(4)], duration: 0.05 + 0.2 * unit(),
                            fillMode: fills[random.below(4)]),
                        isRemovedOnCompletion: random.below(2) == 0,
                        content: .basic(
                            PropertyTarget(keyPath: LayerKeyPath("position")!), BasicValues(from: from, to: nil)))
                    ops.append(.addAnimation(id, AttachedAnimation(id: nextAnimation, key: "move", record: record)))
                    nextAnimation += 1
                case 7: ops.append(.set(id, .cornerRadius(Double(random.below(12)))))
                default: break
                }
            }
            if !ops.isEmpty { tree = try tree.applying(ops, displayCount: 1) }
        }

        func list(at time: Double) -> DisplayList {
            DisplayListBuilder.build(
                trees: [tree], display: 0, width: width, height: height, clearColor: SIMD4(0, 0, 0, 1), time: time)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 7, 42])
    func damageLimitedFramesAreTheFullRedraw(seed: UInt64) throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let partial = try renderer.makeTarget(width: Self.width, height: Self.height)
            let full = try renderer.makeTarget(width: Self.width, height: Self.height)
            var scene = Scene(seed: seed)
            try scene.start(count: 24)
            var tracker = DamageTracker()
            var partialFrames = 0
            var emptyFrames = 0
            for frame in 0..<40 {
                let time = Double(frame) / 60
                if frame > 0 { try scene.change(at: time) }
                var list = scene.list(at: time)
                list.damage = tracker.damage(of: list)
                if let damage = list.damage { damage.isEmpty ? (emptyFrames += 1) : (partialFrames += 1) }
                try renderer.render(list, into: partial)
                var whole = list
                whole.damage = nil
                try renderer.render(whole, into: full)
                let a = try renderer.readPixels(partial)
                let b = try renderer.readPixels(full)
                let differing = zip(a.pixels, b.pixels).filter { $0 != $1 }.count
                #expect(
                    differing == 0,
                    "seed \(seed), frame \(frame): \(differing) bytes differ, damage \(list.damage.map { "\($0)" } ?? "full")"
                )
            }
            #expect(partialFrames >= 10, "the scenes should mostly change a little: \(partialFrames) partial frames")
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }

    /// One small layer moving over a static scene of 200 layers damages about its old and new place:
    /// under twice the area of the two 10×10 boxes (with their one-pixel margins), nothing elsewhere.
    @Test func aSmallMovingLayerDamagesOnlyWhereItWasAndIs() throws {
        var scene = Scene(seed: 9)
        try scene.start(count: 200)
        let mover: LayerID = 999
        scene.tree = try scene.tree.applying(
            [
                .createLayer(mover), .set(mover, .bounds(CGRect(x: 0, y: 0, width: 10, height: 10))),
                .set(mover, .position(CGPoint(x: 30, y: 30))),
                .set(mover, .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))),
                .setSublayers(1, scene.children + [mover]),
            ], displayCount: 1)
        var tracker = DamageTracker()
        #expect(tracker.damage(of: scene.list(at: 0)) == nil, "the first frame is drawn whole")
        #expect(tracker.damage(of: scene.list(at: 0)) == [], "nothing changed: nothing to draw")
        scene.tree = try scene.tree.applying([.set(mover, .position(CGPoint(x: 34, y: 31)))], displayCount: 1)
        let next = tracker.damage(of: scene.list(at: 0))
        let damage = try #require(next)
        let area = damage.reduce(0) { $0 + $1.area }
        #expect(area > 0 && area <= 2 * (2 * 12 * 12), "damage \(damage)")
        for rect in damage {
            #expect(rect.x >= 24 && rect.maxX <= 41 && rect.y >= 24 && rect.maxY <= 38, "\(rect)")
        }
        // Only the instances that touch the damage are drawn again: the mover's and the few it overlaps.
        let list = scene.list(at: 0)
        let redrawn = list.batches(touching: damage).reduce(0) { $0 + $1.instances.count }
        #expect(redrawn >= 1 && redrawn * 10 < list.instanceCount, "\(redrawn) of \(list.instanceCount) instances")
    }

    @Test func aResizeOrANewClearColourIsDrawnWhole() throws {
        var scene = Scene(seed: 5)
        try scene.start(count: 10)
        var tracker = DamageTracker()
        _ = tracker.damage(of: scene.list(at: 0))
        var other = scene.list(at: 0)
        other.clearColor = SIMD4(1, 1, 1, 1)
        #expect(tracker.damage(of: other) == nil)
        let larger = DisplayListBuilder.build(trees: [scene.tree], display: 0, width: 200, height: 120)
        #expect(tracker.damage(of: larger) == nil)
    }

    /// Damage beyond half the display is a full redraw; many scattered changes become their
    /// bounding box.
    @Test func largeOrScatteredDamageCollapses() {
        let small = (0..<40).map { DamageRect(x: $0 * 4, y: 0, width: 2, height: 2) }
        let collapsed = DamageTracker.collapse(small, width: 160, height: 120)
        #expect(collapsed == [DamageRect(x: 0, y: 0, width: 158, height: 2)])
        let half = [DamageRect(x: 0, y: 0, width: 160, height: 61)]
        #expect(DamageTracker.collapse(half, width: 160, height: 120) == nil)
        let overlapping = [
            DamageRect(x: 0, y: 0, width: 10, height: 10), DamageRect(x: 5, y: 5, width: 10, height: 10),
        ]
        #expect(
            DamageTracker.collapse(overlapping, width: 160, height: 120) == [
                DamageRect(x: 0, y: 0, width: 15, height: 15)
            ])
    }
}
