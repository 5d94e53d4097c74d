import Foundation
import Lamina
import LaminaTesting
import Testing

/// `CALayer.mask` from the client through `laminad`: the mask is committed with the layer (operation
/// 10, `setMask`), drawn in the masked layer's coordinate space, moved by its own animation, and
/// removed again; the frame records count the offscreen passes. Apple: `mask` "An optional layer
/// whose alpha channel is used to mask the layer's content… The layer you assign to this property
/// must not have a superlayer" (CALayer.mask, default nil).
@Suite final class MaskClientTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    @Test func maskIsCommittedDrawnAnimatedAndRemoved() throws {
        let context = try server.connect()
        let box = CALayer()
        box.frame = CGRect(x: 20, y: 20, width: 100, height: 60)
        box.backgroundColor = Self.red
        let mask = CALayer()
        mask.frame = CGRect(x: 0, y: 0, width: 50, height: 60)
        mask.backgroundColor = Self.blue
        #expect(box.mask == nil, "Apple's default")
        box.mask = mask
        #expect(box.mask === mask)
        #expect(mask.superlayer == nil, "a mask is not a sublayer")
        try makeScene(context, [box])
        let masked = try context.capture()
        try masked.writePNG(to: NSTemporaryDirectory() + "mask-client.png")
        #expect(rgb(masked, 30, 50) == (255, 0, 0), "inside the mask: the layer, not the mask's colour")
        #expect(rgb(masked, 90, 50) == (255, 255, 255), "outside the mask: the root shows")
        // Frames are presented on the display's own clock: wait (bounded) for the one after the commit.
        var records = try context.frameRecords()
        for _ in 0..<100 where !records.contains(where: { $0.offscreenPasses == 2 }) {
            usleep(20_000)
            records = try context.frameRecords()
        }
        // (A later frame may have nothing new in it: another test's display link turns on frame events
        // for every live context in this process.)
        #expect(
            records.contains { $0.offscreenPasses == 2 },
            "the layer's pass and its mask's: \(records.map(\.offscreenPasses))")

        // The mask slides right by 50 points over one second: half-way, 25 points.
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 25
        slide.toValue = 75
        slide.duration = 1
        slide.beginTime = CACurrentMediaTime() + 10
        mask.add(slide, forKey: "slide")
        try context.synchronize()
        let midway = try context.capture(at: slide.beginTime + 0.5)
        #expect(rgb(midway, 30, 50) == (255, 255, 255), "left of the moved mask")
        #expect(rgb(midway, 50, 50) == (255, 0, 0), "inside the moved mask")
        #expect(rgb(midway, 100, 50) == (255, 255, 255), "right of the moved mask")

        // A mask may be a layer of any class; a sublayer given as a mask leaves its superlayer.
        let other = CALayer()
        other.frame = CGRect(x: 50, y: 0, width: 50, height: 60)
        other.backgroundColor = Self.blue
        box.addSublayer(other)
        box.mask = other
        #expect(other.superlayer == nil)
        try context.synchronize()
        let swapped = try context.capture()
        #expect(rgb(swapped, 30, 50) == (255, 255, 255))
        #expect(rgb(swapped, 90, 50) == (255, 0, 0))

        box.mask = nil
        try context.synchronize()
        let plain = try context.capture()
        #expect(rgb(plain, 30, 50) == (255, 0, 0))
        #expect(rgb(plain, 90, 50) == (255, 0, 0))

        let report = server.stop()
        #expect(report.validationMessages.isEmpty, "validation: \(report.validationMessages)")
        #expect(report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)")
    }
}
