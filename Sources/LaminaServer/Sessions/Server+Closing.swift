extension Server {
    /// Stops drawing `display`, whose output has closed (`Output.isClosed`: its window was closed, its
    /// connector unplugged), and logs it. The display keeps its number, and clients their roots on
    /// it, until a display added later takes that number (`addOutput`); it gets no more frames, its
    /// event source is no longer watched and captures of it fail with `badDisplay`. A frame being drawn on it finishes (or
    /// fails) as usual. Every greeted client gets `displaysChanged` with the displays that remain.
    /// Clients waiting for it to present a commit get `commitPresented` once their
    /// other displays have presented it. The other displays and every client go on.
    func close(_ display: Display) {
        guard !display.isClosed else { return }
        display.isClosed = true
        display.needsFrame = false
        display.nextFrameTime = nil
        logger.notice(
            "display closed: it gets no more frames",
            metadata: ["display": "\(display.id)", "mode": "\(display.output.mode)"])
        let now = clock.now()
        // Every greeted client learns the displays that remain (the hot-plug event).
        let remaining = displayInfos
        for session in sessions where session.greeted && session.failure == nil {
            deliver(.displaysChanged(remaining), to: session)
        }
        for session in sessions where session.awaitingDisplays.remove(display.id) != nil {
            if session.awaitingDisplays.isEmpty, let serial = session.unpresentedSerial {
                session.unpresentedSerial = nil
                deliver(.commitPresented(serial: serial, time: now), to: session)
            }
        }
    }
}
