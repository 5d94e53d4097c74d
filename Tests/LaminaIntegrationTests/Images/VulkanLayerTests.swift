import Foundation
import Glibc
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// `CAVulkanLayer` with CPU drawables against a real `laminad`: the pool of 2 or 3, the one-second
/// `nextDrawable()` timeout, FIFO presentation with presented times, and mailbox drops.
@Suite(.serialized) final class VulkanLayerTests: VictimSuite {
    /// Presented handlers' calls, in the order they came: drawable id and presented time.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(id: Int, time: Double)] = []
        func add(_ drawable: CAVulkanDrawable) {
            lock.withLock { entries.append((drawable.drawableID, drawable.presentedTime)) }
        }
        var all: [(id: Int, time: Double)] { lock.withLock { entries } }

        /// Waits up to 5 s for `count` calls.
        func wait(for count: Int) -> [(id: Int, time: Double)] {
            let deadline = Date().addingTimeInterval(5)
            while all.count < count, Date() < deadline { usleep(5_000) }
            return all
        }
    }

    /// A 16×16 CAVulkanLayer at (8, 8) in a context of its own.
    func layer(in context: CAContext) throws -> CAVulkanLayer { try Self.place(CAVulkanLayer(), in: context) }

    /// `layer` made 16×16 at (8, 8) under a 64×48 root shown by `context`, once the server has it.
    static func place<Layer: CALayer>(_ layer: Layer, in context: CAContext) throws -> Layer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        layer.frame = CGRect(x: 8, y: 8, width: 16, height: 16)
        root.addSublayer(layer)
        context.layer = root
        try context.synchronize()
        return layer
    }

    @Test func drawablesArePresentedInOrderEachInAFrameOfItsOwn() throws {
        let context = try server.connect(name: "fifo")
        let layer = try layer(in: context)
        // Apple's defaults (developer.apple.com/documentation/quartzcore/cametallayer):
        // maximumDrawableCount 3, displaySyncEnabled and allowsNextDrawableTimeout true, drawableSize
        // bounds × contentsScale.
        #expect(layer.maximumDrawableCount == 3 && layer.displaySyncEnabled && layer.allowsNextDrawableTimeout)
        #expect(layer.drawableSize == CGSize(width: 16, height: 16))
        let log = Log()
        let colors: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
        var ids: [Int] = []
        for color in colors {
            let drawable = try #require(layer.nextDrawable())
            #expect(drawable.surface.width == 16 && drawable.surface.height == 16 && drawable.presentedTime == 0)
            SurfaceTests.fill(drawable.surface, color)
            drawable.addPresentedHandler { log.add($0) }
            ids.append(drawable.drawableID)
            drawable.present()
        }
        let shown = log.wait(for: 3)
        #expect(shown.map(\.id) == ids, "\(shown)")
        #expect(shown.allSatisfy { $0.time > 0 }, "\(shown)")
        // Each in its own frame: strictly increasing presented times.
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0.time < $1.time }, "\(shown)")
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
        if SurfaceTests.expectsZeroCopy {
            #expect(try SurfaceTests.statistics("fifo", from: context).surfaceBytesCopied == 0)
        }
    }

    @Test func nextDrawableGivesUpAfterOneSecondWithAllHeld() throws {
        let context = try server.connect(name: "timeout")
        let layer = try layer(in: context)
        layer.maximumDrawableCount = 2
        var first = layer.nextDrawable()
        let second = layer.nextDrawable()
        #expect(first != nil && second != nil)
        // Apple: nextDrawable() waits up to one second for a free drawable, then returns nil.
        let start = Date()
        #expect(layer.nextDrawable() == nil)
        let waited = Date().timeIntervalSince(start)
        #expect((0.95...1.8).contains(waited), "waited \(waited) s")
        // A drawable the app lets go of without presenting goes back to the pool at once.
        first = nil
        let again = Date()
        #expect(layer.nextDrawable() != nil)
        #expect(Date().timeIntervalSince(again) < 0.5)
        withExtendedLifetime((first, second)) {}
    }

    @Test func withoutTheTimeoutNextDrawableWaitsUntilOneComesBack() throws {
        let context = try server.connect(name: "no-timeout")
        let layer = try layer(in: context)
        layer.maximumDrawableCount = 2
        layer.allowsNextDrawableTimeout = false
        final class Held: @unchecked Sendable { var drawable: CAVulkanDrawable? }
        let held = Held()
        held.drawable = layer.nextDrawable()
        let kept = layer.nextDrawable()
        #expect(held.drawable != nil && kept != nil)
        let start = Date()
        let releaser = Thread {
            usleep(1_300_000)
            held.drawable = nil
        }
        releaser.start()
        // Past the one second a timeout would give up at: it waits until the drawable comes back.
        #expect(layer.nextDrawable() != nil)
        #expect(Date().timeIntervalSince(start) >= 1.25)
        withExtendedLifetime(kept) {}
    }

    @Test func aNewDrawableSizeMakesNewBuffers() throws {
        let context = try server.connect(name: "size")
        let layer = try layer(in: context)
        let big = try #require(layer.nextDrawable())
        #expect(big.surface.width == 16)
        layer.drawableSize = CGSize(width: 8, height: 4)
        let small = try #require(layer.nextDrawable())
        #expect(small.surface.width == 8 && small.surface.height == 4 && big.surface.width == 16)
        SurfaceTests.fill(small.surface, (0, 255, 0))
        small.present()
        // An 8×4 drawable fills the 16×16 layer (contentsGravity resize).
        let deadline = Date().addingTimeInterval(5)
        while small.presentedTime == 0, Date() < deadline { usleep(5_000) }
        try SurfaceTests.expectPixel(context, 22, 22, (0, 255, 0))
        try context.capture().writePNG(to: NSTemporaryDirectory() + "lamina-vulkan-layer-resized.png")
    }
}
