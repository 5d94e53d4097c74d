import Foundation
import LaminaProtocol

/// Applies large transactions on a thread of its own, so that the server's loop keeps serving the
/// other clients and presenting frames while one client's commit is validated and applied.
///
/// A render tree is a value: the worker applies the operations to a copy and hands the finished tree
/// back; the server swaps it in on its own thread (`takeFinished()`, after the wake-up pipe fires).
/// Jobs run one at a time, in the order they were started, so at most one extra tree is being built.
final class CommitWorker: @unchecked Sendable {
    /// A finished job.
    struct Outcome {
        /// The session that sent the commit.
        var sessionID: Int
        /// The commit's serial.
        var serial: UInt64
        /// The new tree, or why the transaction was refused.
        var result: Result<RenderTree, TransactionError>
    }

    private let queue = DispatchQueue(label: "lamina-commits")
    private let lock = NSLock()
    private var finished: [Outcome] = []
    private let wakeup: WakeupPipe

    /// A worker that wakes the server's loop through `wakeup` when a job is done.
    init(wakeup: WakeupPipe) {
        self.wakeup = wakeup
    }

    /// Starts applying `parts` (a transaction's operations, part by part) to `tree`; the outcome is
    /// handed back by `takeFinished()`. The parts are read in place and freed on the worker.
    func apply(
        _ parts: [[LayerOperation]], to tree: RenderTree, displayCount: Int, sessionID: Int, serial: UInt64
    ) {
        queue.async { [self] in
            let result = Result { () throws(TransactionError) -> RenderTree in
                try tree.applying(parts: parts, displayCount: displayCount)
            }
            lock.withLock { finished.append(Outcome(sessionID: sessionID, serial: serial, result: result)) }
            wakeup.wake()
        }
    }

    /// Frees `tree` on the worker's thread (a large tree takes milliseconds to free).
    func release(_ tree: RenderTree) {
        queue.async { withExtendedLifetime(tree) {} }
    }

    /// The jobs finished since the last call, in the order they finished.
    func takeFinished() -> [Outcome] {
        lock.withLock {
            defer { finished.removeAll() }
            return finished
        }
    }
}
