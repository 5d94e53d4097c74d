// Shared surfaces: a memfd the client keeps writing and laminad maps once and reads live.
#if canImport(Glibc)
    import Glibc
#endif
import CLaminaShims
import LaminaSystem

/// The memory of a shared surface (`IOSurface`): a memfd sealed against shrinking and growing but
/// not against writing, so its creator changes the pixels in place and the server, which maps it
/// once, sees every write without a copy.
///
/// The client makes one with `create(name:size:)` and writes through `mutableBytes`; the server
/// checks and maps a received descriptor with `map(_:minimumSize:)`, read-only. The size seal is
/// what makes the server's mapping safe: a file that cannot shrink never takes away the pages the
/// mapping covers, so reading it never raises `SIGBUS`. The corresponding C functions are
/// `memfd_create`, `ftruncate`, `fcntl(F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)`,
/// `fcntl(F_GET_SEALS)`, `fstat` and `mmap`; `deinit` calls `munmap` and `close`.
public final class SurfaceMemory: @unchecked Sendable {
    private let owned: OwnedFD?
    private let mapping: UnsafeMutableRawBufferPointer

    /// The memfd's descriptor (the creator's side only; -1 on the server, which closes it once mapped).
    public var fileDescriptor: Int32 { owned?.rawValue ?? -1 }

    /// The size of the file in bytes (the mapping covers it, rounded up to whole pages).
    public let size: Int

    /// The mapping, read-write on the creator's side; valid while this object lives.
    public var mutableBytes: UnsafeMutableRawBufferPointer { mapping }

    /// The mapping as read-only bytes: `size` bytes, then up to a page of zeros past the file's end.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(mapping) }

    private init(owned: OwnedFD?, mapping: UnsafeMutableRawBufferPointer, size: Int) {
        self.owned = owned
        self.mapping = mapping
        self.size = size
    }

    deinit {
        unmapMemory(mapping)
        owned?.close()
    }

    /// The page size mappings are rounded to.
    public static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// `size` rounded up to whole pages.
    public static func pageRounded(_ size: Int) -> Int {
        (size + pageSize - 1) / pageSize * pageSize
    }

    /// Creates a memfd of `size` bytes (> 0) filled with zeros, seals its size and maps it
    /// read-write. Throws `SystemError` when a call fails; nothing leaks.
    public static func create(name: String, size: Int) throws -> SurfaceMemory {
        guard size > 0 else { throw SystemError(call: "ftruncate", errno: EINVAL) }
        var shortName = name
        while shortName.utf8.count > 240 { shortName.removeLast() }
        let fd = try syscall("memfd_create") { clamina_memfd_create(shortName) }
        let owned = OwnedFD(fd)
        do {
            try syscall("ftruncate") { ftruncate(fd, off_t(size)) }
            try syscall("fcntl(F_ADD_SEALS)") { clamina_memfd_seal_size(fd) }
            let mapping = try mapMemory(fd: fd, size: pageRounded(size), protection: PROT_READ | PROT_WRITE)
            return SurfaceMemory(owned: owned, mapping: mapping, size: size)
        } catch {
            owned.close()
            throw error
        }
    }

    /// Maps a received descriptor read-only (`MAP_SHARED`) after checking that it is a memfd sealed
    /// against shrinking, at least `minimumSize` bytes, whose pages can be mapped; then closes it (the
    /// mapping keeps the memory). Takes ownership of `fd` on success; on failure `fd` is left as it was.
    ///
    /// Throws `SurfaceMemoryError.notSizeSealed`, `.tooSmall(actual:needed:)` or `.system(_:)`.
    public static func map(_ fd: OwnedFD, minimumSize: Int) throws(SurfaceMemoryError) -> SurfaceMemory {
        let raw = fd.rawValue
        guard raw >= 0 else { throw .system(SystemError(call: "fcntl(F_GET_SEALS)", errno: EBADF)) }
        let seals: Int32
        do {
            seals = try syscall("fcntl(F_GET_SEALS)") { clamina_memfd_get_seals(raw) }
        } catch {
            // EINVAL: not a memfd (or not created with MFD_ALLOW_SEALING).
            if error.errno == EINVAL { throw .notSizeSealed }
            throw .system(error)
        }
        guard clamina_seals_fix_size(seals) != 0 else { throw .notSizeSealed }
        var info = stat()
        do {
            try syscall("fstat") { fstat(raw, &info) }
        } catch {
            throw .system(error)
        }
        let actual = Int(info.st_size)
        guard actual >= minimumSize, actual > 0 else { throw .tooSmall(actual: actual, needed: max(minimumSize, 1)) }
        let mapping: UnsafeMutableRawBufferPointer
        do {
            mapping = try mapMemory(fd: raw, size: pageRounded(actual), protection: PROT_READ)
        } catch {
            throw .system(error)
        }
        OwnedFD(fd.take()).close()
        return SurfaceMemory(owned: nil, mapping: mapping, size: actual)
    }
}

/// Why a received descriptor could not be mapped as a surface by `SurfaceMemory.map(_:minimumSize:)`.
public enum SurfaceMemoryError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The descriptor is not a memfd sealed against shrinking (`F_SEAL_SHRINK`, checked with the C
    /// function `fcntl(F_GET_SEALS)`): its sender could cut pages out from under the mapping.
    case notSizeSealed
    /// The file (`st_size` from the C function `fstat`) is smaller than the surface's rows.
    case tooSmall(actual: Int, needed: Int)
    /// A system call failed.
    case system(SystemError)

    /// A sentence naming the problem.
    public var description: String {
        switch self {
        case .notSizeSealed:
            return "the descriptor is not a memfd sealed against shrinking (F_SEAL_SHRINK needed)"
        case .tooSmall(let actual, let needed):
            return "the memfd holds \(actual) bytes, the rows need \(needed)"
        case .system(let error):
            return "the memfd cannot be mapped: \(error)"
        }
    }
}
