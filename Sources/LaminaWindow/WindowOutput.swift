import CLaminaShims
import CVulkanXcb
import Foundation
import LaminaOutputs
import LaminaServer
import LaminaVulkan

/// An output that shows its display in an X11 window, for development on a desktop: selected by
/// `--output window` (1280×720 at 60 Hz) or `--output window:WIDTHxHEIGHT[@HZ]`.
///
/// On `$DISPLAY` it makes and maps a window of the mode's size titled "laminad" that takes part in
/// `WM_DELETE_WINDOW`, and a FIFO swapchain on it (`VK_KHR_xcb_surface`). `present` draws the list
/// into the output's own image, as the offscreen output does, then copies that image into a
/// swapchain image and queues it (`VulkanRenderer.present(_:on:)`); `capture` draws into a scratch
/// image and reads it back, never touching the window.
///
/// **Frame clock.** The server asks for frames on the refresh grid of the mode's rate (`@HZ`, 60
/// by default) through a frame timer, as offscreen; presentation then paces them: in FIFO order
/// `present` blocks the frame worker until the X server takes an image, and the server starts no new
/// frame of a display while one is being drawn, so frames never outrun the window. Use the monitor's
/// rate as `@HZ`: animations are evaluated on that grid.
///
/// **Size.** The display's mode stays the size given. When the window is resized the swapchain is
/// made again at the window's size and the frame is copied unscaled at the top left (the rest is
/// black, or cut off).
///
/// **Exposure.** When part of the window is uncovered, the window is mapped again (un-minimised) or
/// resized, the X server fills it with black and sends `Expose` (or `ConfigureNotify`): the output
/// asks the server for a redraw (`takeRedrawRequest()`), which presents the current frame again at
/// the next refresh though nothing in the scene changed.
///
/// **Closing.** When the window manager asks the window to close (`WM_DELETE_WINDOW`), or the
/// window is destroyed, or the X connection fails, `isClosed` becomes true and the server stops
/// this display only (`Server.close`). A closed window is destroyed.
///
/// **Threads.** `eventFileDescriptor`, `requestFrame(at:)`, `handleEvents()` and
/// `takeRedrawRequest()` run on the server loop's thread and use the event connection, the frame
/// timer and `redrawRequested`; `present` and `capture` run on the frame worker and use the
/// renderer, the swapchain and the images. They share only `closed` and `resized`, behind `lock`.
/// The swapchain talks to the X server on a connection of its own, so Vulkan's replies never take
/// events off the loop's connection.
public final class WindowOutput: Output {
    /// The display's size and refresh rate (the window's initial size).
    public let mode: DisplayMode
    let renderer: VulkanRenderer
    /// The loop's X connection: the window, its properties and its events.
    let events: XcbConnection
    /// The window.
    let window: xcb_window_t
    let protocolsAtom: xcb_atom_t
    let deleteAtom: xcb_atom_t
    /// The frame clock.
    let timer: FrameTimer
    /// An epoll descriptor watching the event connection and the timer: the output's event source.
    let poller: Int32
    /// The worker's: the swapchain (on a connection of its own) and the images drawn into.
    let swapchain: VulkanSwapchain
    let visible: any RenderTarget
    let scratch: any RenderTarget
    /// Guards `closed` and `resized`, which both threads use.
    let lock = NSLock()
    var closed = false
    /// Whether the window's size changed since the worker last looked.
    var resized = false
    /// The window's size as the X server last reported it (loop's thread).
    var windowSize: (width: Int, height: Int)
    /// Whether the window was exposed or resized since the server last asked (loop's thread).
    var redrawRequested = false
    /// The X server the window is on, as `$DISPLAY` named it: the display's connector.
    public let connector: String

    /// "window": displays of this output are named `window-N`.
    public var kind: String { "window" }

