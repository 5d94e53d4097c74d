import Foundation
import Glibc
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// When `CAVulkanLayer`'s drawables are shown and given back, against a real `laminad`: presented
/// times from the server's `surfacePresented` (frames of the display's records), `present(at:)` and
/// `present(afterMinimumDuration:)` checked by captures at chosen media times, `presentsWithTransaction`,
/// the pool's buffers registered once and reused only after the server released them.
@Suite(.serialized) final class VulkanLayerPacingTests: VictimSuite {
    typealias Log = VulkanLayerTests.Log

    /// A 16×16 CAVulkanLayer at (8, 8) in a context of its own, and a 4×4 red box at (40, 8).
    func scene(in context: CAContext) throws -> (layer: CAVulkanLayer, box: CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let layer = CAVulkanLayer()
        layer.frame = CGRect(x: 8, y: 8, width: 16, height: 16)
        let box = CALayer()
        box.frame = CGRect(x: 40, y: 8, width: 4, height: 4)
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(layer)
        root.addSublayer(box)
        context.layer = root
        try context.synchronize()
        return (layer, box)
    }

    /// Fills a drawable of `layer` with `color`, presents it with `present`, and waits up to 5 s for
    /// its presented handler; returns it.
    @discardableResult
    func show(
        _ layer: CAVulkanLayer, _ color: (UInt8, UInt8, UInt8), _ present: (CAVulkanDrawable) -> Void = { $0.present() }
    ) throws -> CAVulkanDrawable {
        let drawable = try #require(layer.nextDrawable())
        SurfaceTests.fill(drawable.surface, color)
        let log = Log()
        drawable.addPresentedHandler { log.add($0) }
        present(drawable)
        #expect(log.wait(for: 1).count == 1, "drawable \(drawable.drawableID) was not presented within 5 s")
        return drawable
    }

    /// The media times of the display's newest presented frames.
    func frameTimes(_ context: CAContext) throws -> [Double] {
        try context.frameRecords(count: 120).map(\.time)
    }

