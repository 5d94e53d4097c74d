import Foundation
import LaminaServer
import Testing

@testable import Lamina
@testable import LaminaProtocol

/// `CALayer.contents` on the client (images named by process-unique ids, presentation cross-fades),
/// the render tree's image checks and the texture budget. Each check names the Apple behaviour or
/// the decision it follows.
@Suite("Layer contents and images")
struct ContentsImageTests {
    static func image(_ value: UInt8) -> CGImage {
        CGImage(width: 2, height: 2, premultipliedRGBA: [UInt8](repeating: value, count: 16))!
    }

    @Test func contentsHoldsWhatWasGivenAndNamesImagesByID() throws {
        // CALayer.h: contents is nil by default; a CGImage is drawn; other objects are ignored when
        // drawing (Apple keeps them and returns them).
        let layer = CALayer()
        #expect(layer.contents == nil && layer.modelState.contents == 0)
        let a = Self.image(10)
        let b = Self.image(20)
        #expect(a.contentsID != 0 && b.contentsID != 0 && a.contentsID != b.contentsID)
        layer.contents = a
        #expect(layer.contents as? CGImage === a)
        #expect(layer.modelState.contents == a.contentsID)
        layer.contents = "not an image"
        #expect(layer.contents as? String == "not an image")
        #expect(layer.modelState.contents == 0)
        // Key-value coding reads and writes the same object (Apple: value(forKey: "contents")).
        layer.setValue(b, forKey: "contents")
        #expect(layer.value(forKey: "contents") as? CGImage === b)
        #expect(layer.modelState.contents == b.contentsID)
        layer.contents = nil
        #expect(layer.contents == nil && layer.modelState.contents == 0)
        CATransaction.flush()
    }

