import Foundation

/// When a `CAVulkanLayer`'s drawables are shown and given back: the commits of presents, the
/// server's feedback (`surfacePresented`, `surfaceReleased`), timed presents and the pool's
/// registrations (docs/surfaces.md, "Pacing and feedback").
extension CAVulkanLayer {
    /// The key of the contents animation that shows a timed present from its media time on.
    static let timedPresentKey = "lamina.timedPresent"

    /// The context whose sent tree holds the layer, if any (the transaction lock is held).
    private var sendingContext: CAContext? { CAContext.liveContexts().first { $0.sent[layerID] != nil } }

    /// The media time from which `target` wants its drawable shown, or nil for at once.
    private func startTime(of target: PresentTarget) -> CFTimeInterval? {
        switch target {
        case .now: return nil
        case .at(let time): return time
        case .afterMinimumDuration(let duration):
            let shownAt = pool.withLock { onscreen?.presentedTime ?? 0 }
            return shownAt > 0 ? shownAt + duration : nil
        }
    }

    /// Commits the first waiting drawable as the layer's contents, unless one is committed and not
    /// yet presented: at once, or for a timed present as a discrete `contents` animation beginning at
    /// its media time, which the server shows from the first frame at or after it. Remembers the
    /// commit's serial and context to learn when a frame showed it.
    func commitNext() {
        pool.lock()
        guard committed == nil, !committing, !waiting.isEmpty else {
            pool.unlock()
            return
        }
        let (next, target) = waiting.removeFirst()
        committing = true
        pool.unlock()
        let start = startTime(of: target)
        // A buffer shown before holds a new frame: the commit carries `surfaceChanged` for it.
        next.noteChanged()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        if let start {
            let animation = CAKeyframeAnimation(keyPath: "contents")
            animation.values = [next.contentsObject]
            animation.keyTimes = [0]
            animation.calculationMode = .discrete
            animation.beginTime = start
            animation.duration = 1e-3
            animation.fillMode = .forwards
            animation.isRemovedOnCompletion = false
            add(animation, forKey: Self.timedPresentKey)
        } else {
            removeAnimation(forKey: Self.timedPresentKey)
            contents = next.contentsObject
        }
        CATransaction.commit()
        CATransaction.flush()
        CATransaction.lock()
        let context = sendingContext
        let serial = context.map { $0.nextSerial - 1 } ?? 0
        if let context { pin(next, in: context) }
        CATransaction.unlock()
        pool.lock()
        committing = false
        guard let context, serial > 0 else {
            pool.unlock()
            // Shown on no display: dropped.
            next.finish(at: 0)
            commitNext()
            return
        }
        let refused = earlyRefused.contains(next.contentsID)
        earlyRefused = []
        guard !refused else {
            pool.unlock()
            // The server refused its buffer while the commit was sent: never shown.
            next.finish(at: 0)
            commitNext()
            return
        }
        committed = Committed(drawable: next, context: context, serial: serial, timed: start != nil, start: start)
        let early = earlyPresented.removeValue(forKey: next.contentsID)
        earlyPresented = [:]
        pool.unlock()
        if let early { surfacePresented(id: next.contentsID, time: early, in: context) }
        if let start { scheduleTimedPresentCheck(of: next, at: start) }
    }

    /// Once media time `start` has come, looks whether the timed present of `drawable` is still
    /// waiting for its `surfacePresented` (on the present queue, never blocking).
    private func scheduleTimedPresentCheck(of drawable: CAVulkanDrawable, at start: CFTimeInterval) {
        let box = WeakVulkanLayer(layer: self)
        let delay = max(0, start - CACurrentMediaTime())
        Self.presentQueue.asyncAfter(deadline: .now() + delay) { [weak drawable] in
            guard let drawable else { return }
            box.layer?.timedPresentIsDue(drawable)
        }
    }

