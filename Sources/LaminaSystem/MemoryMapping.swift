// Mapping descriptors into memory.
import Glibc

/// Maps `size` bytes of `fd` from `offset` with `protection` (`PROT_READ`, `PROT_WRITE`) and
/// `flags` (`MAP_SHARED` unless told otherwise); the caller owns the mapping and ends it with
/// `unmapMemory(_:)`.
///
/// Throws `SystemError(call: "mmap", …)` on failure (`MAP_FAILED`); traps on `EBADF`, a bug in
/// Lamina. The corresponding C function is `mmap(nil, size, protection, flags, fd, offset)`.
public func mapMemory(
    fd: Int32, size: Int, protection: Int32, flags: Int32 = MAP_SHARED, offset: off_t = 0
) throws(SystemError) -> UnsafeMutableRawBufferPointer {
    guard let base = mmap(nil, size, protection, flags, fd, offset), base != MAP_FAILED else {
        throw checkedSystemError("mmap", currentErrno())
    }
    return UnsafeMutableRawBufferPointer(start: base, count: size)
}

/// Ends a mapping made by `mapMemory(fd:size:protection:flags:offset:)`; an empty buffer is left
/// alone. Failure (`EINVAL`: not a mapping) is ignored, as nothing could undo it.
/// The corresponding C function is `munmap`.
public func unmapMemory(_ mapping: UnsafeMutableRawBufferPointer) {
    guard let base = mapping.baseAddress, mapping.count > 0 else { return }
    _ = try? syscall("munmap") { munmap(base, mapping.count) }
}
