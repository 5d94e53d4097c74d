import CLaminaShims
import Foundation
import Glibc
import Lamina
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// The renderer's copy of a frame straight into scan-out memory (`ScanoutCopying`), which the KMS
/// output uses instead of reading each frame back: here into a shared memfd mapping standing in for a
/// display buffer's, with validation on. What the device cannot import is checked to be refused, and
/// the tests of copying into it are skipped.
@Suite(.serialized) struct ScanoutCopyTests {
    /// A page-aligned shared mapping of a memfd of `size` bytes, each byte `fill`.
    final class Mapping {
        let fd: Int32
        let size: Int
        let address: UnsafeMutableRawPointer
        init(size: Int, fill: UInt8) throws {
            fd = clamina_memfd_create("scanout-test")
            guard fd >= 0, ftruncate(fd, off_t(size)) == 0 else { throw CocoaError(.fileWriteUnknown) }
            guard let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), address != MAP_FAILED
            else { throw CocoaError(.fileWriteUnknown) }
            self.size = size
            self.address = address
            memset(address, Int32(fill), size)
        }
        deinit {
            munmap(address, size)
            close(fd)
        }
        subscript(offset: Int) -> UInt8 { address.load(fromByteOffset: offset, as: UInt8.self) }
    }

    /// A red 60×40 square at (10, 20) on blue, at `width`×`height`.
    static func scene(width: Int, height: Int) throws -> DisplayList {
        var ops = RendererTests.layer(
            1, frame: CGRect(x: 0, y: 0, width: width, height: height),
            color: RGBAColor(red: 0, green: 0, blue: 1, alpha: 1))
        ops += RendererTests.layer(
            2, frame: CGRect(x: 10, y: 20, width: 60, height: 40), color: RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
        )
        ops += [.setSublayers(1, [2]), .setRoot(display: 0, layer: 1)]
        let tree = try RenderTree().applying(ops, displayCount: 1)
        return DisplayListBuilder.build(
            trees: [tree], display: 0, width: width, height: height, clearColor: SIMD4(0, 0, 0, 1))
    }

    /// Whether the shared device imports `kind` (true when there is no device, so that the tests run
    /// and report why).
    static func deviceImports(_ kind: ScanoutImport) -> Bool {
        SharedVulkanDevice.device.map { $0.scanoutImports.contains(kind) } ?? true
    }

    /// The kinds of scan-out memory the shared device cannot import.
    static var kindsTheDeviceLacks: [ScanoutImport] {
        [.dmaBuf, .hostMapping].filter { !deviceImports($0) }
    }

    /// Memory the device cannot import is refused with an error, never a trap, so the KMS output
    /// falls back to another path (lavapipe, a CPU device, imports host mappings but no dma-bufs;
    /// some GPUs dma-bufs but no host mappings).
    @Test(.enabled(if: !kindsTheDeviceLacks.isEmpty, "the device imports every kind of scan-out memory"))
    func kindsTheDeviceLacksAreRefused() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let mapping = try Mapping(size: 4096, fill: 0)
            for kind in Self.kindsTheDeviceLacks {
                #expect(!renderer.scanoutImports.contains(kind))
                let memory: ScanoutMemory =
                    switch kind {
                    case .dmaBuf: .dmaBuf(fileDescriptor: mapping.fd, size: 4096)
                    case .hostMapping: .hostMapping(address: mapping.address, size: 4096)
                    }
                #expect(throws: VulkanUnsupported.self, "\(kind)") {
                    try renderer.importScanout(memory, layout: ScanoutLayout(width: 16, height: 16, stride: 64))
                }
            }
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }

    /// The frame lands in the mapping row by row at the layout's offset and stride, byte for byte what
    /// `readPixels` returns, and the bytes between rows (and before the offset) are left alone.
    @Test(.enabled(if: deviceImports(.hostMapping), "the device cannot import host mappings"))
    func copyWritesTheFrameAtTheLayoutsOffsetAndStride() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let (width, height, stride, offset) = (100, 80, 512, 1024)
            let mapping = try Mapping(size: 48 * 4096, fill: 0xA5)
            let layout = ScanoutLayout(width: width, height: height, stride: stride, offset: offset)
            let destination = try renderer.importScanout(
                .hostMapping(address: mapping.address, size: mapping.size), layout: layout)
            #expect(destination.kind == .hostMapping)
            let target = try renderer.makeTarget(width: width, height: height)
            try renderer.render(try Self.scene(width: width, height: height), into: target)
            try renderer.copy(target, into: destination)
            let bitmap = try renderer.readPixels(target)
            // Blue background, the red square at (10, 20)-(70, 60): BGRA bytes.
            #expect(bitmap.rgba(x: 5, y: 5) == (0, 0, 255, 255))
            #expect(bitmap.rgba(x: 30, y: 30) == (255, 0, 0, 255))
            var mismatches = 0
            for y in 0..<height {
                for x in 0..<(width * 4) where mapping[offset + y * stride + x] != bitmap.pixels[y * bitmap.stride + x]
                {
                    mismatches += 1
                }
                for x in (width * 4)..<stride where mapping[offset + y * stride + x] != 0xA5 { mismatches += 1 }
            }
            #expect(mismatches == 0)
            #expect((0..<offset).allSatisfy { mapping[$0] == 0xA5 })
            // The square's top-left pixel, read from the mapping: B, G, R, A = 0, 0, 255, 255.
            let corner = offset + 20 * stride + 10 * 4
            #expect(
                [mapping[corner], mapping[corner + 1], mapping[corner + 2], mapping[corner + 3]] == [0, 0, 255, 255])
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }

    /// A second frame replaces the first in the same destination (the copy waited for the first).
    @Test(.enabled(if: deviceImports(.hostMapping), "the device cannot import host mappings"))
    func laterFramesReplaceEarlierOnes() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let mapping = try Mapping(size: 16 * 4096, fill: 0)
            let destination = try renderer.importScanout(
                .hostMapping(address: mapping.address, size: mapping.size),
                layout: ScanoutLayout(width: 100, height: 80, stride: 400))
            let target = try renderer.makeTarget(width: 100, height: 80)
            try renderer.render(try Self.scene(width: 100, height: 80), into: target)
            try renderer.copy(target, into: destination)
            #expect(mapping[30 * 400 + 30 * 4 + 2] == 255)
            let empty = DisplayList(width: 100, height: 80, clearColor: SIMD4(0, 1, 0, 1))
            try renderer.render(empty, into: target)
            try renderer.copy(target, into: destination)
            // Now green everywhere: B, G, R = 0, 255, 0.
            #expect(
                [mapping[30 * 400 + 30 * 4], mapping[30 * 400 + 30 * 4 + 1], mapping[30 * 400 + 30 * 4 + 2]] == [
                    0, 255, 0,
                ])
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }

    /// A copy limited to a region (what a scan-out buffer lacks of the newest frame: the damage since
    /// the frame it holds) writes exactly those pixels, the newest frame's, and leaves every other
    /// byte as the older frame had it; the renderer counts the bytes. An empty region copies nothing;
    /// rectangles reaching past the frame are cut to it.
    @Test(.enabled(if: deviceImports(.hostMapping), "the device cannot import host mappings"))
    func aRegionCopiesOnlyItsPixels() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let (width, height, stride) = (100, 80, 400)
            let mapping = try Mapping(size: 8 * 4096, fill: 0)
            let destination = try renderer.importScanout(
                .hostMapping(address: mapping.address, size: mapping.size),
                layout: ScanoutLayout(width: width, height: height, stride: stride))
            let target = try renderer.makeTarget(width: width, height: height)
            try renderer.render(try Self.scene(width: width, height: height), into: target)
            try renderer.copy(target, into: destination)
            let old = (0..<(height * stride)).map { mapping[$0] }
            let before = renderer.scanoutBytesCopied
            // The next frame is green everywhere; only two rectangles of it are copied, one cut at the
            // frame's right edge (90..<100 of 90..<130).
            try renderer.render(DisplayList(width: width, height: height, clearColor: SIMD4(0, 1, 0, 1)), into: target)
            let region = [
                DamageRect(x: 5, y: 6, width: 20, height: 10), DamageRect(x: 90, y: 50, width: 40, height: 5),
            ]
            try renderer.copy(target, into: destination, region: region)
            func inRegion(_ x: Int, _ y: Int) -> Bool {
                region.contains { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }
            }
            var wrong = 0
            for y in 0..<height {
                for x in 0..<width {
                    let at = y * stride + x * 4
                    let got = [mapping[at], mapping[at + 1], mapping[at + 2], mapping[at + 3]]
                    let expected = inRegion(x, y) ? [0, 255, 0, 255] : Array(old[at..<(at + 4)])
                    if got != expected { wrong += 1 }
                }
            }
            #expect(wrong == 0)
            #expect(renderer.scanoutBytesCopied - before == (20 * 10 + 10 * 5) * 4)
            let afterRegion = renderer.scanoutBytesCopied
            try renderer.copy(target, into: destination, region: [])
            #expect(renderer.scanoutBytesCopied == afterRegion, "an empty region copies nothing")
            #expect(mapping[30 * stride + 30 * 4 + 2] == old[30 * stride + 30 * 4 + 2])
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }

    /// Layouts that do not fit, and unaligned mappings, are refused with an error, never a trap.
    @Test(.enabled(if: deviceImports(.hostMapping), "the device cannot import host mappings"))
    func badLayoutsAndMappingsAreRefused() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let mapping = try Mapping(size: 4 * 4096, fill: 0)
            let memory = ScanoutMemory.hostMapping(address: mapping.address, size: mapping.size)
            for layout in [
                ScanoutLayout(width: 100, height: 100, stride: 400),  // 40,000 bytes > 16,384
                ScanoutLayout(width: 100, height: 10, stride: 396),  // stride shorter than a row
                ScanoutLayout(width: 10, height: 10, stride: 42),  // stride not a whole pixel
                ScanoutLayout(width: 0, height: 10, stride: 40),
                ScanoutLayout(width: 10, height: 10, stride: 40, offset: 2),
                ScanoutLayout(width: 10, height: 10, stride: 40, offset: -4),
                ScanoutLayout(width: Int.max / 2, height: 10, stride: 40),
            ] {
                #expect(throws: VulkanUnsupported.self) { try renderer.importScanout(memory, layout: layout) }
            }
            #expect(throws: VulkanUnsupported.self) {
                try renderer.importScanout(
                    .hostMapping(address: mapping.address + 64, size: 4096),
                    layout: ScanoutLayout(width: 8, height: 8, stride: 32))
            }
            #expect(throws: VulkanUnsupported.self) {
                try renderer.importScanout(
                    .hostMapping(address: mapping.address, size: 4000),
                    layout: ScanoutLayout(width: 8, height: 8, stride: 32))
            }
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }
}
