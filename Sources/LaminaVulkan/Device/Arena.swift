/// Heap storage for the C structs, arrays and strings of one Vulkan create call, freed when the
/// closure that owns it returns. Only plain C values go in (no deinitialisation is run).
final class Arena {
    private var blocks: [UnsafeMutableRawPointer] = []

    /// Copies `value` to arena memory and returns a pointer to it.
    func new<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
        p.initialize(to: value)
        blocks.append(UnsafeMutableRawPointer(p))
        return p
    }

    /// Copies `values` to arena memory; nil for an empty array.
    func array<T>(_ values: [T]) -> UnsafeMutablePointer<T>? {
        guard !values.isEmpty else { return nil }
        let p = UnsafeMutablePointer<T>.allocate(capacity: values.count)
        p.initialize(from: values, count: values.count)
        blocks.append(UnsafeMutableRawPointer(p))
        return p
    }

    /// A NUL-terminated copy of `s`.
    func cString(_ s: String) -> UnsafePointer<CChar> {
        let utf8 = Array(s.utf8CString)
        return UnsafePointer(array(utf8)!)
    }

    /// An array of NUL-terminated copies.
    func cStrings(_ strings: [String]) -> UnsafePointer<UnsafePointer<CChar>?>? {
        guard !strings.isEmpty else { return nil }
        return UnsafePointer(array(strings.map { Optional(cString($0)) }))
    }

    deinit {
        for b in blocks { b.deallocate() }
    }
}

/// Runs `body` with a fresh arena and frees it afterwards.
func withArena<R>(_ body: (Arena) throws -> R) rethrows -> R {
    let arena = Arena()
    return try withExtendedLifetime(arena) { try body(arena) }
}
