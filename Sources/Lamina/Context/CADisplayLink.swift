import Foundation

/// A timer that fires in step with the render server's frames (Apple's `CADisplayLink`).
///
/// While at least one display link is added and not paused, every connected `CAContext` asks its
/// server for a `frame` event at each refresh; the callback runs on the main thread (like every
/// Lamina callback) just after the frame at `timestamp` was presented, with `targetTimestamp` the
/// time of the next one. Missed frames are skipped, not queued.
///
/// Linux has no Objective-C selectors, so the target/selector form takes a method reference:
/// `CADisplayLink(target: self, selector: MyView.step)`.
open class CADisplayLink: NSObject, @unchecked Sendable {
    /// The presentation time of the frame that triggered the callback.
    open private(set) var timestamp: CFTimeInterval = 0
    /// The presentation time of the next frame.
    open private(set) var targetTimestamp: CFTimeInterval = 0
    /// The refresh interval between frames.
    open private(set) var duration: CFTimeInterval = 0
    /// The callback rate wanted; 0 (the default) means every frame. Rates below the display's
    /// skip frames (30 on a 60 Hz display calls back at every other frame).
    open var preferredFramesPerSecond: Int = 0
    /// Deprecated alias: frames between callbacks (1 = every frame).
    open var frameInterval: Int {
        get { preferredFramesPerSecond > 0 ? max(1, Int((60.0 / Double(preferredFramesPerSecond)).rounded())) : 1 }
        set { preferredFramesPerSecond = newValue > 0 ? max(1, 60 / newValue) : 0 }
    }
    /// Whether callbacks are suspended.
    open var isPaused = false {
        didSet { DisplayLinkCenter.update() }
    }

    let callback: (CADisplayLink) -> Void
    var lastFired: Double?

    /// A display link that calls `selector` on `target` (a method reference taking the link).
    /// The target is held strongly until `invalidate()`, as on Apple platforms.
    public init<Target: AnyObject>(target: Target, selector: @escaping (Target) -> (CADisplayLink) -> Void) {
        callback = { link in selector(target)(link) }
        super.init()
    }

    /// A display link that calls `selector` on `target`, a method that takes no argument (the
    /// closest Linux spelling of a `#selector` naming a method without parameters):
    /// `CADisplayLink(target: self, selector: MyView.tick)` for `func tick()`. The target is held
    /// strongly until `invalidate()`, as on Apple platforms.
    public init<Target: AnyObject>(target: Target, selector: @escaping (Target) -> () -> Void) {
        callback = { _ in selector(target)() }
        super.init()
    }

    /// A display link that calls `handler` at each frame (a Lamina addition).
    public init(handler: @escaping (CADisplayLink) -> Void) {
        callback = handler
        super.init()
    }

    /// Starts the display link. The run loop and mode are accepted for source compatibility;
    /// callbacks always run on the main thread.
    open func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
        DisplayLinkCenter.add(self)
    }

    /// Takes the display link out of the run loop mode it was added to, so its callbacks stop until
    /// it is added again. The run loop and mode are accepted for source compatibility: a link runs in
    /// one mode at a time in Lamina.
    open func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) {
        DisplayLinkCenter.remove(self)
    }

    /// Stops the display link for good and releases its target.
    open func invalidate() {
        DisplayLinkCenter.remove(self)
    }

    /// Called on the main thread for each frame event.
    func tick(time: Double, targetTime: Double) {
        guard !isPaused else { return }
        let interval = targetTime - time
        // A frame before the last one fired comes from another clock (`DisplayLinkCenter.takesFrame`):
        // it fires, and the rate counts from it.
        if preferredFramesPerSecond > 0, let last = lastFired, interval > 0, time > last {
            let wanted = 1 / Double(preferredFramesPerSecond)
            // Fire when at least the wanted period (less half a frame) has passed.
            if time - last < wanted - interval / 2 { return }
        }
        lastFired = time
        timestamp = time
        targetTimestamp = targetTime
        duration = interval
        callback(self)
    }
}

/// The running display links and the frame events that drive them.
enum DisplayLinkCenter {
    final class State: @unchecked Sendable {
        var links: [CADisplayLink] = []
        /// The frame time of the last frame event taken, and when (on this process's clock) it came.
        var lastFrameTime: Double = -.infinity
        var lastFrameArrival: Double = -.infinity
        var enabled = false
        /// A tick is queued for the main thread and has not run yet.
        var tickPending = false
    }
    static let state = State()

    static func add(_ link: CADisplayLink) {
        CATransaction.lock()
        if !state.links.contains(where: { $0 === link }) { state.links.append(link) }
        CATransaction.unlock()
        update()
    }

    static func remove(_ link: CADisplayLink) {
        CATransaction.lock()
        state.links.removeAll { $0 === link }
        CATransaction.unlock()
        update()
    }

    /// Turns frame events on in every context while an unpaused link exists or a layer is redrawn
    /// at every frame (`LayerDisplayQueue.animated`), off otherwise.
    static func update() {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        let wanted = state.links.contains { !$0.isPaused } || LayerDisplayQueue.hasAnimatedLayers
        guard wanted != state.enabled else { return }
        state.enabled = wanted
        for context in CAContext.liveContexts() { context.setFrameEvents(wanted) }
    }

    static func contextConnected(_ context: CAContext) {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        if state.enabled { context.setFrameEvents(true) }
    }

    /// How long the frame events taken must have stopped before a frame event older than the last one
    /// is taken, as coming from a server with another clock.
    static let clockChangeDelay = 0.5

    /// Whether a frame event for `time` that arrives at `now` (this process's clock) ticks the links.
    ///
    /// Several contexts may report the same refresh: only a frame newer than the last one taken is.
    /// But servers need not share a clock (an in-process server on a test's manual clock, which
    /// reads 100 s on a machine up for less): one frame from a clock ahead of the others would
    /// otherwise hold back every link until they caught up with it. So once no frame has been taken
    /// for `clockChangeDelay`, a frame more than that older than the last is taken too, and the
    /// links follow its clock from then on.
    static func takesFrame(at time: Double, arrivingAt now: Double) -> Bool {
        if time > state.lastFrameTime { return true }
        return now - state.lastFrameArrival > clockChangeDelay && state.lastFrameTime - time > clockChangeDelay
    }

    /// A frame event arrived (applied by the connection, transaction lock held, never on its reader
    /// thread): tick the links once per frame time on the main thread, then redraw the layers whose
    /// animations need display.
    static func frame(time: Double, targetTime: Double, from context: CAContext) {
        CATransaction.lock()
        defer { CATransaction.unlock() }
        let now = CACurrentMediaTime()
        guard takesFrame(at: time, arrivingAt: now) else { return }
        state.lastFrameTime = time
        state.lastFrameArrival = now
        // A busy main thread misses frames: while a tick waits to run, later frames are skipped.
        guard !state.tickPending else { return }
        state.tickPending = true
        MainThreadDispatcher.post {
            let links = CATransaction.state.lock.withLock {
                state.tickPending = false
                return state.links
            }
            for link in links { link.tick(time: time, targetTime: targetTime) }
            LayerDisplayQueue.frame()
        }
    }
}
