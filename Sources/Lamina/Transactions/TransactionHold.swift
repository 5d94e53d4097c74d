/// The explicit transaction, open on some thread, that a layer's latest model change was made in.
///
/// Until that transaction's outermost commit, a commit or flush on any other thread sends nothing of
/// the layer and keeps the server's copy of its subtree as it was last sent: a change made inside one
/// thread's transaction is never sent half-way by another thread's.
struct TransactionHold {
    /// The thread's transaction stack (gone when the thread has exited).
    weak var stack: CATransaction.State.Stack?
    /// Which of the thread's outermost transactions made the change.
    let number: UInt64

    /// Whether the transaction is still open, on a thread other than the one whose stack is `committer`.
    func isOpen(besides committer: CATransaction.State.Stack) -> Bool {
        guard let stack, stack !== committer else { return false }
        return stack.number == number && !stack.levels.isEmpty
    }
}
