import CoreFoundation
import Foundation
import LaminaProtocol

/// The key of a transaction's implicit-animation duration (Apple's `kCATransactionAnimationDuration`).
public let kCATransactionAnimationDuration = "animationDuration"
/// The key of a transaction's "no actions" switch (Apple's `kCATransactionDisableActions`).
public let kCATransactionDisableActions = "disableActions"
/// The key of a transaction's implicit-animation timing function (Apple's `kCATransactionAnimationTimingFunction`).
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
/// The key of a transaction's completion block (Apple's `kCATransactionCompletionBlock`).
public let kCATransactionCompletionBlock = "completionBlock"

/// Groups layer-tree changes into atomic commits to the render server, and sets the parameters of
/// the implicit animations they create.
///
/// Changes made outside an explicit transaction join an implicit one, committed at the end of the
/// main run loop's current turn (a run-loop observer) or by `flush()` in programs without a run loop.
/// Nested transactions reach the server only at the outermost `commit()`. Each level has its own
/// settings (duration, timing function, disabled actions, completion block, any key); getters read
/// the innermost level that set a value. Each thread has its own stack of explicit transactions, as on
/// Apple platforms; `lock()` guards the shared state across threads.
open class CATransaction: NSObject {
    /// One open transaction level: its settings and the animations added while it was open.
    final class Level {
        var values: [String: Any] = [:] {
            didSet {
                disablesActions = Self.disablesActions(values[kCATransactionDisableActions])
                animationDuration = values[kCATransactionAnimationDuration].map(AnimationValue.number)
                animationTimingFunction = values[kCATransactionAnimationTimingFunction].map {
                    $0 as? CAMediaTimingFunction
                }
            }
        }
        /// `values[kCATransactionDisableActions]` read as `disableActions()` reads it (nil when the
        /// level sets none), kept as the values change: every property change asks.
        private(set) var disablesActions: Bool?
        /// The level's implicit-animation duration as `implicitAnimationSettings()` reads it: nil
        /// when it sets none, `.some(nil)` when it sets one that is not a number.
        private(set) var animationDuration: Double??
        /// The level's implicit-animation timing function, read the same way.
        private(set) var animationTimingFunction: CAMediaTimingFunction??

        /// How `disableActions()` reads a level's value: a `Bool`, an `NSNumber`'s `boolValue`, false
        /// for any other value; nil for none.
        static func disablesActions(_ value: Any?) -> Bool? {
            switch value {
            case nil: nil
            case let b as Bool: b
            case let n as NSNumber: n.boolValue
            default: false
            }
        }
        let completion = CompletionGroup()
        /// What runs once the outermost transaction has sent its changes (`afterOutermostCommit`).
        var commitHooks: [() -> Void] = []
    }

    /// Shared transaction state, guarded by `lock`.
    final class State: @unchecked Sendable {
        let lock = NSRecursiveLock()
        /// The calling thread's explicit levels, outermost first (each thread has its own stack, as
        /// on Apple platforms; the implicit transaction is shared and commits on the main run loop).
        var levels: [Level] {
            get { Self.threadStack.levels }
            set { Self.threadStack.levels = newValue }
        }

        final class Stack {
            var levels: [Level] = []
            /// Counts the thread's outermost transactions, so a hold names one of them.
            var number: UInt64 = 0
            /// The hold of outermost transaction `number`, made by the first change in it, which every
            /// layer changed in it keeps (`CALayer.hold(for:)`).
            var hold: TransactionHold?
        }

        /// The open explicit transactions that marked surfaces changed, by surface id
        /// (`CATransaction.holdSurfaceChange`): another thread's commit sends no `surfaceChanged` for
        /// them until those transactions commit.
        var surfaceHolds: [UInt64: TransactionHold] = [:]

        /// The thread-specific slot of each thread's stack (a retained `Stack`, released when the
        /// thread exits). Every property change reads it, so it avoids `Thread.threadDictionary`.
        static let stackKey: pthread_key_t = {
            var key = pthread_key_t()
            let status = pthread_key_create(&key) { pointer in
                if let pointer { Unmanaged<Stack>.fromOpaque(pointer).release() }
            }
            precondition(status == 0, "pthread_key_create failed: \(status)")
            return key
        }()

