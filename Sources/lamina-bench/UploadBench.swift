import Foundation
import Lamina
import LaminaServer
import LaminaTesting
import LaminaVulkan

/// Image upload through a running `laminad`: a `CAContext` client shows `imageCount` distinct
/// images of `side`×`side` pixels, one per layer, on layers laid out 8×8 over 1280×720, and the
/// benchmark times the upload and reads the server's resident memory before and after.
enum UploadBench {
    /// Images uploaded in one run (one layer each).
    static let imageCount = 64
    /// The side of each image in pixels: 512×512 BGRA8 is 1 MiB of pixels.
    static let side = 512
    /// The pixel bytes of one image: `side` × `side` × 4.
    static let pixelBytes = side * side * 4

    /// One run's figures.
    struct Outcome {
        /// From the first `layer.contents =` to the return of the `capture()` that shows every image, seconds.
        var seconds: Double
        /// From the first `layer.contents =` to the return of `CATransaction.commit()`, which copies
        /// each image into a sealed memfd and sends it, seconds.
        var commitSeconds: Double
        /// One capture of the layers before they show images, seconds.
        var captureSeconds: Double
        /// The server's `VmRSS` after the layers are shown without contents and captured twice, bytes.
        var residentBefore: Int
        /// The server's `VmRSS` once the capture showing every image has returned, bytes.
        var residentAfter: Int
        /// The texture bytes the server charges the client for (`statistics()`).
        var textureBytes: UInt64
        /// Whether the capture shows each image's own colour at the centre of its layer.
        var imagesShown: Bool
        /// The capture that showed the images.
        var capture: CGImage
    }

    /// `count` distinct opaque images: red grows to the right and green downwards in each, and image
    /// `k` has blue `k × 4` throughout, so no two images are alike.
    static func images(count: Int) -> [CGImage] {
        (0..<count).map { k in
            var bytes = [UInt8](repeating: 255, count: pixelBytes)
            for y in 0..<side {
                for x in 0..<side {
                    let i = (y * side + x) * 4
                    bytes[i] = UInt8(truncatingIfNeeded: x / 2)
                    bytes[i + 1] = UInt8(truncatingIfNeeded: y / 2)
                    bytes[i + 2] = UInt8(truncatingIfNeeded: k * 4)
                }
            }
            return CGImage(width: side, height: side, premultipliedRGBA: bytes)!
        }
    }

    /// The layer frames: an 8×8 grid of 160×90 cells over 1280×720.
    static func frame(_ index: Int) -> CGRect {
        CGRect(x: Double(index % 8) * 160, y: Double(index / 8) * 90, width: 160, height: 90)
    }

    /// Starts a fresh `laminad` (with `environment` added to its own), connects, shows the empty
    /// layers, then uploads and shows the images.
    static func measure(environment: [String: String] = [:]) throws -> Outcome {
        let images = images(count: imageCount)
        let server = try TestServer(width: 1280, height: 720, validation: false, environment: environment)
        defer { server.stop() }
        let context = try server.connect(name: "upload-bench")
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
        let layers = (0..<imageCount).map { i -> CALayer in
            let layer = CALayer()
            layer.frame = frame(i)
            root.addSublayer(layer)
            return layer
        }
        context.layer = root
        CATransaction.commit()
        // Warm the frame and capture paths before the memory is read, then time a capture alone.
        _ = try context.capture()
        let captureStart = CACurrentMediaTime()
        _ = try context.capture()
        let captureSeconds = CACurrentMediaTime() - captureStart
        try context.synchronize()
        let before = try residentBytes(of: server.processIdentifier)

        let start = CACurrentMediaTime()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for (layer, image) in zip(layers, images) { layer.contents = image }
        CATransaction.commit()
        let committed = CACurrentMediaTime() - start
        let shot = try context.capture()
        let seconds = CACurrentMediaTime() - start

        let after = try residentBytes(of: server.processIdentifier)
        let textureBytes = try context.statistics().first { $0.name == "upload-bench" }?.textureBytes ?? 0
        let shown = allShown(shot, images: imageCount)
        context.layer = nil
        try context.synchronize()
        return Outcome(
            seconds: seconds, commitSeconds: committed, captureSeconds: captureSeconds, residentBefore: before,
            residentAfter: after,
            textureBytes: textureBytes,
            imagesShown: shown, capture: shot)
    }

    /// Whether the pixel at the centre of each layer has the blue of its image (`k × 4`) and full
    /// alpha: every image reached the screen, each on its own layer.
    static func allShown(_ shot: CGImage, images: Int) -> Bool {
        let rgba = shot.premultipliedRGBA
        for k in 0..<images {
            let f = frame(k)
            let i = (Int(f.midY) * shot.width + Int(f.midX)) * 4
            guard i + 3 < rgba.count, abs(Int(rgba[i + 2]) - k * 4) <= 2, rgba[i + 3] == 255 else { return false }
        }
        return true
    }

