import Foundation
import LaminaServer
import LaminaVulkan

/// The scan-out benchmark: what it costs to get a drawn 1280×800 frame (the QEMU KMS device's mode)
/// into the memory a display scans out, by the KMS output's two paths on this renderer: `dumb` (read
/// the frame back, then copy it into the buffer's mapping) and `mapped` (the renderer copies it into
/// the imported mapping). The buffer is a shared anonymous mapping standing in for a dumb or GBM
/// buffer's; the frame is the 1,000-layer scene.
enum ScanoutBench {
    static let width = 1280
    static let height = 800

    static func rows(renderer: VulkanRenderer, iterations: Int, row: (String, String) -> Void) throws {
        let stride = width * 4
        let size = (stride * height + 4095) & ~4095
        guard let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0),
            mapping != MAP_FAILED
        else { throw CocoaError(.fileWriteOutOfSpace) }
        defer { munmap(mapping, size) }
        let list = DisplayListBuilder.build(
            trees: [
                try RenderTree().applying(
                    Bench.operations(for: BenchScene.layers(count: 1000, width: 1280, height: 720)), displayCount: 1)
            ], display: 0, width: width,
            height: height, clearColor: SIMD4(0, 0, 0, 1))
        let target = try renderer.makeTarget(width: width, height: height)
        try renderer.render(list, into: target)
        let destination = try renderer.importScanout(
            .hostMapping(address: mapping, size: size),
            layout: ScanoutLayout(width: width, height: height, stride: stride))

        func dumb() {
            guard let bitmap = try? renderer.readPixels(target) else { return }
            bitmap.pixels.withUnsafeBytes { mapping.copyMemory(from: $0.baseAddress!, byteCount: stride * height) }
        }
        func mapped() { try? renderer.copy(target, into: destination) }

        let dumbWall = SoftwareReference.medianMilliseconds(iterations: iterations, dumb)
        let mappedWall = SoftwareReference.medianMilliseconds(iterations: iterations, mapped)
        let dumbCPU = ContentsBench.cpuMilliseconds(iterations: iterations, dumb)
        let mappedCPU = ContentsBench.cpuMilliseconds(iterations: iterations, mapped)
        // Whole frames: render, then each path, alternating so that both see the same conditions.
        var dumbFrames: [Double] = []
        var mappedFrames: [Double] = []
        for _ in 0..<max(iterations, 1) {
            dumbFrames.append(
                SoftwareReference.medianMilliseconds(iterations: 1) {
                    try? renderer.render(list, into: target)
                    dumb()
                })
            mappedFrames.append(
                SoftwareReference.medianMilliseconds(iterations: 1) {
                    try? renderer.render(list, into: target)
                    mapped()
                })
        }
        let dumbFrame = dumbFrames.sorted()[dumbFrames.count / 2]
        let mappedFrame = mappedFrames.sorted()[mappedFrames.count / 2]
        // Both paths leave the same bytes in the buffer, each into a cleared one.
        memset(mapping, 0, size)
        mapped()
        let viaCopy = [UInt8](UnsafeRawBufferPointer(start: mapping, count: stride * height))
        memset(mapping, 0, size)
        dumb()
        let viaReadback = [UInt8](UnsafeRawBufferPointer(start: mapping, count: stride * height))
        row(
            "scan-out 1280×800: frame into the buffer, dumb (read back + copy) / mapped (renderer copies)",
            String(format: "%.2f ms / %.2f ms (%.2f×)", dumbWall, mappedWall, dumbWall / mappedWall))
        row(
            "scan-out 1280×800: process CPU time of that, dumb / mapped (all threads)",
            String(format: "%.2f ms / %.2f ms", dumbCPU, mappedCPU))
        row(
            "scan-out 1280×800: 1,000-layer frame, render + dumb / render + mapped",
            String(format: "%.2f ms / %.2f ms", dumbFrame, mappedFrame))
        row("scan-out 1280×800: both paths wrote the same bytes", viaCopy == viaReadback ? "yes" : "NO")
    }
}