        static var threadStack: Stack {
            if let pointer = pthread_getspecific(stackKey) {
                return Unmanaged<Stack>.fromOpaque(pointer).takeUnretainedValue()
            }
            let stack = Stack()
            pthread_setspecific(stackKey, Unmanaged.passRetained(stack).toOpaque())
            return stack
        }
        /// The implicit transaction, when one is open.
        var implicit: Level?
        var observerInstalled = false
    }
    static let state = State()

    /// Begins a transaction; balanced by `commit()`.
    open class func begin() {
        state.lock.lock()
        let stack = State.threadStack
        if stack.levels.isEmpty { stack.number &+= 1 }
        stack.levels.append(Level())
        state.lock.unlock()
    }

    /// Ends the innermost transaction; the outermost commit sends every change to the server.
    open class func commit() {
        state.lock.lock()
        defer { state.lock.unlock() }
        guard !state.levels.isEmpty else {
            // A commit without begin commits the implicit transaction, as Core Animation tolerates.
            commitToContexts()
            return
        }
        if state.levels.count == 1 {
            // The outermost commit sends everything, the implicit transaction's changes included. It
            // runs before the level is closed, so layout during the commit sees its settings.
            commitToContexts()
            for hook in state.levels[0].commitHooks { hook() }
        }
        state.levels.removeLast().completion.close()
    }

    /// Commits the implicit transaction now, unless an explicit transaction is open (then its outermost
    /// commit will send the changes).
    open class func flush() {
        state.lock.lock()
        defer { state.lock.unlock() }
        if state.levels.isEmpty { commitToContexts() }
    }

    /// Acquires the transaction lock, which guards layer-tree changes made from several threads.
    open class func lock() { state.lock.lock() }

    /// Releases the lock taken by `lock()`.
    open class func unlock() { state.lock.unlock() }

    /// Takes the transaction lock if that needs no waiting (the calling thread may already hold it);
    /// true when taken, to be released with `unlock()`.
    static func tryLock() -> Bool { state.lock.try() }

    // MARK: Settings

    /// The duration of implicit animations created in this transaction (default 0.25 s).
    open class func animationDuration() -> CFTimeInterval {
        value(forKey: kCATransactionAnimationDuration).flatMap(AnimationValue.number) ?? 0.25
    }

    /// Sets the duration of implicit animations created in the innermost transaction.
    open class func setAnimationDuration(_ dur: CFTimeInterval) {
        setValue(dur, forKey: kCATransactionAnimationDuration)
    }

    /// The timing function of implicit animations (nil: Core Animation's default curve).
    open class func animationTimingFunction() -> CAMediaTimingFunction? {
        value(forKey: kCATransactionAnimationTimingFunction) as? CAMediaTimingFunction
    }

    /// `animationDuration()` and `animationTimingFunction()` read together, under one lock and in
    /// one pass over the open levels (every implicit animation reads both).
    static func implicitAnimationSettings() -> (duration: CFTimeInterval, timingFunction: CAMediaTimingFunction?) {
        state.lock.lock()
        defer { state.lock.unlock() }
        // Each level's settings as read when they were set (no dictionary lookup or cast per change):
        // the innermost level that sets one decides, a value of the wrong type reading as none.
        var duration: Double??
        var function: CAMediaTimingFunction??
        for level in State.threadStack.levels.reversed() {
            if duration == nil { duration = level.animationDuration }
            if function == nil { function = level.animationTimingFunction }
            if duration != nil && function != nil { break }
        }
        if duration == nil, let implicit = state.implicit { duration = implicit.animationDuration }
        if function == nil, let implicit = state.implicit { function = implicit.animationTimingFunction }
        return ((duration ?? nil) ?? 0.25, function ?? nil)
    }