    @Test func changingContentsRunsTheImplicitCrossFade() throws {
        // App. B / decisions.md A2: contents animates implicitly with a CABasicAnimation from the old image.
        let a = Self.image(1)
        let b = Self.image(2)
        let layer = CALayer()
        layer.contents = a
        layer.hasBeenCommitted = true
        layer.contents = b
        let implicit = try #require(layer.animation(forKey: "contents") as? CABasicAnimation)
        #expect(implicit.keyPath == "contents")
        #expect(implicit.fromValue as? CGImage === a)
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    /// A committed animation of `layer`'s contents, begun at layer time 10.
    static func attach(_ animation: CAAnimation, to layer: CALayer) throws {
        layer.add(animation, forKey: "fade")
        let entry = try #require(layer.attachedAnimations.last)
        entry.record.timing.beginTime = 10
        entry.committed = true
        layer.hasBeenCommitted = true
    }

    @Test func basicAnimationPresentsTheTargetWithACrossFadeAtTheEasedFraction() throws {
        // decisions.md A2: a basic animation between two images renders as a cross-fade; the fade's
        // progress is the animation's eased progress (easeIn at a quarter of the duration).
        let a = Self.image(1)
        let b = Self.image(2)
        let layer = CALayer()
        layer.contents = b
        let fade = CABasicAnimation(keyPath: "contents")
        fade.fromValue = a
        fade.toValue = b
        fade.duration = 1
        fade.timingFunction = CAMediaTimingFunction(name: .easeIn)
        try Self.attach(fade, to: layer)
        let eased = CAMediaTimingFunction(name: .easeIn).evaluate(0.25)
        #expect(eased > 0 && eased < 0.25)
        let quarter = try #require(layer.presentation(at: 10.25))
        #expect(quarter.modelState.contents == b.contentsID)
        #expect(quarter.modelState.contentsCrossFade == ContentsCrossFade(from: a.contentsID, progress: eased))
        #expect(quarter.contents as? CGImage === b)
        // No fade at the ends: the start shows the old image alone, the end the new one.
        let start = try #require(layer.presentation(at: 10))
        #expect(start.modelState.contents == a.contentsID && start.modelState.contentsCrossFade == nil)
        #expect(start.contents as? CGImage === a)
        let end = try #require(layer.presentation(at: 11.5))
        #expect(end.modelState.contents == b.contentsID && end.modelState.contentsCrossFade == nil)
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    @Test func keyframeAnimationsFadeBetweenNeighboursOrJumpWhenDiscrete() throws {
        // CAKeyframeAnimation with values [CGImage]: linear fades from keyframe to keyframe (linear in
        // the segment's progress); discrete shows one image at a time with no fade.
        let images = [Self.image(1), Self.image(2), Self.image(3)]
        let layer = CALayer()
        let linear = CAKeyframeAnimation(keyPath: "contents")
        linear.values = images
        linear.duration = 2
        try Self.attach(linear, to: layer)
        // 0.75 of the way: the middle of the second segment (key times 0, 0.5, 1).
        let state = try #require(layer.presentation(at: 11.5)).modelState
        #expect(state.contents == images[2].contentsID)
        #expect(state.contentsCrossFade == ContentsCrossFade(from: images[1].contentsID, progress: 0.5))
        layer.removeAllAnimations()
        let discrete = CAKeyframeAnimation(keyPath: "contents")
        discrete.values = images
        discrete.duration = 3
        discrete.calculationMode = .discrete
        try Self.attach(discrete, to: layer)
        // Discrete key times 0, 1/3, 2/3: at 0.5 the second image, alone.
        let jumped = try #require(layer.presentation(at: 11.5)).modelState
        #expect(jumped.contents == images[1].contentsID && jumped.contentsCrossFade == nil)
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    @Test func groupsCarryImageAnimations() throws {
        // CAAnimationGroup: a child animation of contents cross-fades in the group's time.
        let a = Self.image(1)
        let b = Self.image(2)
        let layer = CALayer()
        let child = CABasicAnimation(keyPath: "contents")
        child.fromValue = a
        child.toValue = b
        child.duration = 2
        let group = CAAnimationGroup()
        group.animations = [child]
        group.duration = 2
        try Self.attach(group, to: layer)
        let state = try #require(layer.presentation(at: 11)).modelState
        #expect(state.contents == b.contentsID)
        #expect(state.contentsCrossFade == ContentsCrossFade(from: a.contentsID, progress: 0.5))
        #expect(layer.attachedAnimations.last?.record.imageIDs == [a.contentsID, b.contentsID])
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    // MARK: Render tree

    static func contentsAnimation(from: UInt64, to: UInt64) -> AttachedAnimation {
        let target = PropertyTarget(keyPath: LayerKeyPath("contents")!)
        let record = AnimationRecord(
            timing: MediaTiming(duration: 1), content: .basic(target, BasicValues(from: .image(from), to: .image(to))))
        return AttachedAnimation(id: 1, key: "contents", record: record)
    }

    @Test func theTreeRefusesImagesThatAreNotLive() throws {
        // docs/protocol.md §10: a contents value or animation value naming an image the client has not
        // uploaded (or has released) is unknownImage; 0 (no image) is always accepted.
        var tree = try RenderTree().applying([.createLayer(1)], displayCount: 1)
        #expect(throws: TransactionError.unknownImage(5)) {
            try tree.applying([.set(1, .contents(5))], displayCount: 1)
        }
        #expect(TransactionError.unknownImage(5).code == .unknownImage)
        _ = try tree.applying([.set(1, .contents(0))], displayCount: 1)
        tree.liveImages = [5]
        tree = try tree.applying([.set(1, .contents(5))], displayCount: 1)
        #expect(tree.layers[1]?.state.contents == 5)
        #expect(throws: TransactionError.unknownImage(7)) {
            try tree.applying([.addAnimation(1, Self.contentsAnimation(from: 5, to: 7))], displayCount: 1)
        }
        tree.liveImages = [5, 7]
        tree = try tree.applying([.addAnimation(1, Self.contentsAnimation(from: 5, to: 7))], displayCount: 1)
        #expect(tree.referencedImages() == [5, 7])
    }

    @Test func aTransitionKeepsTheOldImageReferenced() throws {
        // E49: a CATransition as the contents action draws the layer's old contents from its snapshot,
        // so the old image stays referenced (and alive) until the transition is removed.
        var tree = try RenderTree().applying([.createLayer(1)], displayCount: 1)
        tree.liveImages = [5, 6]
        tree = try tree.applying([.set(1, .contents(5))], displayCount: 1)
        let transition = AttachedAnimation(
            id: 2, key: "transition",
            record: AnimationRecord(timing: MediaTiming(duration: 1), content: .transition(TransitionParameters())))
        tree = try tree.applying([.set(1, .contents(6)), .addAnimation(1, transition)], displayCount: 1)
        #expect(tree.snapshots[2]?.layers[1]?.state.contents == 5)
        #expect(tree.referencedImages() == [5, 6])
        tree = try tree.applying([.removeAnimation(1, animationID: 2)], displayCount: 1)
        #expect(tree.referencedImages() == [6])
    }

    // MARK: Budget

    @Test func texturesAreBoundedByCountAndBytesPerClientThenGlobally() throws {
        // docs/protocol.md §11: each image costs width × height × 4 × 4/3 bytes (level 0 and its mip chain).
        #expect(ResourceBudget.textureBytes(width: 64, height: 64) == 16384 + 5461)
        var limits = ResourceLimits()
        limits.imagesPerClient = 2
        limits.textureBytesPerClient = 1000
        limits.textureBytesTotal = 1500
        var budget = ResourceBudget(limits: limits)
        var a = ClientBudget()
        var b = ClientBudget()
        try budget.uploadImage(bytes: 600, for: &a)
        #expect(throws: BudgetError(resource: "texture bytes", scope: .client, limit: 1000, requested: 1200)) {
            try budget.uploadImage(bytes: 600, for: &a)
        }
        try budget.uploadImage(bytes: 400, for: &a)
        #expect(throws: BudgetError(resource: "images", scope: .client, limit: 2, requested: 3)) {
            try budget.uploadImage(bytes: 1, for: &a)
        }
        #expect(throws: BudgetError(resource: "texture bytes", scope: .global, limit: 1500, requested: 1600)) {
            try budget.uploadImage(bytes: 600, for: &b)
        }
        #expect(b == ClientBudget())
        budget.releaseImage(bytes: 400, for: &a)
        #expect(a.images == 1 && a.textureBytes == 600 && budget.total.textureBytes == 600)
        budget.release(&a)
        #expect(budget.total == ClientBudget())
    }
}
