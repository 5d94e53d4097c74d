import LaminaCore
import LaminaProtocol

extension ClientSession {
    /// Whether the rest of the client's advancement can be applied now (`Server.continueAdvancing()`).
    var isReadyToAdvance: Bool { advancing != nil && commitInFlight == nil && failure == nil && outbox.isEmpty }
}

extension Server {
    /// The scene of `display` at `time`, composed of `only`'s tree (every client's when nil) in
    /// stacking order (`stackedSessions`), with the exported trees its host layers may show, as the
    /// frame worker draws it.
    func scene(of display: Display, time: Double, only: ClientSession? = nil) -> FrameWorker.Scene {
        let shown = stackedSessions.filter { only == nil || $0 === only }
        return FrameWorker.Scene(
            trees: shown.map(\.tree), sessions: shown.map(\.id), contextIds: shown.map(\.contextId),
            exported: exportedTrees, display: display.id, displayInstance: display.instance,
            width: display.output.mode.width, height: display.output.mode.height,
            clearColor: configuration.clearColor, time: time)
    }

    /// Starts drawing `display`'s waiting frame, for its scheduled time (or the newest tick of the
    /// refresh grid, when that time has passed by more than a refresh), on the frame worker, from
    /// the trees as they are now; `finishFrame` goes on once it is presented. Does nothing while a
    /// frame of `display` is being drawn: the waiting one starts after it.
    func startFrame(on display: Display) {
        guard display.frameInFlight == nil, !display.isClosed else { return }
        let now = clock.now()
        // An output's frame event says which refresh the frame is shown at (a page flip's timestamp
        // plus a refresh on KMS); without one, the frame's scheduled tick.
        let scheduled = display.dueEventTime ?? display.nextFrameTime ?? now
        // A frame that starts late (the one before took longer than a refresh) shows the newest
        // refresh tick that has come, not a past one.
        let time = max(scheduled, (now / display.interval).rounded(.down) * display.interval)
        display.beginFrame(at: time, scheduledFor: scheduled)
        display.serialsInFlight = [:]
        for session in sessions {
            if let serial = session.unpresentedSerial { display.serialsInFlight[session.id] = serial }
        }
        var frame = scene(of: display, time: time)
        // The bookkeeping of the clients at home here advances with this frame, on the worker too.
        // A client whose last advancement is still being applied is advanced by a later frame.
        let advances = { (session: ClientSession) in
            session.homeDisplay == display.id && session.commitInFlight == nil && session.advancing == nil
        }
        let stacked = stackedSessions
        frame.advancing = stacked.map { advances($0) ? $0.id : nil }
        for session in sessions where session.exportToken != nil && advances(session) {
            frame.exported[session.contextId]?.advancing = true
        }
        frames.present(frame, on: display.output)
    }

    /// `frameRecords`: the newest `count` records of a display's presented frames (a closed display's
    /// too, until its number is given again).
    func sendFrameRecords(requestID: UInt64, display index: UInt32, count: UInt32, to session: ClientSession) throws {
        guard Int(index) < displays.count else {
            throw SessionError(.badDisplay, "frameRecords of display \(index), which does not exist")
        }
        guard count <= WireLimits.maxFrameRecords else {
            throw SessionError(
                .invalidValue, "frameRecords count \(count) is over the limit of \(WireLimits.maxFrameRecords)")
        }
        let records = displays[Int(index)].newestFrameRecords(Int(count))
        try send(.frameRecordsReply(requestID: requestID, records: records), to: session)
        // The newest frames' GPU times may be known by now: the next request sees them.
        frames.collectGPUTimes()
    }

    /// Goes on with what the frame worker finished: a presented frame or a capture.
    func finishDrawing(_ outcome: FrameWorker.Outcome) {
        switch outcome {
        case .presented(let id, let instance, let time, let error, let advancements, var record, let views):
            // A frame of a closed display whose number was given again since concerns no one.
            guard Int(id) < displays.count, displays[Int(id)].instance == instance else { return }
            let display = displays[Int(id)]
            if let error {
                // Retry at the next refresh tick.
                logger.error("frame failed", metadata: ["display": "\(display.id)", "error": "\(error)"])
                display.didFail(at: time)
            } else {
                record.missedDeadline = display.frameMissedDeadline(at: time, now: clock.now())
                display.keep(record)
                display.didPresent(at: time)
                finishFrame(on: display, at: time, advancements: advancements)
                reportTiledViews(views)
            }
            // An output's frame event for a frame asked for meanwhile found this one being drawn:
            // ask again (at once when its time has passed).
            if display.needsFrame, let next = display.nextFrameTime { display.setFrameTime(next) }
        case .gpuTimes(let times):
            for entry in times where Int(entry.display) < displays.count {
                let display = displays[Int(entry.display)]
                guard display.instance == entry.instance else { continue }
                display.setGPUTime(entry.milliseconds, ofFrameAt: entry.time)
            }
        case .surfaceFeedback(let events):
            deliver(events)
        case .captured(let sessionID, let requestID, let time, let result):
            capturesDrawing -= 1
            guard let session = sessions.first(where: { $0.id == sessionID }) else { return }
            session.capturesDrawing -= 1
            do {
                let frame: FrameWorker.CapturedFrame
                switch result {
                case .success(let captured): frame = captured
                case .failure(let error): throw SessionError(.internalError, "capture failed: \(error)")
                }
                try send(
                    .captureResult(
                        requestID: requestID, width: UInt32(frame.width), height: UInt32(frame.height),
                        stride: UInt32(frame.stride), time: time),
                    memory: frame.memory, to: session)
            } catch let error as SessionError {
                return fail(session, error)
            } catch {
                return fail(session, SessionError(.internalError, "\(error)"))
            }
            // An error that waited for this reply goes now.
            if let failure = session.failure, session.capturesDrawing == 0 { fail(session, failure) }
        }
    }

