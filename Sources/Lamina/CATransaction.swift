import CoreFoundation
import Foundation
import LaminaProtocol

/// Groups layer-tree changes into atomic commits to the render server.
///
/// Changes made outside an explicit transaction join an implicit one, committed at the end of the
/// main run loop's current turn (a run-loop observer) or by `flush()` in programs without a run loop.
/// Nested transactions reach the server only at the outermost `commit()`. Animation arrives with
/// its own issue; until then committed changes apply at once.
open class CATransaction: NSObject {
    /// Shared transaction state, guarded by `lock`.
    final class State: @unchecked Sendable {
        let lock = NSRecursiveLock()
        var depth = 0
        var implicitOpen = false
        var observerInstalled = false
    }
    static let state = State()

    /// Begins a transaction; balanced by `commit()`.
    open class func begin() {
        state.lock.lock()
        state.depth += 1
        state.lock.unlock()
    }

    /// Ends the innermost transaction; the outermost commit sends every change to the server.
    open class func commit() {
        state.lock.lock()
        defer { state.lock.unlock() }
        guard state.depth > 0 else {
            // A commit without begin commits the implicit transaction, as Core Animation tolerates.
            commitToContexts()
            return
        }
        state.depth -= 1
        if state.depth == 0 { commitToContexts() }
    }

    /// Commits the implicit transaction now, unless an explicit transaction is open (then its outermost
    /// commit will send the changes).
    open class func flush() {
        state.lock.lock()
        defer { state.lock.unlock() }
        if state.depth == 0 { commitToContexts() }
    }

    /// Acquires the transaction lock, which guards layer-tree changes made from several threads.
    open class func lock() { state.lock.lock() }

    /// Releases the lock taken by `lock()`.
    open class func unlock() { state.lock.unlock() }

    /// Records a change to some layer tree; opens the implicit transaction if none is open. The commit
    /// walks each context's tree and sends what differs from what the server was sent.
    static func treeDidChange() {
        state.lock.lock()
        defer { state.lock.unlock() }
        if state.depth == 0 && !state.implicitOpen {
            state.implicitOpen = true
            installRunLoopObserver()
        }
    }

    /// Sends the changes of the finished transaction to every live context. Caller holds the lock.
    static func commitToContexts() {
        state.implicitOpen = false
        for context in CAContext.liveContexts() { context.commitChanges() }
    }

    /// Installs, once, an observer that commits the implicit transaction before the main run loop sleeps.
    static func installRunLoopObserver() {
        guard !state.observerInstalled, Thread.isMainThread else { return }
        state.observerInstalled = true
        let activities = CFRunLoopActivity([.beforeWaiting, .exit]).rawValue
        let observer = CFRunLoopObserverCreateWithHandler(nil, activities, true, Int.max) { _, _ in
            CATransaction.state.lock.lock()
            defer { CATransaction.state.lock.unlock() }
            if CATransaction.state.implicitOpen && CATransaction.state.depth == 0 {
                CATransaction.commitToContexts()
            }
        }
        CFRunLoopAddObserver(CFRunLoopGetMain(), observer, kCFRunLoopCommonModes)
    }
}