    /// The media time of `drawable`'s timed present has come and no frame has said it showed it yet
    /// (a layer that no display shows never gets one): the present settles, its surface becomes the
    /// layer's model `contents` in a commit of its own and its animation goes (on a display this
    /// changes nothing visible: the animation already shows that surface), and from then on it waits
    /// as a present at once does, for its `surfacePresented` or the `commitPresented` of that commit.
    /// The later presents thus never wait behind a frame that will not come. Client and server read
    /// one clock (`CACurrentMediaTime()`), so the server's frame that presents the commit is at or
    /// after the present's time.
    private func timedPresentIsDue(_ drawable: CAVulkanDrawable) {
        pool.lock()
        guard let current = committed, current.drawable === drawable, current.timed, !committing,
            let start = current.start
        else {
            pool.unlock()
            return
        }
        // Woken early (the clock's resolution): look again at the time.
        if CACurrentMediaTime() < start {
            pool.unlock()
            return scheduleTimedPresentCheck(of: drawable, at: start)
        }
        // No other present is committed while this one settles.
        committing = true
        pool.unlock()
        settleTimedPresent(drawable)
        CATransaction.lock()
        let context = sendingContext
        let serial = context.map { $0.nextSerial - 1 } ?? 0
        CATransaction.unlock()
        pool.lock()
        committing = false
        guard let current = committed, current.drawable === drawable, current.timed else {
            // A frame showed it meanwhile: `surfacePresented` took it and commits the next.
            pool.unlock()
            return
        }
        guard let context, current.context === context, serial > 0 else {
            // Its context no longer holds the layer: nothing will present it.
            committed = nil
            pool.unlock()
            drawable.finish(at: 0)
            commitNext()
            return
        }
        committed = Committed(drawable: drawable, context: context, serial: serial, timed: false, start: nil)
        pool.unlock()
    }

    /// `present()` with `presentsWithTransaction`: the drawable becomes `contents` in the current
    /// (explicit or implicit) transaction, without an animation; a frame showing it presents it.
    func presentInTransaction(_ drawable: CAVulkanDrawable) {
        CATransaction.lock()
        // The new frame belongs to the app's transaction: marked under the lock, held for it first,
        // so that no other thread's commit sends it alone.
        let hold = CATransaction.holdSurfaceChange(drawable.contentsID)
        drawable.noteChanged()
        let context = sendingContext
        let serial = context?.nextSerial ?? 0
        // The pool keeps the buffer registered from its present on (a present at once does from its
        // commit on). A fresh buffer's only other use is this `contents`: a later commit replacing it
        // before any frame showed it would release its registration, the server would forget it
        // and send no `surfaceDiscarded`, and the frame presenting that commit would count the
        // drawable as shown (`commitPresented`).
        if let context { pin(drawable, in: context) }
        if let hold, context != nil {
            // In an explicit transaction the commit that sends it is that transaction's outermost one:
            // another thread may commit (and take the next serial) before.
            let box = WeakVulkanLayer(layer: self)
            CATransaction.afterOutermostCommit { box.layer?.settleHeldPresent(drawable, hold: hold) }
        }
        CATransaction.unlock()
        var dropped: [CAVulkanDrawable] = []
        pool.withLock {
            // A present earlier in the same transaction is replaced before it is sent: dropped here
            // (Apple's presentedTime 0). One replaced by a later commit is the server's to discard.
            if let hold, context != nil {
                dropped = heldPresents.filter { $0.hold === hold && $0.context.context === context }.map(\.drawable)
                heldPresents.removeAll { $0.hold === hold && $0.context.context === context }
                heldPresents.append((drawable, WeakContext(context: context), hold))
                // Bounded: transactions that present more than the pool holds keep the newest.
                if heldPresents.count > maximumDrawableCount { dropped.append(heldPresents.removeFirst().drawable) }
            } else {
                if serial > 0 {
                    dropped = transactionPresents.filter { $0.serial == serial && $0.context.context === context }
                        .map(\.drawable)
                    transactionPresents.removeAll { $0.serial == serial && $0.context.context === context }
                }
                transactionPresents.append((drawable, WeakContext(context: context), serial))
                // Bounded: a transaction that presents more than the pool holds keeps the newest.
                if transactionPresents.count > maximumDrawableCount { transactionPresents.removeFirst() }
            }
            assigningInTransaction = true
        }
        contents = drawable.contentsObject
        pool.withLock { assigningInTransaction = false }
        for d in dropped { d.finish(at: 0) }
    }

