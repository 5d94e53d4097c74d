import LaminaProtocol

extension Server {
    /// Adds a display, while running, showing the output `make` builds (a connector plugged in), and
    /// returns its number, or nil when all `WireLimits.maxDisplays` numbers belong to open displays
    /// (logged; `make` is not called).
    ///
    /// The number (`displayNumber(for:)`): that of the closed display whose output had the new
    /// output's `attachment` (the same connector plugged in again), else the next one never given,
    /// else, once every number has been given, the lowest of a closed display. A closed display
    /// whose number is given again is replaced: the trees clients show on that number (their roots
    /// on it, `CAContext(display:)`) are drawn on the new output from its first frame, with no
    /// commit; its home clients' animations and display links go on with its frames, and their
    /// commits not presented yet that show there are presented once it has shown them. The new
    /// display's schedule starts afresh, and a frame of the closed one that is still to be reported
    /// is ignored. Its output is released on the frame worker at the loop's next turn.
    ///
    /// Call it on the loop's thread (from a `watch(fileDescriptor:handler:)` handler, or between
    /// `pollOnce` calls). A display whose output has closed is closed first (`close`), as the loop
    /// would after the handlers. `make` runs on the frame worker's thread once the frame being drawn
    /// is done, so the output's render targets are built while nothing else uses the renderer; what
    /// it throws is rethrown and no display is added. The display presents its first frame at the
    /// next tick of its refresh grid, clients may set roots on it and capture it, and every greeted
    /// client gets `displaysChanged` with the open displays, in the order of their numbers.
    @discardableResult
    public func addOutput(_ make: () throws -> any Output) rethrows -> UInt32? {
        closeGoneOutputs()
        guard displays.count < WireLimits.maxDisplays || displays.contains(where: \.isClosed) else {
            logger.error(
                "display not added: every display number is taken",
                metadata: ["displays": "\(displays.count)", "limit": "\(WireLimits.maxDisplays)"])
            return nil
        }
        let output = try frames.perform(make)
        let number = displayNumber(for: output.attachment)
        let display: Display
        if number < displays.count {
            let closed = displays[number]
            display = Display(id: UInt32(number), output: output, instance: closed.instance + 1)
            displays[number] = display
            // The closed output's render targets are the renderer's: let go of them on its thread.
            retiredDisplays.append(closed)
            // A commit not presented yet that shows on this number (one that touched only closed
            // displays waits for them) is presented once the new display has shown it.
            for session in sessions where session.unpresentedSerial != nil {
                if displaysShowing(session).contains(display.id) { session.awaitingDisplays.insert(display.id) }
            }
        } else {
            display = Display(id: UInt32(number), output: output)
            displays.append(display)
        }
        logger.notice(
            "display added",
            metadata: [
                "display": "\(display.id)", "mode": "\(output.mode)",
                "attachment": "\(output.attachment ?? "none")",
                "number": "\(display.instance == 0 ? "new" : "given again (\(display.instance))")",
            ])
        let open = displayInfos
        for session in sessions where session.greeted && session.failure == nil {
            deliver(.displaysChanged(open), to: session)
        }
        return display.id
    }

    /// The number a display added now, whose output has `attachment`, takes: the lowest closed
    /// display's whose output had the same (non-nil) attachment; else the next number never given
    /// (`displays.count`) while there is one; else the lowest closed display's. Call only when one
    /// of these exists.
    func displayNumber(for attachment: String?) -> Int {
        if let attachment,
            let same = displays.firstIndex(where: { $0.isClosed && $0.output.attachment == attachment })
        {
            return same
        }
        if displays.count < WireLimits.maxDisplays { return displays.count }
        return displays.firstIndex(where: \.isClosed) ?? displays.count
    }

    /// Closes the displays whose output has gone (its window closed, its connector unplugged) and
    /// that the server has not closed yet. On the loop's thread.
    func closeGoneOutputs() {
        for display in displays where !display.isClosed && display.output.isClosed { close(display) }
    }

    /// Lets go of the displays that `addOutput` replaced, on the frame worker once the frame being
    /// drawn is done: their outputs' render targets belong to the renderer's thread. Called at the
    /// start of a turn of the loop, when the last turn's references to them are gone.
    func releaseRetiredDisplays() {
        guard !retiredDisplays.isEmpty else { return }
        frames.perform { retiredDisplays.removeAll() }
    }

    /// Adds a display showing `output`, built already; as `addOutput(_:)` with a closure.
    @discardableResult
    public func addOutput(_ output: any Output) -> UInt32? {
        addOutput { output }
    }

    /// Watches `fileDescriptor` in the loop: when it is readable the loop calls `handler` on its own
    /// thread, after that turn's client messages and output events and before it looks for closed
    /// outputs, so a handler may add displays (`addOutput`) or make outputs close (a hot-plug
    /// monitor). The descriptor stays its owner's; it must stay open while the server runs, and
    /// `handler` must read what made it readable (else the loop spins). The server keeps `handler` for
    /// its life: capture the server in it weakly. Call it on the loop's thread.
    public func watch(fileDescriptor: Int32, handler: @escaping () -> Void) {
        watches.append((fileDescriptor, handler))
    }
}
