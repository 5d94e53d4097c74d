// Sealed memfd buffers: pixel data shared read-only between a client and laminad.
#if canImport(Glibc)
    import Glibc
#endif
import CLaminaShims
import LaminaSystem

/// A sealed, read-only shared memory buffer (memfd) for pixel data passed between processes.
///
/// The creator fills it once through `create(name:size:fill:)`, which then seals it so that
/// nobody, the creator included, can change or resize it; the receiver checks the seals in
/// `map(_:minimumSize:)` before trusting it. Send `fileDescriptor` with
/// `SeqPacketSocket.send(_:fds:)`. The corresponding C functions are `memfd_create`,
/// `fcntl(F_ADD_SEALS)` and `mmap`; `deinit` calls `munmap` and `close`.
public final class SharedMemory: @unchecked Sendable {
    private let owned: OwnedFD
    private let mapping: UnsafeRawBufferPointer

    /// The memfd's descriptor; ownership stays with this object.
    public var fileDescriptor: Int32 { owned.rawValue }

    /// The buffer's size in bytes.
    public var size: Int { mapping.count }

    /// The read-only mapping of the whole buffer, valid while this object lives.
    /// The corresponding C function is `mmap(PROT_READ, MAP_SHARED)`.
    public var bytes: UnsafeRawBufferPointer { mapping }

    private init(owned: OwnedFD, mapping: UnsafeRawBufferPointer) {
        self.owned = owned
        self.mapping = mapping
    }

    deinit {
        unmapMemory(UnsafeMutableRawBufferPointer(mutating: mapping))
        owned.close()
    }

    /// Creates a memfd of `size` bytes, calls `fill` with a writable mapping of it, then seals
    /// it read-only (`F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL`) and maps it
    /// read-only. Throws `SystemError` when a call fails, or what `fill` throws; nothing leaks.
    ///
    /// The corresponding C functions are `memfd_create` (`MFD_CLOEXEC | MFD_ALLOW_SEALING`),
    /// `ftruncate`, `mmap`, `munmap` and `fcntl(F_ADD_SEALS)`.
    public static func create(
        name: String, size: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void
    ) throws -> SharedMemory {
        guard size >= 0 else { throw SystemError(call: "ftruncate", errno: EINVAL) }
        // memfd names are at most 249 bytes; keep a valid UTF-8 prefix.
        var shortName = name
        while shortName.utf8.count > 240 { shortName.removeLast() }
        let fd = try syscall("memfd_create") { clamina_memfd_create(shortName) }
        let owned = OwnedFD(fd)
        try syscall("ftruncate") { ftruncate(fd, off_t(size)) }
        if size > 0 {
            let writable = try mapMemory(fd: fd, size: size, protection: PROT_READ | PROT_WRITE)
            // The writable mapping must be gone before F_SEAL_WRITE, or sealing fails with EBUSY.
            defer { unmapMemory(writable) }
            try fill(writable)
        } else {
            try fill(UnsafeMutableRawBufferPointer(start: nil, count: 0))
        }
        try syscall("fcntl(F_ADD_SEALS)") { clamina_memfd_seal_readonly(fd) }
        let readable =
            size > 0
            ? UnsafeRawBufferPointer(try mapMemory(fd: fd, size: size, protection: PROT_READ))
            : UnsafeRawBufferPointer(start: nil, count: 0)
        return SharedMemory(owned: owned, mapping: readable)
    }

    /// Maps a received descriptor read-only after checking that it is a memfd sealed against
    /// writing, shrinking and growing, and that its size is at least `minimumSize`. Takes
    /// ownership of `fd` on success (`fd` is emptied); on failure `fd` is left as it was.
    ///
    /// Throws `SharedMemoryError.notSealed`, `.tooSmall(actual:needed:)` or `.system(_:)`.
    /// The corresponding C functions are `fcntl(F_GET_SEALS)`, `fstat` and `mmap(PROT_READ, MAP_SHARED)`.
    public static func map(_ fd: OwnedFD, minimumSize: Int) throws -> SharedMemory {
        let raw = fd.rawValue
        guard raw >= 0 else { throw SharedMemoryError.system(SystemError(call: "fcntl(F_GET_SEALS)", errno: EBADF)) }
        let seals: Int32
        do {
            seals = try syscall("fcntl(F_GET_SEALS)") { clamina_memfd_get_seals(raw) }
        } catch {
            // EINVAL: not a memfd (or not created with MFD_ALLOW_SEALING).
            if error.errno == EINVAL { throw SharedMemoryError.notSealed }
            throw SharedMemoryError.system(error)
        }
        guard clamina_seals_are_readonly(seals) != 0 else { throw SharedMemoryError.notSealed }

        var info = stat()
        do {
            try syscall("fstat") { fstat(raw, &info) }
        } catch {
            throw SharedMemoryError.system(error)
        }
        let actual = Int(info.st_size)
        guard actual >= minimumSize else { throw SharedMemoryError.tooSmall(actual: actual, needed: minimumSize) }

        let readable: UnsafeRawBufferPointer
        if actual > 0 {
            do {
                readable = UnsafeRawBufferPointer(try mapMemory(fd: raw, size: actual, protection: PROT_READ))
            } catch {
                throw SharedMemoryError.system(error)
            }
        } else {
            readable = UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return SharedMemory(owned: OwnedFD(fd.take()), mapping: readable)
    }
}