    /// Tells the clients a frame presented on `display` at `time` concerns: `commitPresented` once
    /// every display a commit touched has presented a frame that shows it, and, for the clients whose
    /// home display this is, animation events and display-link frames. Schedules the next frame while
    /// animations run or display links wait. `advancements` holds, by session, what advancing its
    /// animations to `time` found on the worker; it is applied to the tree as it is now.
    func finishFrame(on display: Display, at time: Double, advancements: [Int: RenderTree.Advancement]) {
        var another: Set<UInt32> = []
        var wake: [UInt32: Double] = [:]
        for session in sessions where session.failure == nil {
            // One event names the newest presented commit; every earlier one is presented too. A
            // commit applied while the frame was drawn is not in it: the next frame presents it.
            if let serial = session.unpresentedSerial, display.serialsInFlight[session.id] == serial,
                session.awaitingDisplays.remove(display.id) != nil, session.awaitingDisplays.isEmpty
            {
                session.unpresentedSerial = nil
                deliver(.commitPresented(serial: serial, time: time), to: session)
            }
            guard session.homeDisplay == display.id, session.failure == nil else { continue }
            // While a commit is on the worker the tree stays as it is (the worker's copy would lose
            // what advancing changed); its animations advance after the commit is installed. So do
            // those of a client that was not at home here, or had a commit on the worker, when the
            // frame started, or whose last advancement is still being applied.
            var (running, nextStart) = (!session.tree.animatedLayers.isEmpty, Double?.none)
            if session.commitInFlight == nil, session.advancing == nil, let found = advancements[session.id] {
                (running, nextStart) = (found.running, found.nextStart)
                session.advancing = found
                advance(session)
            }
            // The session's other displays follow its animations too (every display, when exported).
            let shown = displaysShowing(session).union([display.id])
            if let nextStart {
                for id in shown { wake[id] = min(wake[id] ?? nextStart, nextStart) }
            }
            if session.wantsFrames {
                deliver(.frame(time: time, targetTime: time + display.interval), to: session)
            }
            if running || session.wantsFrames { another.formUnion(shown) }
        }
        display.serialsInFlight = [:]
        onFramePresented?(display.id, time)
        for other in displays {
            let previous = other === display ? time : nil
            if another.contains(other.id) {
                scheduleFrame(on: other, after: previous)
            } else if let start = wake[other.id] {
                // Only animations that have not started yet: sleep until the first one starts.
                scheduleFrame(on: other, after: previous, notBefore: start)
            }
        }
    }

    /// Changes of a client's advancement applied in one turn of the loop at most; a turn also ends
    /// after `secondsPerTurn` of work, as a turn of the client's messages does (`serve`). With
    /// 250,000 animations on 200,000 layers a change cost several microseconds (hash lookups in
    /// tables too large for the caches), so a count alone let one turn run for tens of milliseconds
    /// and another client's ping wait hundreds.
    static let changesPerTurn = 20_000

    /// Changes applied, and events sent, per `animationEvents` message: a slice small enough that
    /// a turn's time is looked at often.
    static let changesPerMessage = 512

    /// Sends an event of a presented frame (`sendEvent`); a failure to send fails the client.
    func deliver(_ event: ServerMessage, to session: ClientSession) {
        guard session.failure == nil else { return }
        do {
            try sendEvent(event, to: session)
        } catch let error as SessionError {
            fail(session, error)
        } catch {
            fail(session, SessionError(.internalError, "\(error)"))
        }
    }

