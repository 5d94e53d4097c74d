import CLaminaShims

/// Returns the C heap's freed pages to the system and reports whether any were released.
///
/// A long-running server that builds and frees large trees as clients come and go keeps freed memory
/// in the allocator otherwise, so its resident size only grows. The corresponding C function is
/// glibc's `malloc_trim(0)`.
@discardableResult
public func releaseFreedHeapMemory() -> Bool {
    clamina_malloc_trim(0) != 0
}
