import Dispatch
import Foundation

/// Runs client callbacks (animation delegates, completion blocks, display links) on the main thread.
///
/// Blocks queue up in order and are run by one main-queue task, which the main run loop (or
/// `dispatchMain()`, or the main actor) services. Programs that never service the main queue call
/// `CAContext.dispatchPendingCallbacks()` to run them on their own thread.
enum MainThreadDispatcher {
    final class Queue: @unchecked Sendable {
        let lock = NSLock()
        var blocks: [() -> Void] = []
        var scheduled = false
    }
    static let queue = Queue()

    /// Queues `block` to run on the main thread after the blocks queued before it.
    static func post(_ block: @escaping () -> Void) {
        let schedule = queue.lock.withLock {
            queue.blocks.append(block)
            defer { queue.scheduled = true }
            return !queue.scheduled
        }
        if schedule {
            DispatchQueue.main.async { drain() }
        }
    }

    /// Runs every queued block on the calling thread, including blocks queued while it runs.
    static func drain() {
        while true {
            let blocks: [() -> Void] = queue.lock.withLock {
                let b = queue.blocks
                queue.blocks = []
                if b.isEmpty { queue.scheduled = false }
                return b
            }
            if blocks.isEmpty { return }
            for block in blocks { block() }
        }
    }
}
