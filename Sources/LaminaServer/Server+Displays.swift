import LaminaProtocol

extension Server {
    /// Adds a display, while running, showing the output `make` builds (a connector plugged in), and
    /// returns its number: the next one never given (numbers of closed displays are not reused), or
    /// nil when `WireLimits.maxDisplays` numbers have been given already (logged; `make` is not called).
    ///
    /// Call it on the loop's thread (from a `watch(fileDescriptor:handler:)` handler, or between
    /// `pollOnce` calls). `make` runs on the frame worker's thread once the frame being drawn is done,
    /// so the output's render targets are built while nothing else uses the renderer; what it throws
    /// is rethrown and no display is added. The display presents its first frame at the next tick of
    /// its refresh grid, clients may set roots on it and capture it, and every greeted client gets
    /// `displaysChanged` with the open displays, the new one last.
    @discardableResult
    public func addOutput(_ make: () throws -> any Output) rethrows -> UInt32? {
        guard displays.count < WireLimits.maxDisplays else {
            logger.error(
                "display not added: every display number is taken",
                metadata: ["displays": "\(displays.count)", "limit": "\(WireLimits.maxDisplays)"])
            return nil
        }
        let output = try frames.perform(make)
        let display = Display(id: UInt32(displays.count), output: output)
        displays.append(display)
        logger.notice("display added", metadata: ["display": "\(display.id)", "mode": "\(output.mode)"])
        let open = displayInfos
        for session in sessions where session.greeted && session.failure == nil {
            deliver(.displaysChanged(open), to: session)
        }
        return display.id
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