    /// `VmRSS` of process `pid` from `/proc/PID/status`, in bytes.
    static func residentBytes(of pid: Int32) throws -> Int {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kB = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw UploadBenchError.noResidentSize(pid) }
        return kB * 1024
    }

    /// glibc's fixed mmap threshold for the second set of runs: allocations of 128 KiB and over get
    /// their own mapping, given back to the system when freed (the upload's staging buffers too).
    static let fixedMmapThreshold = ["MALLOC_MMAP_THRESHOLD_": "131072"]

    /// Runs `runs` measurements, then `runs` more with laminad's malloc mmap threshold fixed, and adds
    /// the throughput and memory rows: medians over the runs, with the in-process import on
    /// `renderer` for comparison. The last run's capture goes to `imageFolder` as `upload-64.png`.
    static func rows(
        runs: Int, renderer: VulkanRenderer, imageFolder: String, row: (String, String) -> Void
    ) throws {
        let imported = try importSeconds(renderer: renderer, runs: runs)
        let outcomes = try (0..<max(runs, 1)).map { _ in try measure() }
        let fixed = try (0..<max(runs, 1)).map { _ in try measure(environment: fixedMmapThreshold) }
        try outcomes.last!.capture.writePNG(to: "\(imageFolder)/upload-\(imageCount).png")
        func median(_ values: [Double]) -> Double {
            let s = values.sorted()
            return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
        let total = Double(imageCount * pixelBytes)
        let seconds = median(outcomes.map(\.seconds))
        let size = "\(imageCount) distinct \(side)×\(side) images (\(pixelBytes / 1_048_576) MiB of pixels each)"
        row(
            "image upload: \(size), first contents set to capture showing all (median of \(outcomes.count))",
            String(
                format:
                    "%.0f MB/s (%.0f ms, of which %.0f ms until the commit returned; decimal MB of pixel data; a capture alone takes %.0f ms)",
                total / seconds / 1e6, seconds * 1000, median(outcomes.map(\.commitSeconds)) * 1000,
                median(outcomes.map(\.captureSeconds)) * 1000))
        row(
            "image import in-process, the same \(imageCount) images (VulkanRenderer.importImage, mipmapped; median of \(runs))",
            String(format: "%.0f MB/s (%.0f ms)", total / imported / 1e6, imported * 1000))
        let mib = 1_048_576.0
        let withMips = Double(pixelBytes) * 4 / 3
        func perImage(_ outcomes: [Outcome]) -> String {
            let bytes = median(outcomes.map { Double($0.residentAfter - $0.residentBefore) / Double(imageCount) })
            return String(
                format: "%.2f MiB = %.2f× the pixels (%.2f MiB), %.2f× pixels + mip chain (%.2f MiB)",
                bytes / mib, bytes / Double(pixelBytes), Double(pixelBytes) / mib, bytes / withMips, withMips / mib)
        }
        row("laminad memory per image: VmRSS growth ÷ \(imageCount) (median of \(outcomes.count))", perImage(outcomes))
        row(
            "laminad memory per image, laminad run with MALLOC_MMAP_THRESHOLD_=131072 (median of \(fixed.count))",
            perImage(fixed))
        let before = median(outcomes.map { Double($0.residentBefore) })
        let after = median(outcomes.map { Double($0.residentAfter) })
        let charged = outcomes.map(\.textureBytes).max() ?? 0
        let shown = (outcomes + fixed).allSatisfy(\.imagesShown)
        row(
            "laminad VmRSS before / after showing the \(imageCount) images; texture bytes charged (statistics())",
            String(
                format: "%.1f MiB / %.1f MiB; %.1f MiB%@", before / mib, after / mib, Double(charged) / mib,
                shown ? "" : " (a capture did not show every image)"))
    }

    /// The renderer's share of an upload: the same `imageCount` images as BGRA bytes imported
    /// in-process with `VulkanRenderer.importImage(_:filtering:)`, mipmapped, until the GPU has
    /// finished; the median of `runs`, in seconds. Each run releases its images afterwards.
    static func importSeconds(renderer: VulkanRenderer, runs: Int) throws -> Double {
        let pixels = images(count: imageCount).map { image in
            var bgra = image.premultipliedRGBA
            for i in stride(from: 0, to: bgra.count, by: 4) { bgra.swapAt(i, i + 2) }
            return ImagePixels(width: side, height: side, stride: side * 4, source: .host(bgra))
        }
        var samples: [Double] = []
        for _ in 0..<max(runs, 1) {
            let start = CACurrentMediaTime()
            let ids = try pixels.map { try renderer.importImage($0, filtering: .mipmapped) }
            try renderer.waitForAllFrames()
            samples.append(CACurrentMediaTime() - start)
            for id in ids { try renderer.releaseImage(id) }
            try renderer.waitForAllFrames()
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}

/// Why the upload measurement could not finish.
enum UploadBenchError: Error {
    case noResidentSize(Int32)
}