    /// Sets the timing function of implicit animations created in the innermost transaction.
    open class func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        setValue(function, forKey: kCATransactionAnimationTimingFunction)
    }

    /// Whether actions (implicit animations) are off for changes in this transaction.
    open class func disableActions() -> Bool {
        // `value(forKey: kCATransactionDisableActions)` read as a Bool, from each level's value as it
        // was read when set: the innermost level that set one decides (every property change asks).
        state.lock.lock()
        defer { state.lock.unlock() }
        for level in State.threadStack.levels.reversed() {
            if let flag = level.disablesActions { return flag }
        }
        return state.implicit?.disablesActions ?? false
    }

    /// Turns actions off (or on) for the innermost transaction.
    open class func setDisableActions(_ flag: Bool) {
        setValue(flag, forKey: kCATransactionDisableActions)
    }

    /// The completion block of the innermost transaction that set one (a nested transaction reads
    /// its enclosing transaction's block, as on Apple platforms); the latest when several were set.
    open class func completionBlock() -> (() -> Void)? {
        state.lock.lock()
        defer { state.lock.unlock() }
        return innermostCompletionBlock()
    }

    /// Adds a block to run on the main thread once every animation added in the innermost
    /// transaction, and in the transactions nested in it, has finished or been removed (right after
    /// the commit if there are none).
    ///
    /// As on Apple platforms, a second block in the same transaction runs as well as the first, and
    /// nil cancels nothing that was set before; after nil, `completionBlock()` reads nil (GNUstep's
    /// QuartzCore tests run on macOS, issue 24).
    open class func setCompletionBlock(_ block: (() -> Void)?) {
        state.lock.lock()
        defer { state.lock.unlock() }
        if let block { currentLevel().completion.add(block) } else { currentLevel().completion.addNil() }
    }

    /// The latest block set in the innermost level that had one set, or nil when the latest set
    /// there was nil. Caller holds the lock.
    static func innermostCompletionBlock() -> (() -> Void)? {
        _ = currentLevel()
        for level in ([state.implicit].compactMap { $0 } + state.levels).reversed() {
            if level.completion.latestWasNil { return nil }
            if let block = level.completion.blocks.last { return block }
        }
        return nil
    }

    /// The value of `key` in the innermost transaction that set it.
    open class func value(forKey key: String) -> Any? {
        state.lock.lock()
        defer { state.lock.unlock() }
        if key == kCATransactionCompletionBlock { return innermostCompletionBlock() }
        // Innermost first: the thread's explicit levels, then the implicit transaction (read on
        // every property change, so no array of the levels is built).
        for level in State.threadStack.levels.reversed() {
            if let v = level.values[key] { return v }
        }
        return state.implicit?.values[key]
    }

    /// Sets `key` in the innermost transaction (any key may be used).
    open class func setValue(_ anObject: Any?, forKey key: String) {
        state.lock.lock()
        defer { state.lock.unlock() }
        if key == kCATransactionCompletionBlock {
            if let block = anObject as? () -> Void { currentLevel().completion.add(block) }
            return
        }
        currentLevel().values[key] = anObject
    }

    /// The innermost level, opening the implicit transaction when no transaction is open.
    static func currentLevel() -> Level {
        if let level = state.levels.last { return level }
        openImplicit()
        return state.implicit!
    }

    /// Every open level, whose completion waits for an animation added now.
    static func openCompletionGroups() -> [CompletionGroup] {
        state.lock.lock()
        defer { state.lock.unlock() }
        _ = currentLevel()
        // Built in one array: every implicit animation asks for its groups.
        let levels = state.levels
        var groups: [CompletionGroup] = []
        groups.reserveCapacity(levels.count + 1)
        if let implicit = state.implicit { groups.append(implicit.completion) }
        for level in levels { groups.append(level.completion) }
        return groups
    }

    // MARK: Commit

    /// Records a change to some layer tree; opens the implicit transaction if none is open. The commit
    /// walks each context's tree and sends what differs from what the server was sent.
    static func treeDidChange() {
        state.lock.lock()
        defer { state.lock.unlock() }
        if state.levels.isEmpty { openImplicit() }
    }

    /// Notes a change to `layer`'s model. On a thread with no explicit transaction open, the change
    /// joins the implicit one; otherwise it belongs to the thread's transaction, and the layer is held
    /// for it: another thread's commit or flush leaves the layer as the server has it until this
    /// transaction's outermost commit (each thread's transactions are its own, as on Apple platforms).
    static func layerDidChange(_ layer: CALayer) {
        state.lock.lock()
        defer { state.lock.unlock() }
        let stack = State.threadStack
        if stack.levels.isEmpty {
            openImplicit()
        } else {
            layer.hold(for: stack)
        }
    }

    /// Holds `layer` for the calling thread's open explicit transaction, if it has one, before a
    /// change is stored: another thread's commit then never sees the new value without the hold (the
    /// change is marked, and the version bumped, only after the store).
    /// Returns true when it held the layer (a transaction is open on the thread): `layerDidChange`
    /// would then hold it again and nothing more, so the setter leaves it out.
    @discardableResult
    static func holdForOpenTransaction(_ layer: CALayer) -> Bool {
        state.lock.lock()
        defer { state.lock.unlock() }
        let stack = State.threadStack
        guard !stack.levels.isEmpty else { return false }
        layer.hold(for: stack)
        return true
    }

    static func openImplicit() {
        guard state.implicit == nil else { return }
        state.implicit = Level()
        installRunLoopObserver()
    }

    /// Lays out every live context's tree (`layoutTreeIfNeeded()`), displays the layers of each tree
    /// that need display (`CAContext.displayLayers()`), then sends the changes of the finished
    /// transaction, layout's and drawing's included, to each context and closes the implicit transaction.
    /// Caller holds the lock.
    static func commitToContexts() {
        let contexts = CAContext.liveContexts()
        // Layout first (its changes belong to this commit), then encoding, as Core Animation does.
        for context in contexts { context.layer?.layoutTreeIfNeeded() }
        for context in contexts { context.displayLayers() }
        let implicit = state.implicit
        state.implicit = nil
        for context in contexts { context.commitChanges() }
        implicit?.completion.close()
    }

    /// Installs, once, an observer that commits the implicit transaction before the main run loop sleeps.
    static func installRunLoopObserver() {
        guard !state.observerInstalled, Thread.isMainThread else { return }
        state.observerInstalled = true
        let activities = CFRunLoopActivity([.beforeWaiting, .exit]).rawValue
        let observer = CFRunLoopObserverCreateWithHandler(nil, activities, true, Int.max) { _, _ in
            CATransaction.state.lock.lock()
            defer { CATransaction.state.lock.unlock() }
            if CATransaction.state.implicit != nil && CATransaction.state.levels.isEmpty {
                CATransaction.commitToContexts()
            }
        }
        CFRunLoopAddObserver(CFRunLoopGetMain(), observer, kCFRunLoopCommonModes)
    }
}