    /// The explicit transaction `hold` that presented `drawable` has sent its changes (its outermost
    /// commit; the transaction lock is held): the drawable now waits for the frame presenting that
    /// commit, whose serial is the context's last.
    func settleHeldPresent(_ drawable: CAVulkanDrawable, hold: TransactionHold) {
        pool.lock()
        guard let i = heldPresents.firstIndex(where: { $0.drawable === drawable && $0.hold === hold }) else {
            pool.unlock()
            return
        }
        let entry = heldPresents.remove(at: i)
        guard let context = entry.context.context else {
            pool.unlock()
            drawable.finish(at: 0)
            return
        }
        transactionPresents.append((drawable, entry.context, context.nextSerial - 1))
        if transactionPresents.count > maximumDrawableCount { transactionPresents.removeFirst() }
        pool.unlock()
    }

    /// `surfaceRefused(id)` reached `context`: the server cannot take the pool buffer `id` (its layer
    /// keeps its last good frame). The drawables presented with it are never shown: `presentedTime`
    /// 0, their presented handlers run; the buffer is dropped from the pool once free, without
    /// waiting for a `surfaceReleased` the server sends no more for a refused id (one refused after
    /// a frame showed it, when the server could not copy a new frame of it).
    func surfaceRefused(id: UInt64, in context: CAContext) {
        pool.lock()
        var dropped: [CAVulkanDrawable] = []
        var next = false
        if slots.contains(where: { $0?.contentsID == id }) || deviceSlots.contains(where: { $0?.contentsID == id }) {
            refusedSurfaces.insert(id)
        }
        for i in slots.indices where slots[i]?.contentsID == id { slotAwaitingRelease[i] = false }
        deviceImagesAwaitingRelease.remove(id)
        dropped = transactionPresents.filter { $0.drawable.contentsID == id }.map(\.drawable)
        transactionPresents.removeAll { $0.drawable.contentsID == id }
        dropped += heldPresents.filter { $0.drawable.contentsID == id }.map(\.drawable)
        heldPresents.removeAll { $0.drawable.contentsID == id }
        if let current = committed, current.drawable.contentsID == id, current.context === context {
            dropped.append(current.drawable)
            committed = nil
            next = true
        } else if committing {
            earlyRefused.insert(id)
        }
        pool.broadcast()
        pool.unlock()
        for d in dropped { d.finish(at: 0) }
        guard next else { return }
        let box = WeakVulkanLayer(layer: self)
        Self.presentQueue.async { box.layer?.commitNext() }
    }

    /// `surfaceDiscarded(id)` reached `context`: the drawable of that surface, presented with a
    /// transaction or committed, was replaced before any frame showed it. Its `presentedTime` is 0
    /// and its presented handlers run, as Apple's for a drawable that was never presented.
    func surfaceDiscarded(id: UInt64, in context: CAContext) {
        pool.lock()
        let dropped: CAVulkanDrawable
        var next = false
        if let i = transactionPresents.firstIndex(where: {
            $0.drawable.contentsID == id && $0.context.context === context
        }) {
            dropped = transactionPresents.remove(at: i).drawable
        } else if let current = committed, current.drawable.contentsID == id, current.context === context {
            dropped = current.drawable
            committed = nil
            next = true
        } else {
            pool.unlock()
            return
        }
        pool.unlock()
        dropped.finish(at: 0)
        guard next else { return }
        let box = WeakVulkanLayer(layer: self)
        Self.presentQueue.async { box.layer?.commitNext() }
    }

