import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// Image import and release, rendering into imported images, and frames in flight, on the in-process
/// Vulkan renderer with validation on.
@Suite(.serialized) struct ImageImportTests {
    /// A `width` × `height` BGRA image whose texel (x, y) is (b, g, r, a) = (10x + 1, 20y + 2, 3 + x + y, 255),
    /// rows `stride` bytes apart, padding bytes 0xEE; and the same texels packed tightly.
    static func pattern(width: Int, height: Int, stride: Int) -> (padded: [UInt8], packed: [UInt8]) {
        var padded = [UInt8](repeating: 0xEE, count: stride * height)
        var packed: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let texel: [UInt8] = [UInt8(10 * x + 1), UInt8(20 * y + 2), UInt8(3 + x + y), 255]
                padded.replaceSubrange((y * stride + x * 4)..<(y * stride + x * 4 + 4), with: texel)
                packed += texel
            }
        }
        return (padded, packed)
    }

    @Test func hostImportReadsBackExactlyThroughATargetAndACopy() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let (padded, packed) = Self.pattern(width: 5, height: 3, stride: 24)
            let id = try renderer.importImage(
                ImagePixels(width: 5, height: 3, stride: 24, source: .host(padded)), filtering: .nearest)
            #expect(try renderer.mipLevels(of: id) == 1)
            let copied = try renderer.readImage(id)
            #expect(copied.width == 5 && copied.height == 3)
            #expect(copied.pixels == packed)
            let target = try renderer.makeTarget(drawingInto: id)
            #expect(target.width == 5 && target.height == 3)
            #expect(try renderer.readPixels(target).pixels == packed)
            try renderer.releaseImage(id)
            #expect(throws: RenderImageError.unknownImage(id)) { try renderer.releaseImage(id) }
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }

    @Test func sealedMemfdImportReadsBackExactly() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let offset = 64
            let (padded, packed) = Self.pattern(width: 7, height: 4, stride: 32)
            let created = try SharedMemory.create(name: "lamina-test-image", size: offset + padded.count) { bytes in
                bytes.copyBytes(from: [UInt8](repeating: 0x55, count: offset) + padded)
            }
            // Map it as the server would a received descriptor: seals checked, read-only.
            let received = try SharedMemory.map(
                OwnedFD(dup(created.fileDescriptor)), minimumSize: offset + padded.count)
            let id = try renderer.importImage(
                ImagePixels(width: 7, height: 4, stride: 32, offset: offset, source: .sharedMemory(received)),
                filtering: .linear)
            #expect(try renderer.readImage(id).pixels == packed)
            try renderer.releaseImage(id)
            try renderer.waitForAllFrames()
            #expect(renderer.retiredObjectsWaiting == 0)
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }

    /// A 4×4 image of four 2×2 single-colour blocks: level 1 holds the block colours exactly and level 2
    /// their average.
    @Test func mipmappedImportBuildsTheChainByBlits() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let blocks: [[UInt8]] = [
                [0, 40, 80, 255], [80, 120, 160, 255], [160, 200, 240, 255], [240, 0, 40, 255],
            ]
            var pixels: [UInt8] = []
            for y in 0..<4 {
                for x in 0..<4 { pixels += blocks[(y / 2) * 2 + x / 2] }
            }
            let id = try renderer.importImage(
                ImagePixels(width: 4, height: 4, stride: 16, source: .host(pixels)), filtering: .mipmapped)
            #expect(try renderer.mipLevels(of: id) == 3)
            #expect(try renderer.readImage(id, level: 0).pixels == pixels)
            let level1 = try renderer.readImage(id, level: 1)
            #expect(level1.width == 2 && level1.height == 2)
            #expect(level1.pixels == blocks.flatMap { $0 })
            let level2 = try renderer.readImage(id, level: 2)
            let average: [Int] = [120, 90, 130, 255]
            #expect(level2.pixels.count == 4)
            for (got, want) in zip(level2.pixels, average) { #expect(abs(Int(got) - want) <= 1, "\(level2.pixels)") }
            #expect(throws: RenderImageError.mipmapped(id)) { try renderer.makeTarget(drawingInto: id) }
            try renderer.releaseImage(id)
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }

    @Test func invalidPixelsThrowANamedError() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let limit = renderer.vk.maxImageDimension2D
            let cases: [(ImagePixels, RenderImageError)] = [
                (ImagePixels(width: 0, height: 4, stride: 0, source: .host([])), .emptySize(width: 0, height: 4)),
                (ImagePixels(width: 4, height: -1, stride: 16, source: .host([])), .emptySize(width: 4, height: -1)),
                (
                    ImagePixels(width: limit + 1, height: 1, stride: (limit + 1) * 4, source: .host([])),
                    .tooLarge(width: limit + 1, height: 1, limit: limit)
                ),
                (
                    ImagePixels(width: 4, height: 2, stride: 15, source: .host([UInt8](repeating: 0, count: 64))),
                    .strideTooSmall(stride: 15, minimum: 16)
                ),
                // Two rows of 16 bytes 20 apart need 36 bytes; 35 are there.
                (
                    ImagePixels(width: 4, height: 2, stride: 20, source: .host([UInt8](repeating: 0, count: 35))),
                    .bufferTooSmall(size: 35, needed: 36)
                ),
                (
                    ImagePixels(
                        width: 4, height: 2, stride: 20, offset: 1, source: .host([UInt8](repeating: 0, count: 36))),
                    .bufferTooSmall(size: 36, needed: 37)
                ),
                (
                    ImagePixels(
                        width: 4, height: 2, stride: 16, offset: -8, source: .host([UInt8](repeating: 0, count: 64))),
                    .negativeOffset(-8)
                ),
                // A stride so large that the rows overflow Int.
                (
                    ImagePixels(
                        width: 4, height: 3, stride: Int.max / 2, source: .host([UInt8](repeating: 0, count: 64))),
                    .bufferTooSmall(size: 64, needed: Int.max)
                ),
                (
                    ImagePixels(width: 4, height: Int.max / 2, stride: 16, source: .host([])),
                    .tooLarge(width: 4, height: Int.max / 2, limit: limit)
                ),
            ]
            for (pixels, error) in cases {
                #expect(throws: error) { try renderer.importImage(pixels, filtering: .linear) }
            }
            // The last row needs only width * 4 bytes, not a whole stride.
            let exact = ImagePixels(width: 4, height: 2, stride: 20, source: .host([UInt8](repeating: 9, count: 36)))
            let id = try renderer.importImage(exact, filtering: .linear)
            #expect(try renderer.readImage(id).pixels == [UInt8](repeating: 9, count: 32))
            #expect(throws: RenderImageError.unknownImage(RenderImageID(rawValue: 999))) {
                try renderer.releaseImage(RenderImageID(rawValue: 999))
            }
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }

    @Test func renderReturnsWithItsFrameInFlightAndReadPixelsWaits() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            #expect(renderer.framesInFlight == 2)
            let a = try renderer.makeTarget(width: 64, height: 32)
            let b = try renderer.makeTarget(width: 64, height: 32)
            try renderer.render(DisplayList(width: 64, height: 32, clearColor: SIMD4(1, 0, 0, 1)), into: a)
            try renderer.render(DisplayList(width: 64, height: 32, clearColor: SIMD4(0, 1, 0, 1)), into: b)
            // Neither render waited: both frames were submitted and none is known to have finished.
            #expect(renderer.submittedFrame == 2)
            #expect(renderer.completedFrame == 0)
            // The third frame reuses the first frame's slot, so it waits for frame 1 only.
            try renderer.render(DisplayList(width: 64, height: 32, clearColor: SIMD4(0, 0, 1, 1)), into: a)
            #expect(renderer.submittedFrame == 3)
            #expect(renderer.completedFrame == 1)
            let pixelsA = try renderer.readPixels(a)
            let pixelsB = try renderer.readPixels(b)
            #expect(renderer.completedFrame == 5)
            for (x, y) in [(0, 0), (63, 31), (20, 10)] {
                #expect(pixelsA.rgba(x: x, y: y) == (0, 0, 255, 255))
                #expect(pixelsB.rgba(x: x, y: y) == (0, 255, 0, 255))
            }
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }

    @Test func releasedImageWaitsForItsFrameWhileATargetStillDrawsIntoIt() throws {
        try SharedVulkanDevice.withRenderer { renderer, validation in
            let (padded, _) = Self.pattern(width: 8, height: 8, stride: 32)
            let id = try renderer.importImage(
                ImagePixels(width: 8, height: 8, stride: 32, source: .host(padded)), filtering: .linear)
            var target: (any RenderTarget)? = try renderer.makeTarget(drawingInto: id)
            try renderer.render(DisplayList(width: 8, height: 8, clearColor: SIMD4(0, 0, 1, 1)), into: target!)
            try renderer.releaseImage(id)
            // Frame 1 (the upload) retired its staging buffer, and the image was used by frame 2. Nothing
            // was waited for; releasing notes the frames whose fences have already signalled, and what
            // those retired is freed: the rest still waits.
            #expect(renderer.completedFrame <= 2)
            #expect(renderer.retiredObjectsWaiting == [1, 2].filter { $0 > renderer.completedFrame }.count)
            // The target keeps the released image alive and drawable.
            #expect(try renderer.readPixels(target!).rgba(x: 7, y: 7) == (0, 0, 255, 255))
            #expect(renderer.retiredObjectsWaiting == 0)
            target = nil
            #expect(renderer.retiredObjectsWaiting == 0, "the last frame using the target has finished")
            try renderer.render(DisplayList(width: 8, height: 8), into: try renderer.makeTarget(width: 8, height: 8))
            // The throwaway target's image waits for frame 4; its readback buffer, never used, went at once.
            #expect(renderer.retiredObjectsWaiting == 1)
            try renderer.waitForAllFrames()
            #expect(renderer.retiredObjectsWaiting == 0)
            #expect(validation.messages.isEmpty, "\(validation.messages)")
        }
    }
}