    /// Applies the client's unfinished advancement to its tree and sends the events, a message's
    /// worth at a time, until `changesPerTurn` changes are applied or `secondsPerTurn` spent, all
    /// are, or a message has to wait in the client's send queue: events are made only as fast as the
    /// client reads them, so they never overflow its queue. Returns whether any change was applied or
    /// look recorded.
    @discardableResult
    func advance(_ session: ClientSession) -> Bool {
        var applied = 0
        // Time spent, not media time (as in `serve`).
        let start = CACurrentMediaTime()
        while applied < Self.changesPerTurn, CACurrentMediaTime() - start < Self.secondsPerTurn,
            session.failure == nil, session.outbox.isEmpty, var found = session.advancing
        {
            let before = found.appliedCount + found.recordedLooks
            let events = session.tree.apply(&found, limit: Self.changesPerMessage)
            // Looks recorded in the schedule are work done too (they come after the changes).
            applied += found.appliedCount + found.recordedLooks - before
            session.advancing = found.isApplied ? nil : found
            if !events.isEmpty { deliver(.animationEvents(events), to: session) }
        }
        if applied > 0 { freeReleasedImages(of: session) }
        return applied > 0
    }

    /// Goes on with each client's unfinished advancement (`advance`), except for a client with a
    /// commit on the worker: its tree is replaced when the commit is installed, and the rest is
    /// applied to the new one. Returns whether any change was applied.
    func continueAdvancing() -> Bool {
        var applied = false
        for session in sessions where session.isReadyToAdvance {
            if advance(session) { applied = true }
        }
        return applied
    }

    /// `capture`: checks the display and time asked for, then starts drawing the capture.
    func captureRequested(requestID: UInt64, display index: UInt32, time: Double?, for session: ClientSession) throws {
        guard Int(index) < displays.count else {
            throw SessionError(.badDisplay, "capture of display \(index), which does not exist")
        }
        let display = displays[Int(index)]
        guard !display.isClosed else {
            throw SessionError(
                .badDisplay, "capture of display \(index), whose output (\(display.output.mode)) was closed")
        }
        if let time, !time.isFinite { throw SessionError(.invalidValue, "capture time is NaN or infinite") }
        try capture(requestID: requestID, display: display, time: time ?? clock.now(), for: session)
    }

    /// Starts drawing `display` for `session`'s capture request on the frame worker: with every
    /// client's trees for a peer of the server's user or root, with `session`'s own tree alone for
    /// any other user. The reply is sent once it is drawn (`finishDrawing`).
    func capture(
        requestID: UInt64, display: Display, time: Double, for session: ClientSession,
        subtree: FrameWorker.Subtree? = nil
    ) throws {
        // Replies are read once none is being drawn and the send queue is seen empty; until then
        // they count as in flight.
        if session.capturesDrawing == 0, session.outbox.isEmpty, session.socket.unreadBytes == 0 {
            budget.capturesRead(by: &session.budget)
        }
        let mode = display.output.mode
        let bytes = subtree.map { $0.width * $0.height * 4 } ?? mode.width * mode.height * 4
        do {
            try budget.sendCapture(bytes: bytes, for: &session.budget)
        } catch {
            throw SessionError(.limitExceeded, "capture \(requestID): \(error)")
        }
        // A layer's subtree is of the asking client's own tree, whoever asks.
        let everyone = subtree == nil && (session.peer?.seesEveryClient(serverUID: serverUID) ?? false)
        var scene = scene(of: display, time: time, only: everyone ? nil : session)
        if let subtree {
            // Its own tree even when it is exported (and so not stacked on any display).
            scene.trees = [session.tree]
            scene.sessions = [session.id]
            scene.contextIds = [session.contextId]
            scene.subtree = subtree
        }
        capturesDrawing += 1
        session.capturesDrawing += 1
        frames.capture(scene, on: display.output, sessionID: session.id, requestID: requestID)
    }

    /// Checks a `captureLayer` request and starts drawing the layer's subtree for `session` on the
    /// frame worker, in the scratch image of the client's home display (or, when that is closed,
    /// the first open display), which bounds the size.
    func captureLayer(
        requestID: UInt64, layer: LayerID, width: UInt32, height: UInt32, scale: Double, for session: ClientSession
    ) throws {
        guard session.tree.layers[layer] != nil else {
            throw SessionError(.unknownLayer, "captureLayer of layer \(layer), which this client does not have")
        }
        guard scale.isFinite, scale > 0, scale <= Double(WireLimits.maxCaptureSide) else {
            throw SessionError(
                .invalidValue, "captureLayer scale \(scale) is not finite and in (0, \(WireLimits.maxCaptureSide)]")
        }
        let home = Int(session.homeDisplay)
        let candidates = (home < displays.count ? [displays[home]] : []) + displays
        guard let display = candidates.first(where: { !$0.isClosed }) else {
            throw SessionError(.badDisplay, "captureLayer with every display's output closed")
        }
        let mode = display.output.mode
        guard width >= 1, height >= 1, Int(width) <= mode.width, Int(height) <= mode.height else {
            throw SessionError(
                .invalidValue,
                "captureLayer size \(width)x\(height) is not between 1x1 and display \(display.id)'s \(mode.width)x\(mode.height)"
            )
        }
        try capture(
            requestID: requestID, display: display, time: clock.now(), for: session,
            subtree: FrameWorker.Subtree(layer: layer, width: Int(width), height: Int(height), scale: scale))
    }
}
