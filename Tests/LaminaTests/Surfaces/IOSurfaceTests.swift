import Foundation
import Glibc
import LaminaProtocol
import LaminaServer
import Testing

@testable import Lamina

/// `IOSurface` in the client alone: Apple's property keys and defaults, the seed, and the memfd's
/// seals (docs/surfaces.md); and the surface budget the server charges.
@Suite struct IOSurfaceTests {
    @Test func propertiesGiveTheSizesAndTheRowPitchDefaultsTo64Bytes() throws {
        let surface = try #require(IOSurface(properties: [.width: 10, .height: 3]))
        #expect(surface.width == 10 && surface.height == 3 && surface.bytesPerElement == 4)
        // 'BGRA' (kCVPixelFormatType_32BGRA = 0x42475241) is the default and only format.
        #expect(surface.pixelFormat == 0x4247_5241)
        #expect(surface.bytesPerRow == 64)
        #expect(surface.allocationSize == 4096)
        let wide = try #require(IOSurface(properties: [.width: 100, .height: 100, .bytesPerRow: 512]))
        #expect(wide.bytesPerRow == 512 && wide.allocationSize == 53_248)
        // NSNumber and UInt32 values work as Apple's dictionaries carry them.
        let numbers = try #require(
            IOSurface(properties: [
                .width: NSNumber(value: 4), .height: UInt32(4), .pixelFormat: NSNumber(value: 0x4247_5241),
            ]))
        #expect(numbers.width == 4 && numbers.height == 4)
    }

    @Test func invalidPropertiesMakeNoSurface() {
        #expect(IOSurface(properties: [.width: 4]) == nil)
        #expect(IOSurface(properties: [.width: 0, .height: 4]) == nil)
        #expect(IOSurface(properties: [.width: 16385, .height: 4]) == nil)
        #expect(IOSurface(properties: [.width: 4, .height: 4, .pixelFormat: UInt32(0x5247_4241)]) == nil)
        #expect(IOSurface(properties: [.width: 4, .height: 4, .bytesPerElement: 2]) == nil)
        #expect(IOSurface(properties: [.width: 4, .height: 4, .bytesPerRow: 15]) == nil)
        #expect(IOSurface(properties: [.width: 4, .height: 4, .bytesPerRow: 18]) == nil)
        #expect(IOSurface(properties: [.width: 4, .height: 4, .allocSize: 63]) == nil)
    }

    @Test func theSeedChangesAtEachUnlockOfAWriteLock() throws {
        let surface = try #require(IOSurface(properties: [.width: 4, .height: 4]))
        var seed: UInt32 = 99
        #expect(surface.lock(options: [], seed: &seed) == KERN_SUCCESS && seed == 0 && surface.isLocked)
        #expect(surface.unlock(options: [], seed: &seed) == KERN_SUCCESS && seed == 1 && !surface.isLocked)
        // A read-only lock leaves the seed as it was.
        #expect(surface.lock(options: .readOnly, seed: nil) == KERN_SUCCESS)
        #expect(surface.unlock(options: .readOnly, seed: &seed) == KERN_SUCCESS && seed == 1)
        #expect(surface.seed == 1)
        // An unlock without a lock is refused (IOKit's kIOReturnBadArgument, 0xE00002C2).
        #expect(surface.unlock(options: [], seed: nil) == kern_return_t(bitPattern: 0xE000_02C2))
    }

    @Test func theMemfdIsSealedAgainstResizingButNotWriting() throws {
        let surface = try #require(IOSurface(properties: [.width: 4, .height: 4]))
        let fd = surface.fileDescriptor
        errno = 0
        #expect(ftruncate(fd, 0) == -1 && errno == EPERM)
        #expect(ftruncate(fd, 8192) == -1 && errno == EPERM)
        var byte: UInt8 = 7
        #expect(pwrite(fd, &byte, 1, 0) == 1)
        #expect(surface.baseAddress.load(as: UInt8.self) == 7)
        // The server's check takes it, and sees the writes through its own read-only mapping.
        let copy = OwnedFD(dup(fd))
        let mapped = try SurfaceMemory.map(copy, minimumSize: 64)
        surface.baseAddress.storeBytes(of: 42, toByteOffset: 1, as: UInt8.self)
        #expect(mapped.bytes[0] == 7 && mapped.bytes[1] == 42 && mapped.size == 4096)
    }

    @Test func theSurfaceBudgetCountsSurfacesAndBytes() {
        var limits = ResourceLimits()
        limits.surfacesPerClient = 2
        limits.surfaceBytesPerClient = 10_000
        limits.surfaceBytesTotal = 12_000
        var budget = ResourceBudget(limits: limits)
        var a = ClientBudget()
        var b = ClientBudget()
        #expect(throws: Never.self) { try budget.registerSurface(bytes: 4096, for: &a) }
        #expect(throws: BudgetError(resource: "surfaces", scope: .client, limit: 2, requested: 3)) {
            try budget.registerSurface(bytes: 4096, for: &a)
            try budget.registerSurface(bytes: 1, for: &a)
        }
        #expect(throws: BudgetError(resource: "surface bytes", scope: .global, limit: 12_000, requested: 12_288)) {
            try budget.registerSurface(bytes: 4096, for: &b)
        }
        #expect(a.surfaces == 2 && a.surfaceBytes == 8192 && budget.total.surfaceBytes == 8192)
        budget.releaseSurface(bytes: 4096, for: &a)
        budget.release(&a)
        #expect(a.surfaces == 0 && budget.total.surfaces == 0 && budget.total.surfaceBytes == 0)
    }
}
