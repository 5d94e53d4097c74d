import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan
import Testing

/// Retained display lists (issue 19, point 1): a list patched from the frame before holds the
/// instances of a full build to the byte, in the same emission order, and its batches draw the same
/// pixels, over seeded random scenes, commits and animations at every frame (the scenes of
/// `DamageEquivalenceTests`); drawn only where the patch changed it (the damage the tracker takes
/// from the patch), into a target holding the frame before, it is the full redraw to the byte.
@Suite struct RetainedEquivalenceTests {
    /// Whether two lists hold the same instances, emitted in the same order.
    static func sameInstances(_ a: DisplayList, _ b: DisplayList) -> Bool {
        a.emitted == b.emitted && a.instances == b.instances && a.instanceCount == b.instanceCount
    }

    @Test(arguments: [UInt64(1), 2, 3, 7, 11, 12, 13, 42, 99, 123])
    func patchedFramesAreTheFullBuild(seed: UInt64) throws {
        let (width, height) = (DamageEquivalenceTests.width, DamageEquivalenceTests.height)
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let patchedTarget = try renderer.makeTarget(width: width, height: height)
            let fullTarget = try renderer.makeTarget(width: width, height: height)
            var scene = DamageEquivalenceTests.Scene(seed: seed)
            try scene.start(count: 24)
            var retained = RetainedDisplayList()
            // The damage of patched frames from the instances they rewrote, and from a full comparison.
            var told = DamageTracker()
            var toldFrames = 0
            var patched = 0
            var reasons: [String: Int] = [:]
            for frame in 0..<60 {
                let time = Double(frame) / 60
                if frame > 0 { try scene.change(at: time) }
                let list = retained.build(
                    trees: [scene.tree], display: 0, width: width, height: height, clearColor: SIMD4(0, 0, 0, 1),
                    time: time)
                if retained.lastBuild == .patched || retained.lastBuild == .spliced { patched += 1 }
                if retained.lastBuild == .full { reasons[retained.lastFullReason, default: 0] += 1 }
                let full = scene.list(at: time)
                // Drawn only where the tracker, told which instances the patch rewrote, says it changed.
                var drawn = list
                drawn.damage = told.damage(of: list, patch: retained.lastChanged, before: retained.lastReplaced)
                if retained.lastChanged != nil, drawn.damage != nil { toldFrames += 1 }
                if retained.lastBuild == .spliced {
                    #expect(list.batches == full.batches, "seed \(seed), frame \(frame): spliced batches")
                }
                #expect(Self.sameInstances(list, full), "seed \(seed), frame \(frame) (\(retained.lastBuild))")
                try renderer.render(drawn, into: patchedTarget)
                try renderer.render(full, into: fullTarget)
                let a = try renderer.readPixels(patchedTarget)
                let b = try renderer.readPixels(fullTarget)
                let differing = zip(a.pixels, b.pixels).filter { $0 != $1 }.count
                #expect(
                    differing == 0, "seed \(seed), frame \(frame) (\(retained.lastBuild)): \(differing) bytes differ")
                // Apply what the frame's bookkeeping found, as the server does after a frame.
                var advancement = scene.tree.advancement(to: time)
                _ = scene.tree.apply(&advancement)
            }
            #expect(patched >= 20, "frames should be patched: \(patched) of 60; full builds: \(reasons)")
            #expect(toldFrames >= 5, "frames drawn as the damage of a patch: \(toldFrames)")
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }
}
