import Foundation

/// Finds a live `IOSurface` by the id layers name it by (`IOSurface.contentsID`, in the image id
/// space): `CAContext` looks the memfd up when a commit first names the surface. Surfaces are held
/// weakly; ids are never reused. Thread-safe.
enum IOSurfaceRegistry {
    private final class Entry {
        weak var surface: IOSurface?
        init(_ surface: IOSurface) { self.surface = surface }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var entries: [UInt64: Entry] = [:]

    /// Records `surface` so that `surface(_:)` finds it, and returns its id.
    static func remember(_ surface: IOSurface) -> UInt64 {
        let id = surface.contentsID
        lock.withLock {
            guard entries[id]?.surface == nil else { return }
            entries = entries.filter { $0.value.surface != nil }
            entries[id] = Entry(surface)
        }
        return id
    }

    /// The live surface with id `id`, or nil (0, never remembered, or gone).
    static func surface(_ id: UInt64) -> IOSurface? {
        guard id != 0 else { return nil }
        return lock.withLock { entries[id]?.surface }
    }
}