    /// Keeps the drawable's surface registered in `context` while the pool holds it (one use of it),
    /// so that showing the buffer again registers nothing (the transaction lock is held).
    func pin(_ drawable: CAVulkanDrawable, in context: CAContext) {
        if let image = drawable.deviceImage {
            let pinned = pool.withLock {
                guard deviceSlots.contains(where: { $0 === image }), devicePins[image.contentsID]?.context !== context
                else { return true }
                devicePins[image.contentsID] = WeakContext(context: context)
                return false
            }
            if !pinned { context.useImage(image.contentsID, by: 1) }
            return
        }
        let pinned = pool.withLock {
            guard drawable.surface != nil, drawable.slot < slots.count, slots[drawable.slot] === drawable.surface,
                slotPinnedIn[drawable.slot].context !== context
            else { return true }
            slotPinnedIn[drawable.slot] = WeakContext(context: context)
            return false
        }
        if !pinned { context.useImage(drawable.surface.contentsID, by: 1) }
    }

    /// Gives back the use `pin` kept of device image `id` in the context that showed it (the image
    /// left the pool): the context's next commit releases it once nothing shows it (the pool's lock
    /// is not held).
    func unpinDeviceImage(_ id: UInt64, from context: CAContext?) {
        guard let context else { return }
        CATransaction.lock()
        context.useImage(id, by: -1)
        CATransaction.unlock()
    }

    /// Drops slot `i` of the pool (a buffer of another size, or the layer going away): its surface
    /// is no longer kept registered, so the context's next commit releases it once nothing shows it.
    func dropSlot(_ i: Int) {
        let (surface, context) = pool.withLock { () -> (IOSurface?, CAContext?) in
            guard i < slots.count else { return (nil, nil) }
            defer {
                if let id = slots[i]?.contentsID { refusedSurfaces.remove(id) }
                slots[i] = nil
                slotInUse[i] = false
                slotAwaitingRelease[i] = false
                slotPinnedIn[i] = WeakContext()
            }
            return (slots[i], slotPinnedIn[i].context)
        }
        guard let surface else { return }
        Self.forgetPoolSurface(surface.contentsID)
        guard let context else { return }
        CATransaction.lock()
        context.useImage(surface.contentsID, by: -1)
        CATransaction.unlock()
    }

    /// `surfacePresented(id, time)` reached `context`: the drawable of that surface, committed or
    /// presented with a transaction, is on screen from the frame at `time`; the one it replaced goes
    /// back once the app lets go of it and the server releases it.
    func surfacePresented(id: UInt64, time: CFTimeInterval, in context: CAContext) {
        pool.lock()
        if let slot = slots.firstIndex(where: { $0?.contentsID == id }) {
            slotAwaitingRelease[slot] = true
        } else if deviceSlots.contains(where: { $0?.contentsID == id }) {
            deviceImagesAwaitingRelease.insert(id)
        } else {
            pool.unlock()
            return
        }
        let shown: CAVulkanDrawable
        var timed = false
        if let current = committed, current.drawable.contentsID == id, current.context === context {
            shown = current.drawable
            timed = current.timed
            committed = nil
        } else if let i = transactionPresents.firstIndex(where: { $0.drawable.contentsID == id }) {
            shown = transactionPresents.remove(at: i).drawable
        } else {
            if committing { earlyPresented[id] = time }
            pool.unlock()
            return
        }
        var replaced = onscreen
        onscreen = shown
        pool.unlock()
        shown.finish(at: time)
        replaced = nil
        withExtendedLifetime(replaced) {}
        let settle = timed
        let box = WeakVulkanLayer(layer: self)
        let contextBox = WeakContext(context: context)
        Self.presentQueue.async {
            guard let layer = box.layer, let context = contextBox.context else { return }
            // A timed present's animation gives way to the model value it shows (no visible change).
            if settle { layer.settleTimedPresent(shown) }
            CATransaction.lock()
            layer.pin(shown, in: context)
            CATransaction.unlock()
            layer.commitNext()
        }
    }

