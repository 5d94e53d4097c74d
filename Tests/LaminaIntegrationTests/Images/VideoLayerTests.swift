import Foundation
@testable import Lamina
import LaminaTesting
import Testing

/// `CAVideoLayer` with a real `laminad`: frames enqueued ahead are shown at their media times on the
/// server's clock, checked by captures at chosen times (no sleeps, no ticking client).
@Suite(.serialized) final class VideoLayerTests: VictimSuite {
    @Test func eachCaptureShowsTheLatestFrameAtOrBeforeItsTime() throws {
        let context = try server.connect(name: "video")
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let layer = CAVideoLayer()
        layer.frame = CGRect(x: 8, y: 8, width: 16, height: 16)
        root.addSublayer(layer)
        context.layer = root
        let colors: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (255, 255, 0)]
        let frames = try colors.enumerated().map { i, color in
            try SurfaceTests.surface(16, 16, name: "video-\(i)", color: color)
        }
        let t0 = CACurrentMediaTime() + 5
        for (i, frame) in frames.enumerated() { try layer.enqueue(frame, at: t0 + 0.1 * Double(i)) }
        try context.synchronize()
        // Before the first entry the layer shows its contents (none): the victim's blue shows through.
        let before = try context.capture(at: t0 - 0.05).pixel(x: 16, y: 16)
        #expect(before.red == 0 && before.blue == 255, "\(before)")
        for (i, time) in [t0 + 0.05, t0 + 0.15, t0 + 0.25].enumerated() {
            let capture = try context.capture(at: time)
            try capture.writePNG(to: NSTemporaryDirectory() + "lamina-video-frame-\(i + 1).png")
            let p = capture.pixel(x: 16, y: 16)
            let want = colors[i]
            #expect(p.red == want.0 && p.green == want.1 && p.blue == want.2, "at t0 + \(time - t0): \(p)")
        }
        // flushAndRemoveImage drops the queue: the later times show no frame either.
        layer.flushAndRemoveImage()
        try context.synchronize()
        let flushed = try context.capture(at: t0 + 0.25).pixel(x: 16, y: 16)
        #expect(flushed.red == 0 && flushed.blue == 255, "\(flushed)")
    }
}
