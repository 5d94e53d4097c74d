import CVulkanXcb
import Glibc
import LaminaServer

extension WindowOutput {
    /// The epoll descriptor: readable when the X server sent something or the frame timer expired.
    public var eventFileDescriptor: Int32? { poller }

    /// Arms the frame timer for the refresh at media time `time` (at once when it has passed).
    public func requestFrame(at time: Double) {
        timer.arm(at: time)
    }

    /// Handles every X event already sent, without blocking: `WM_DELETE_WINDOW` or the window's
    /// `DestroyNotify` closes the output, `ConfigureNotify` records a new size for the swapchain;
    /// a failed connection closes it too. `Expose` and a new size ask for a redraw
    /// (`takeRedrawRequest()`). Returns the timer's frame event, if it expired.
    public func handleEvents() -> [FrameEvent] {
        while let event = xcb_poll_for_event(events.connection) {
            defer { free(event) }
            handle(UnsafeRawPointer(event), type: Int32(event.pointee.response_type & 0x7f))
        }
        if events.hasFailed { markClosed(destroyingWindow: false) }
        return timer.take()
    }

    /// Whether the window was exposed or resized since the last call (its pixels are gone), and
    /// forgets it: the server then presents the current frame again at the next refresh.
    public func takeRedrawRequest() -> Bool {
        defer { redrawRequested = false }
        return redrawRequested
    }

    /// Handles one X event of type `type`.
    func handle(_ event: UnsafeRawPointer, type: Int32) {
        switch type {
        case XCB_CLIENT_MESSAGE:
            let message = event.load(as: xcb_client_message_event_t.self)
            if message.window == window, message.type == protocolsAtom, message.data.data32.0 == deleteAtom {
                markClosed(destroyingWindow: true)
            }
        case XCB_DESTROY_NOTIFY:
            if event.load(as: xcb_destroy_notify_event_t.self).window == window {
                markClosed(destroyingWindow: false)
            }
        case XCB_CONFIGURE_NOTIFY:
            let configure = event.load(as: xcb_configure_notify_event_t.self)
            let size = (Int(configure.width), Int(configure.height))
            if configure.window == window, size != windowSize {
                windowSize = size
                lock.withLock { resized = true }
                redrawRequested = true
            }
        case XCB_EXPOSE:
            // The X server filled the exposed part with the background: the frame must be shown again.
            if event.load(as: xcb_expose_event_t.self).window == window { redrawRequested = true }
        default:
            break
        }
    }

    /// Records that the window has closed, destroying it first when it still exists.
    func markClosed(destroyingWindow: Bool) {
        let first = lock.withLock {
            defer { closed = true }
            return !closed
        }
        guard first, destroyingWindow, !events.hasFailed else { return }
        xcb_destroy_window(events.connection, window)
        xcb_flush(events.connection)
    }
}
