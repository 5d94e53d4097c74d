import CVulkanXcb
import Glibc

/// A connection to an X server (`xcb_connect`), with its first screen: the owner of the handle,
/// disconnected in `deinit` (which also destroys the windows made on it).
///
/// libxcb is thread-safe; the window output still keeps each connection on one side: its event
/// connection on the server loop's thread, its presentation connection inside Vulkan on the frame
/// worker's.
final class XcbConnection {
    /// The `xcb_connection_t`.
    let connection: OpaquePointer
    /// The screen `display` names (its root window, visual and black pixel).
    let screen: xcb_screen_t
    /// The display name it was opened with, for messages.
    let display: String

    /// Connects to the X server at `display` (such as `:0`), the value of `$DISPLAY`.
    init(display: String) throws(WindowOutputError) {
        self.display = display
        var screenNumber: Int32 = 0
        let connection = xcb_connect(display, &screenNumber)!
        let error = xcb_connection_has_error(connection)
        guard error == 0 else {
            xcb_disconnect(connection)
            throw WindowOutputError("cannot connect to the X display '\(display)': \(Self.describe(error))")
        }
        var roots = xcb_setup_roots_iterator(xcb_get_setup(connection))
        for _ in 0..<max(0, Int(screenNumber)) where roots.rem > 0 { xcb_screen_next(&roots) }
        guard roots.rem > 0, let screen = roots.data?.pointee else {
            xcb_disconnect(connection)
            throw WindowOutputError("the X display '\(display)' has no screen \(screenNumber)")
        }
        self.connection = connection
        self.screen = screen
    }

    deinit {
        xcb_disconnect(connection)
    }

    /// The connection's socket, readable when the X server has sent something.
    var fileDescriptor: Int32 { xcb_get_file_descriptor(connection) }

    /// Whether the connection has failed (the X server went away); it is then unusable.
    var hasFailed: Bool { xcb_connection_has_error(connection) != 0 }

    /// The atom named `name`, made if it does not exist yet (waits for the server's reply).
    func atom(_ name: String) throws(WindowOutputError) -> xcb_atom_t {
        let cookie = xcb_intern_atom(connection, 0, UInt16(name.utf8.count), name)
        guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else {
            throw WindowOutputError("the X display '\(display)' did not intern the atom \(name)")
        }
        defer { free(reply) }
        return reply.pointee.atom
    }

    /// Sets the 8-bit property `property` of type `type` of `window` to `bytes`.
    func setProperty(_ window: xcb_window_t, _ property: xcb_atom_t, type: xcb_atom_t, bytes: [UInt8]) {
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 8, UInt32(bytes.count), bytes)
    }

    /// What an `xcb_connection_has_error` code means.
    static func describe(_ code: Int32) -> String {
        switch code {
        case 1: "the socket failed or the server is not running (XCB_CONN_ERROR)"
        case 2: "an extension is not supported (XCB_CONN_CLOSED_EXT_NOTSUPPORTED)"
        case 3: "out of memory (XCB_CONN_CLOSED_MEM_INSUFFICIENT)"
        case 4: "a request was too long (XCB_CONN_CLOSED_REQ_LEN_EXCEED)"
        case 5: "the display name could not be parsed (XCB_CONN_CLOSED_PARSE_ERR)"
        case 6: "the display has no such screen (XCB_CONN_CLOSED_INVALID_SCREEN)"
        case 7: "passing a file descriptor failed (XCB_CONN_CLOSED_FDPASSING_FAILED)"
        default: "error \(code)"
        }
    }
}
