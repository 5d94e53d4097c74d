import Foundation

/// Gives every `CGImage` a process-unique id and finds a live image by its id: layers and
/// animations name images by id (`LayerState.contents`, `AnimationValue.image`), and `CAContext`
/// looks the pixels up when a commit first names an image. Images are held weakly; ids are never
/// reused. Thread-safe.
package enum ContentsImageRegistry {
    private final class Entry {
        weak var image: CGImage?
        init(_ image: CGImage) { self.image = image }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var lastID: UInt64 = 0
    nonisolated(unsafe) private static var entries: [UInt64: Entry] = [:]
    nonisolated(unsafe) private static var sweepAt = 1024

    /// A new id, never 0 and never given before in this process.
    package static func makeID() -> UInt64 {
        lock.withLock {
            lastID += 1
            return lastID
        }
    }

    /// Records `image` so that `image(_:)` finds it, and returns its id.
    package static func remember(_ image: CGImage) -> UInt64 {
        let id = image.contentsID
        lock.withLock {
            guard entries[id]?.image == nil else { return }
            entries[id] = Entry(image)
            if entries.count >= sweepAt {
                entries = entries.filter { $0.value.image != nil }
                sweepAt = max(1024, entries.count * 2)
            }
        }
        return id
    }

    /// The live image with id `id`, or nil (0, never remembered, or gone).
    package static func image(_ id: UInt64) -> CGImage? {
        guard id != 0 else { return nil }
        return lock.withLock { entries[id]?.image }
    }
}