    /// Connects to `display` (the value of `$DISPLAY`; nil or empty is an error), makes and maps the
    /// window, its swapchain on `renderer` (whose device must have been made with `windowSystem`), and
    /// the output's images. Errors name the display and what failed.
    public init(mode: DisplayMode, renderer: VulkanRenderer, display: String?) throws {
        guard let display, !display.isEmpty else {
            throw WindowOutputError("DISPLAY is not set: the window output needs an X server")
        }
        guard mode.width <= Int(UInt16.max), mode.height <= Int(UInt16.max) else {
            throw WindowOutputError("a window of \(mode.width)x\(mode.height) is larger than X allows")
        }
        self.mode = mode
        self.renderer = renderer
        connector = display
        windowSize = (mode.width, mode.height)
        events = try XcbConnection(display: display)
        protocolsAtom = try events.atom("WM_PROTOCOLS")
        deleteAtom = try events.atom("WM_DELETE_WINDOW")
        window = Self.makeWindow(on: events, mode: mode, protocols: protocolsAtom, delete: deleteAtom)
        Self.waitUntilMapped(window, on: events)
        timer = try FrameTimer()
        poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard poller >= 0 else { throw WindowOutputError("epoll_create1 failed: errno \(errno)") }
        for fd in [events.fileDescriptor, timer.fileDescriptor] {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = fd
            guard epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event) == 0 else {
                let error = errno
                close(poller)
                throw WindowOutputError("epoll_ctl failed: errno \(error)")
            }
        }
        do {
            let presentation = try XcbConnection(display: display)
            let window = window
            swapchain = try VulkanSwapchain(
                renderer: renderer, width: mode.width, height: mode.height, keepAlive: presentation
            ) { instance in
                var info = VkXcbSurfaceCreateInfoKHR()
                info.sType = VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR
                info.connection = presentation.connection
                info.window = window
                var surface: VkSurfaceKHR?
                let result = vkCreateXcbSurfaceKHR(instance, &info, nil, &surface)
                guard result == VK_SUCCESS, let surface else {
                    throw WindowOutputError("vkCreateXcbSurfaceKHR failed: VkResult \(result.rawValue)")
                }
                return surface
            }
            visible = try renderer.makeTarget(width: mode.width, height: mode.height)
            scratch = try renderer.makeTarget(width: mode.width, height: mode.height)
        } catch {
            close(poller)
            throw error
        }
    }

    deinit {
        close(poller)
    }

    /// Makes the window on `connection`'s screen at `mode`'s size, titles it, joins it to
    /// `WM_DELETE_WINDOW`, selects its structure and exposure events and maps it.
    static func makeWindow(
        on x: XcbConnection, mode: DisplayMode, protocols: xcb_atom_t, delete: xcb_atom_t
    ) -> xcb_window_t {
        let window = xcb_generate_id(x.connection)
        let mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue | XCB_EVENT_MASK_EXPOSURE.rawValue
        let values: [UInt32] = [x.screen.black_pixel, mask]
        xcb_create_window(
            x.connection, CXCB_COPY_FROM_PARENT_DEPTH, window, x.screen.root, 0, 0, UInt16(mode.width),
            UInt16(mode.height), 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), x.screen.root_visual,
            XCB_CW_BACK_PIXEL.rawValue | XCB_CW_EVENT_MASK.rawValue, values)
        x.setProperty(window, XCB_ATOM_WM_NAME.rawValue, type: XCB_ATOM_STRING.rawValue, bytes: Array("laminad".utf8))
        x.setProperty(
            window, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue,
            bytes: Array("laminad\u{0}laminad\u{0}".utf8))
        var deleteAtom = delete
        xcb_change_property(
            x.connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, protocols, XCB_ATOM_ATOM.rawValue, 32, 1,
            &deleteAtom)
        xcb_map_window(x.connection, window)
        xcb_flush(x.connection)
        return window
    }

    /// Waits (at most two seconds) until the X server reports `window` mapped, so the first frame
    /// is not drawn into a window that is not on screen yet. Events that come first are dropped:
    /// nothing has been drawn to react to.
    static func waitUntilMapped(_ window: xcb_window_t, on x: XcbConnection) {
        let deadline = Date(timeIntervalSinceNow: 2)
        while Date() < deadline, !x.hasFailed {
            while let event = xcb_poll_for_event(x.connection) {
                defer { free(event) }
                let mapped = Int32(event.pointee.response_type & 0x7f) == XCB_MAP_NOTIFY
                if mapped, UnsafeRawPointer(event).load(as: xcb_map_notify_event_t.self).window == window { return }
            }
            var fd = pollfd(fd: x.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = Glibc.poll(&fd, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
        }
    }

    /// Whether the window has closed (see the type's notes).
    public var isClosed: Bool { lock.withLock { closed } }

    /// Draws `list` into the output's image and shows it in the window. Throws once the window is
    /// closed, or when presenting fails (the server retries at the next refresh).
    public func present(_ list: DisplayList) throws {
        let (isClosed, wasResized) = lock.withLock {
            defer { resized = false }
            return (closed, resized)
        }
        guard !isClosed else { throw WindowOutputError("the window is closed") }
        if wasResized { swapchain.setNeedsRecreation() }
        try renderer.render(list, into: visible)
        try renderer.present(visible, on: swapchain, damage: list.damage)
    }

    /// Draws `list` into the scratch image and reads it back; the window is unchanged.
    public func capture(_ list: DisplayList) throws -> Bitmap {
        try renderer.render(list, into: scratch)
        return try renderer.readPixels(scratch)
    }
}