    @Test func fifoPresentedTimesAreTheTimesOfTheFramesThatShowedThem() throws {
        let context = try server.connect(name: "fifo-times")
        let (layer, _) = try scene(in: context)
        let log = Log()
        var ids: [Int] = []
        for color in [(UInt8(255), UInt8(0), UInt8(0)), (0, 255, 0), (0, 0, 255)] {
            let drawable = try #require(layer.nextDrawable())
            SurfaceTests.fill(drawable.surface, color)
            drawable.addPresentedHandler { log.add($0) }
            ids.append(drawable.drawableID)
            drawable.present()
        }
        let shown = log.wait(for: 3)
        #expect(shown.map(\.id) == ids, "\(shown)")
        // Each presentedTime is a frame the server presented (its record), one frame each, in order.
        let frames = Set(try frameTimes(context))
        #expect(shown.allSatisfy { frames.contains($0.time) }, "\(shown) not among \(frames.sorted())")
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0.time < $1.time }, "\(shown)")
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
    }

    @Test func mailboxPresentedTimesAreFrameTimesAndTheReplacedOneIsNeverShown() throws {
        let context = try server.connect(name: "mailbox-times")
        let (layer, _) = try scene(in: context)
        layer.displaySyncEnabled = false
        let log = Log()
        var drawables: [CAVulkanDrawable] = []
        for color in [(UInt8(255), UInt8(0), UInt8(0)), (0, 255, 0), (0, 0, 255)] {
            let drawable = try #require(layer.nextDrawable())
            SurfaceTests.fill(drawable.surface, color)
            drawable.addPresentedHandler { log.add($0) }
            drawables.append(drawable)
        }
        // The first is committed at once; the second waits and the third replaces it (mailbox).
        for drawable in drawables { drawable.present() }
        let shown = log.wait(for: 3)
        #expect(shown.count == 3)
        // The replaced one's handler comes first, with 0 (Apple's presentedTime of a dropped drawable).
        #expect(shown.first?.id == drawables[1].drawableID && shown.first?.time == 0, "\(shown)")
        #expect(drawables[1].presentedTime == 0, "the replaced drawable was never shown")
        let frames = Set(try frameTimes(context))
        #expect(frames.contains(drawables[0].presentedTime) && frames.contains(drawables[2].presentedTime))
        #expect(drawables[2].presentedTime > drawables[0].presentedTime)
        // No feedback came for the dropped one: it was never committed, so no frame sampled it.
        #expect(layer.releases(of: drawables[1].surface.contentsID) == 0)
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
    }

    @Test func presentAtIsNotShownBeforeItsTimeAndShownAtTheFirstFrameAfter() throws {
        let context = try server.connect(name: "present-at")
        let (layer, _) = try scene(in: context)
        try show(layer, (255, 0, 0))
        let t0 = CACurrentMediaTime() + 0.8
        let later = try show(layer, (0, 255, 0)) { drawable in
            drawable.present(at: t0)
            // Committed at once, for its time: the server shows it from t0 on, not before.
            let before = try? context.capture(at: t0 - 0.01).pixel(x: 12, y: 12)
            #expect(before?.red == 255 && before?.green == 0, "before t0: \(String(describing: before))")
            let at = try? context.capture(at: t0).pixel(x: 12, y: 12)
            #expect(at?.red == 0 && at?.green == 255, "at t0: \(String(describing: at))")
        }
        // Shown at the first presented frame at or after t0: no frame in [t0, presentedTime) exists.
        let shownAt = later.presentedTime
        #expect(shownAt >= t0, "presented at \(shownAt), before its time \(t0)")
        let frames = try frameTimes(context)
        #expect(frames.contains(shownAt))
        #expect(!frames.contains { $0 >= t0 && $0 < shownAt }, "a frame at or after t0 came before \(shownAt)")
        try SurfaceTests.expectPixel(context, 12, 12, (0, 255, 0))
    }

    @Test func aTimedPresentOnALayerNoDisplayShowsDoesNotHoldBackTheNextOne() throws {
        let context = try server.connect(name: "present-at-hidden")
        let (layer, _) = try scene(in: context)
        try show(layer, (255, 0, 0))
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.isHidden = true
        CATransaction.commit()
        try context.synchronize()
        // A timed present on the hidden layer, then one at once: no frame shows either, so no
        // surfacePresented comes; the first settles at its time and the second follows it.
        let log = Log()
        let t0 = CACurrentMediaTime() + 0.3
        let first = try #require(layer.nextDrawable())
        SurfaceTests.fill(first.surface, (0, 255, 0))
        first.addPresentedHandler { log.add($0) }
        first.present(at: t0)
        let second = try #require(layer.nextDrawable())
        SurfaceTests.fill(second.surface, (0, 0, 255))
        second.addPresentedHandler { log.add($0) }
        second.present()
        let shown = log.wait(for: 2)
        #expect(shown.map(\.id) == [first.drawableID, second.drawableID], "\(shown)")
        // As a present at once on a layer no display shows, each counts as shown at the frame that
        // presents its commit: the first's at or after its time, the second's after it.
        #expect(first.presentedTime >= t0, "\(first.presentedTime) before \(t0)")
        #expect(second.presentedTime > first.presentedTime)
        let frames = Set(try frameTimes(context))
        #expect(frames.contains(first.presentedTime) && frames.contains(second.presentedTime), "\(shown)")
        // Shown again, the layer shows the newest present.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.isHidden = false
        CATransaction.commit()
        try context.synchronize()
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
    }

    @Test func aPresentReplacedByALaterCommitBeforeAnyFrameIsDiscarded() throws {
        let context = try server.connect(name: "discarded")
        let (layer, _) = try scene(in: context)
        // Three presents at once first. Each pool buffer stays registered (pinned) from its present
        // on, so a replaced one is still known to the server, which can say it was discarded; that
        // holds for a buffer the pool makes below too (one of the three not released yet).
        for color in [(UInt8(255), UInt8(0), UInt8(0)), (0, 255, 0), (255, 255, 0)] { try show(layer, color) }
        layer.presentsWithTransaction = true
        // Two commits back to back usually reach the server between two frames; a frame between
        // them shows the first (a valid outcome, retried). One of five tries must discard.
        var discardedOnce = false
        for _ in 0..<5 where !discardedOnce {
            let (log, a, b) = try magentaThenBlue(from: layer)
            CATransaction.begin()
            a.present()
            CATransaction.commit()
            CATransaction.flush()
            CATransaction.begin()
            b.present()
            CATransaction.commit()
            CATransaction.flush()
            let shown = log.wait(for: 2)
            #expect(shown.count == 2, "\(shown)")
            let frames = Set(try frameTimes(context))
            #expect(frames.contains(b.presentedTime), "\(shown)")
            if a.presentedTime == 0 {
                // Apple: a drawable that was never presented has presentedTime 0, and its presented
                // handler is still called (developer.apple.com/documentation/metal/mtldrawable/presentedtime).
                discardedOnce = true
                #expect(shown.contains { $0.id == a.drawableID && $0.time == 0 }, "\(shown)")
            } else {
                // A frame came between the commits: it showed the first, at a time before the second's.
                // (Equal times, once seen under load, were a fresh buffer's present released by the
                // commit replacing it and then counted shown at that commit's frame:
                // VulkanLayerDiscardTests.aFreshBufferReplacedBeforeAnyFrameIsDiscarded.)
                #expect(frames.contains(a.presentedTime) && a.presentedTime < b.presentedTime, "\(shown)")
            }
            try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
        }
        #expect(discardedOnce, "no try had both commits between two frames")
    }

    /// Two drawables of `layer`, filled magenta and blue, whose presented handlers both write to the
    /// log returned with them.
    func magentaThenBlue(from layer: CAVulkanLayer) throws -> (Log, CAVulkanDrawable, CAVulkanDrawable) {
        let log = Log()
        let a = try #require(layer.nextDrawable())
        SurfaceTests.fill(a.surface, (255, 0, 255))
        a.addPresentedHandler { log.add($0) }
        let b = try #require(layer.nextDrawable())
        SurfaceTests.fill(b.surface, (0, 0, 255))
        b.addPresentedHandler { log.add($0) }
        return (log, a, b)
    }

    @Test func twoPresentsInOneTransactionShowTheLastAndDropTheFirst() throws {
        let context = try server.connect(name: "one-transaction")
        let (layer, _) = try scene(in: context)
        try show(layer, (255, 0, 0))
        layer.presentsWithTransaction = true
        let (log, a, b) = try magentaThenBlue(from: layer)
        CATransaction.begin()
        a.present()
        b.present()
        CATransaction.commit()
        let shown = log.wait(for: 2)
        // The first is replaced before the transaction is sent: presentedTime 0, handler called.
        #expect(shown.first?.id == a.drawableID && shown.first?.time == 0, "\(shown)")
        #expect(try frameTimes(context).contains(b.presentedTime), "\(shown)")
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
    }

    @Test func presentAfterMinimumDurationWaitsThatLongAfterThePreviousOne() throws {
        let context = try server.connect(name: "minimum-duration")
        let (layer, _) = try scene(in: context)
        let first = try show(layer, (255, 0, 0))
        let duration = 0.3
        let second = try show(layer, (0, 0, 255)) { $0.present(afterMinimumDuration: duration) }
        // Apple: shown once the previous drawable has been on screen at least `duration`.
        let earliest = first.presentedTime + duration
        #expect(second.presentedTime >= earliest, "\(second.presentedTime) < \(earliest)")
        let frames = try frameTimes(context)
        #expect(frames.contains(second.presentedTime))
        #expect(!frames.contains { $0 >= earliest && $0 < second.presentedTime })
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aTimeThatIsNotFinitePresentsAtOnce(_ time: Double) throws {
        let context = try server.connect(name: "present-at-bad")
        let (layer, _) = try scene(in: context)
        let drawable = try show(layer, (0, 255, 0)) { $0.present(at: time) }
        #expect(drawable.presentedTime.isFinite && drawable.presentedTime > 0)
        try SurfaceTests.expectPixel(context, 12, 12, (0, 255, 0))
    }

    @Test func presentsWithTransactionShowsTheDrawableWithTheTransactionsOtherChanges() throws {
        let context = try server.connect(name: "with-transaction")
        let (layer, box) = try scene(in: context)
        // Apple's default is false (developer.apple.com/documentation/quartzcore/cametallayer/presentswithtransaction).
        #expect(layer.presentsWithTransaction == false)
        try show(layer, (255, 0, 0))
        layer.presentsWithTransaction = true
        let drawable = try #require(layer.nextDrawable())
        SurfaceTests.fill(drawable.surface, (0, 0, 255))
        let log = Log()
        drawable.addPresentedHandler { log.add($0) }
        CATransaction.lock()
        let serialBefore = context.nextSerial
        CATransaction.unlock()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        drawable.present()
        box.position = CGPoint(x: 50, y: 30)
        CATransaction.commit()
        try context.synchronize()
        #expect(log.wait(for: 1).count == 1)
        // One commit carried both: the present made none of its own.
        CATransaction.lock()
        #expect(context.nextSerial == serialBefore + 1)
        CATransaction.unlock()
        let frames = try frameTimes(context)
        #expect(frames.contains(drawable.presentedTime))
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
        try SurfaceTests.expectPixel(context, 50, 30, (255, 0, 0))
        let p = try context.capture().pixel(x: 42, y: 10)
        #expect(p.red != 255, "the box left its old place: \(p)")
    }

    @Test func poolBuffersAreRegisteredOnceAndReusedOnlyAfterTheirRelease() throws {
        let context = try server.connect(name: "pool-reuse")
        let (layer, _) = try scene(in: context)
        layer.maximumDrawableCount = 2
        var surfaces: [UInt64] = []
        for i in 0..<6 {
            let drawable = try show(layer, (UInt8(40 * i), 255, 0))
            let id = drawable.surface.contentsID
            // A buffer shown before comes back only once the server released it since.
            let shownBefore = surfaces.filter { $0 == id }.count
            #expect(layer.releases(of: id) >= shownBefore, "buffer \(id) reused before its release")
            surfaces.append(id)
        }
        #expect(Set(surfaces).count == 2, "\(surfaces)")
        CATransaction.lock()
        let registrations = context.surfaceRegistrations
        CATransaction.unlock()
        #expect(registrations == 2, "each pool buffer is registered once")
        #expect(try SurfaceTests.statistics("pool-reuse", from: context).surfaces == 2)
        if SurfaceTests.expectsZeroCopy {
            #expect(try SurfaceTests.statistics("pool-reuse", from: context).surfaceBytesCopied == 0)
        }
        // A new size drops the old buffers once free: the pool's surfaces are released.
        layer.drawableSize = CGSize(width: 8, height: 8)
        try show(layer, (0, 0, 255))
        for _ in 0..<2 { try show(layer, (0, 0, 255)) }
        try context.synchronize()
        #expect(try SurfaceTests.statistics("pool-reuse", from: context).surfaces == 2)
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
    }
}
