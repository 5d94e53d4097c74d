/// The explicit transaction, open on some thread, that a layer's latest model change was made in.
///
/// Until that transaction's outermost commit, a commit or flush on any other thread sends nothing of
/// the layer and keeps the server's copy of its subtree as it was last sent: a change made inside one
/// thread's transaction is never sent half-way by another thread's.
///
/// One object per outermost transaction, made by its first change (`Stack.hold`) and shared by every
/// layer changed in it: a property change stores a strong reference, where a value holding the weak
/// reference would form and destroy a weak reference on every change.
final class TransactionHold {
    /// The thread's transaction stack (gone when the thread has exited).
    weak var stack: CATransaction.State.Stack?
    /// Which of the thread's outermost transactions made the change.
    let number: UInt64

    init(stack: CATransaction.State.Stack, number: UInt64) {
        self.stack = stack
        self.number = number
    }

    /// Whether the transaction is still open, on a thread other than the one whose stack is `committer`.
    func isOpen(besides committer: CATransaction.State.Stack) -> Bool {
        guard let stack, stack !== committer else { return false }
        return stack.number == number && !stack.levels.isEmpty
    }
}

extension CALayer {
    /// Holds the layer for the outermost transaction open on `stack` (a thread with a transaction
    /// open); the caller holds the transaction lock.
    @inline(__always)
    func hold(for stack: CATransaction.State.Stack) {
        if let hold = stack.hold, hold.number == stack.number {
            if transactionHold !== hold { transactionHold = hold }
        } else {
            let hold = TransactionHold(stack: stack, number: stack.number)
            stack.hold = hold
            transactionHold = hold
        }
    }
}
