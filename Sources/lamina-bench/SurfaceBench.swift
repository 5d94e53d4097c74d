import Foundation
import Lamina
import LaminaTesting

/// Frames through a shared surface: a `CAVulkanLayer` filling a 1280×720 display, whose app writes
/// every pixel of each drawable on the CPU and presents it (FIFO), against a running `laminad`.
enum SurfaceBench {
    static let width = 1280
    static let height = 720

    /// Presents `frames` drawables after `warmup` more and adds the rows: frames per second between
    /// the first and the last presented time, the app's CPU time to write one frame, and the bytes
    /// laminad copied out of the surfaces per frame (`statistics()`).
    static func rows(frames: Int, warmup: Int = 10, row: (String, String) -> Void) throws {
        let server = try TestServer(width: width, height: height, validation: false)
        defer { server.stop() }
        let context = try server.connect(name: "surface-bench")
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let layer = CAVulkanLayer()
        layer.frame = CGRect(x: 0, y: 0, width: width, height: height)
        context.layer = layer
        CATransaction.commit()
        try context.synchronize()
        let times = TimeLog()
        var writeSeconds: [Double] = []
        for frame in 0..<(warmup + frames) {
            guard let drawable = layer.nextDrawable() else { throw SurfaceBenchError.noDrawable(frame) }
            let start = CACurrentMediaTime()
            fill(drawable.surface, frame: frame)
            writeSeconds.append(CACurrentMediaTime() - start)
            if frame >= warmup { drawable.addPresentedHandler { times.add($0.presentedTime) } }
            drawable.present()
        }
        let shown = times.wait(for: frames)
        let presented = shown.filter { $0 > 0 }
        guard presented.count >= 2, let first = presented.min(), let last = presented.max() else {
            throw SurfaceBenchError.notPresented(presented.count)
        }
        let copied = try context.statistics().first { $0.name == "surface-bench" }?.surfaceBytesCopied ?? 0
        let sorted = writeSeconds.sorted()
        row(
            "frames through a surface: CAVulkanLayer \(width)×\(height), every pixel written on the CPU, FIFO (\(frames) frames)",
            String(
                format: "%.1f frames/s presented (%d of %d shown; display %d Hz); %.2f ms to write a frame (median)",
                Double(presented.count - 1) / (last - first), presented.count, frames, 60,
                sorted[sorted.count / 2] * 1000))
        row(
            "bytes laminad copied per surface frame (statistics().surfaceBytesCopied ÷ frames)",
            String(format: "%.0f (a copy would be %d)", Double(copied) / Double(warmup + frames), width * height * 4))
        try latencyRows(layer: layer, frames: 30, row: row)
    }

    /// Presents `frames` drawables one at a time (each after the one before was shown, so none
    /// queues) and adds the median times, on the media clock, from the `present()` call to the
    /// presented frame's time and to the arrival of the server's `surfacePresented`.
    static func latencyRows(layer: CAVulkanLayer, frames: Int, row: (String, String) -> Void) throws {
        var toFrame: [Double] = []
        var toFeedback: [Double] = []
        for frame in 0..<frames {
            guard let drawable = layer.nextDrawable() else { throw SurfaceBenchError.noDrawable(frame) }
            fill(drawable.surface, frame: frame)
            let arrivals = TimeLog()
            drawable.addPresentedHandler { _ in arrivals.add(CACurrentMediaTime()) }
            let call = CACurrentMediaTime()
            drawable.present()
            guard let arrived = arrivals.wait(for: 1).first, drawable.presentedTime > 0 else {
                throw SurfaceBenchError.notPresented(frame)
            }
            toFrame.append(drawable.presentedTime - call)
            toFeedback.append(arrived - call)
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] * 1000 }
        row(
            "present → on screen: present() to the presented frame's time / to surfacePresented (\(frames) frames, one at a time)",
            String(format: "%.1f ms / %.1f ms (medians)", median(toFrame), median(toFeedback)))
    }

    /// Writes every pixel of `surface`: a gradient that moves with `frame`.
    static func fill(_ surface: IOSurface, frame: Int) {
        surface.lock(options: [], seed: nil)
        defer { surface.unlock(options: [], seed: nil) }
        for y in 0..<surface.height {
            let row = (surface.baseAddress + y * surface.bytesPerRow).bindMemory(
                to: UInt32.self, capacity: surface.width)
            let green = UInt32((y + frame) & 255) << 8
            for x in 0..<surface.width { row[x] = 0xFF00_0000 | UInt32((x + frame) & 255) << 16 | green | 0x40 }
        }
    }

    /// Presented times, added from the event thread.
    final class TimeLog: @unchecked Sendable {
        private let lock = NSLock()
        private var times: [Double] = []
        func add(_ time: Double) { lock.withLock { times.append(time) } }
        /// Waits up to 10 s for `count` times.
        func wait(for count: Int) -> [Double] {
            let deadline = Date().addingTimeInterval(10)
            while lock.withLock({ times.count }) < count, Date() < deadline { usleep(1_000) }
            return lock.withLock { times }
        }
    }
}

/// Why the surface benchmark could not run.
enum SurfaceBenchError: Error {
    /// `nextDrawable()` gave nothing within its second at frame `frame`.
    case noDrawable(Int)
    /// Only this many frames were presented.
    case notPresented(Int)
}
