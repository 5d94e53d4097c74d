import Foundation

/// Gives each layer of this process its wire id: 1, 2, 3, … from any thread.
enum LayerIDAllocator {
    nonisolated(unsafe) private static var last: LayerID = 0
    private static let lock = NSLock()

    /// The next unused id.
    static func next() -> LayerID {
        lock.withLock {
            last += 1
            return last
        }
    }
}