/// The animations a transaction level is waiting for, and the block to run when they are done.
///
/// The block runs once, on the main thread, after the level is closed (committed) and every
/// animation registered with it has finished or been removed.
final class CompletionGroup: @unchecked Sendable {
    /// The blocks set on the level, in the order they were set; all of them run.
    private(set) var blocks: [() -> Void] = []
    private var pending = 0
    private var closed = false
    private var fired = false

    /// Whether the latest block set on the level was nil (what `completionBlock()` then reads).
    private(set) var latestWasNil = false

    /// Adds a block to run when the group is done. Caller holds the transaction lock.
    func add(_ block: @escaping () -> Void) {
        blocks.append(block)
        latestWasNil = false
    }

    /// Records that nil was set: the blocks set before still run. Caller holds the transaction lock.
    func addNil() {
        latestWasNil = true
    }

    /// One more animation to wait for.
    func register() {
        CATransaction.lock()
        pending += 1
        CATransaction.unlock()
    }

    /// An animation this group waited for has ended.
    func animationEnded() {
        CATransaction.lock()
        pending -= 1
        CATransaction.unlock()
        fireIfDone()
    }

    /// The transaction level was committed.
    func close() {
        CATransaction.lock()
        closed = true
        CATransaction.unlock()
        fireIfDone()
    }

    private func fireIfDone() {
        CATransaction.lock()
        let ready = closed && pending <= 0 && !fired
        if ready { fired = true }
        let blocks = ready ? self.blocks : []
        CATransaction.unlock()
        if !blocks.isEmpty { MainThreadDispatcher.post { for block in blocks { block() } } }
    }
}
