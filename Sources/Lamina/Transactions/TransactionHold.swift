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
    /// The identity of `stack`, compared without loading the weak reference: a commit asks
    /// `isOpen(besides:)` of every layer changed in its own transaction, and loading the stack
    /// updates its side table twice.
    private let stackID: ObjectIdentifier

    init(stack: CATransaction.State.Stack, number: UInt64) {
        self.stack = stack
        self.number = number
        stackID = ObjectIdentifier(stack)
    }

    /// Whether the transaction is still open, on whichever thread.
    var isOpen: Bool {
        guard let stack else { return false }
        return stack.number == number && !stack.levels.isEmpty
    }

    /// Whether the transaction is still open, on a thread other than the one whose stack is `committer`.
    func isOpen(besides committer: CATransaction.State.Stack) -> Bool {
        // The same identity is the committer's stack, or one that has gone (a later stack at the same
        // address): the answer is false for both.
        guard stackID != ObjectIdentifier(committer), let stack, stack !== committer else { return false }
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

extension CATransaction {
    /// Holds a new frame of surface `id` for the calling thread's open explicit transaction, if it has
    /// one, and returns the hold (nil without one): until that transaction's outermost commit,
    /// another thread's commit sends no `surfaceChanged` for it, as it sends nothing of a layer
    /// changed in that transaction (a `presentsWithTransaction` present marks its buffer changed at
    /// `present()`). The caller holds the transaction lock.
    @discardableResult
    static func holdSurfaceChange(_ id: UInt64) -> TransactionHold? {
        let stack = State.threadStack
        guard !stack.levels.isEmpty else { return nil }
        let hold: TransactionHold
        if let current = stack.hold, current.number == stack.number {
            hold = current
        } else {
            hold = TransactionHold(stack: stack, number: stack.number)
            stack.hold = hold
        }
        // Bounded: holds of transactions that have committed go (a surface no context sends keeps
        // its entry until then).
        if state.surfaceHolds.count >= 64 { state.surfaceHolds = state.surfaceHolds.filter { $0.value.isOpen } }
        state.surfaceHolds[id] = hold
        return hold
    }

    /// Runs `hook` once the calling thread's open explicit transaction has sent its changes, at its
    /// outermost commit, under the transaction lock; the caller holds the lock and has a transaction
    /// open.
    static func afterOutermostCommit(_ hook: @escaping () -> Void) {
        State.threadStack.levels.first?.commitHooks.append(hook)
    }

    /// Whether a new frame of surface `id` waits for another thread's open transaction than the one
    /// whose stack is `committer`; a hold whose transaction has committed is forgotten. The caller
    /// holds the transaction lock.
    static func surfaceChangeIsHeld(_ id: UInt64, committer: State.Stack) -> Bool {
        guard let hold = state.surfaceHolds[id] else { return false }
        if hold.isOpen(besides: committer) { return true }
        if !hold.isOpen { state.surfaceHolds[id] = nil }
        return false
    }
}