    /// Makes a timed present's surface the layer's `contents` and removes its animation.
    func settleTimedPresent(_ drawable: CAVulkanDrawable) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        contents = drawable.contentsObject
        removeAnimation(forKey: Self.timedPresentKey)
        CATransaction.commit()
    }

    /// `surfaceReleased(id)`: no frame uses the surface any more; its slot is free once its
    /// drawable object is gone.
    func surfaceReleased(id: UInt64) {
        pool.withLock {
            if let slot = slots.firstIndex(where: { $0?.contentsID == id }) {
                slotAwaitingRelease[slot] = false
            } else if deviceImagesAwaitingRelease.remove(id) == nil {
                return
            }
            releaseCounts[id, default: 0] += 1
            pool.broadcast()
        }
    }

    /// How many `surfaceReleased` the pool got for surface `id` (a test's counter).
    func releases(of id: UInt64) -> Int { pool.withLock { releaseCounts[id] ?? 0 } }

    /// `commitPresented(serial, time)` reached `context`: a committed present (not timed) whose commit
    /// that frame presents without showing its surface (the layer is on no display's screen) counts
    /// as shown at `time`, as before feedback existed; nothing samples it.
    func commitPresented(serial: UInt64, time: CFTimeInterval, in context: CAContext) {
        pool.lock()
        // Presents with a transaction whose commit this frame presented without showing them.
        let unshown = transactionPresents.filter { $0.context.context === context && serial >= $0.serial }
        transactionPresents.removeAll { $0.context.context === context && serial >= $0.serial }
        guard let current = committed, current.context === context, serial >= current.serial, !current.timed else {
            pool.unlock()
            for entry in unshown { entry.drawable.finish(at: time) }
            return
        }
        committed = nil
        var replaced = onscreen
        onscreen = current.drawable
        pool.unlock()
        for entry in unshown { entry.drawable.finish(at: time) }
        current.drawable.finish(at: time)
        replaced = nil
        withExtendedLifetime(replaced) {}
        let box = WeakVulkanLayer(layer: self)
        Self.presentQueue.async { box.layer?.commitNext() }
    }

    /// `context` reconnected to a new server: no frame of the old one samples the pool's surfaces.
    func contextReconnected(_ context: CAContext) {
        pool.withLock {
            for i in slots.indices where slotPinnedIn[i].context === context { slotAwaitingRelease[i] = false }
            deviceImagesAwaitingRelease = []
            pool.broadcast()
        }
    }

    /// Tells every live layer that `context`'s commits up to `serial` reached a frame at `time`.
    static func commitPresented(serial: UInt64, time: Double, in context: CAContext) {
        for layer in liveLayers { layer.commitPresented(serial: serial, time: time, in: context) }
    }

    /// Hands the server's feedback on surface `id` to the layer whose pool holds it.
    static func surfaceFeedback(id: UInt64, presentedAt time: Double?, in context: CAContext) {
        for layer in liveLayers {
            if let time {
                layer.surfacePresented(id: id, time: time, in: context)
            } else {
                layer.surfaceReleased(id: id)
            }
        }
    }

    /// Hands the server's `surfaceRefused` to the layer whose pool holds surface `id`.
    static func surfaceRefused(id: UInt64, in context: CAContext) {
        for layer in liveLayers { layer.surfaceRefused(id: id, in: context) }
    }

    /// Hands the server's `surfaceDiscarded` to the layer whose pool holds surface `id`.
    static func surfaceDiscarded(id: UInt64, in context: CAContext) {
        for layer in liveLayers { layer.surfaceDiscarded(id: id, in: context) }
    }

    /// Tells every live layer that `context` reconnected.
    static func contextReconnected(_ context: CAContext) {
        for layer in liveLayers { layer.contextReconnected(context) }
    }
}
