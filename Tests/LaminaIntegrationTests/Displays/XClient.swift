import CVulkanXcb
import Foundation
import Glibc
import Lamina

/// A test's own connection to an X server: finds a window by title, reads its pixels
/// (`xcb_get_image`), asks it to close as a window manager would (`WM_DELETE_WINDOW`).
final class XClient {
    /// Why a request failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let connection: OpaquePointer
    let root: xcb_window_t

    /// Connects to `display`.
    init(display: String) throws {
        var screenNumber: Int32 = 0
        connection = xcb_connect(display, &screenNumber)!
        guard xcb_connection_has_error(connection) == 0,
            let screen = xcb_setup_roots_iterator(xcb_get_setup(connection)).data
        else {
            xcb_disconnect(connection)
            throw Failure(description: "cannot connect to the X display \(display)")
        }
        root = screen.pointee.root
    }

    deinit {
        xcb_disconnect(connection)
    }

    /// The atom named `name`.
    func atom(_ name: String) throws -> xcb_atom_t {
        let cookie = xcb_intern_atom(connection, 0, UInt16(name.utf8.count), name)
        guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else {
            throw Failure(description: "cannot intern \(name)")
        }
        defer { free(reply) }
        return reply.pointee.atom
    }

    /// The top-level windows whose `WM_NAME` is `title`.
    func windows(titled title: String) -> [xcb_window_t] {
        guard let tree = xcb_query_tree_reply(connection, xcb_query_tree(connection, root), nil) else { return [] }
        defer { free(tree) }
        let children = UnsafeBufferPointer(
            start: xcb_query_tree_children(tree), count: Int(xcb_query_tree_children_length(tree)))
        return children.filter { self.title(of: $0) == title }
    }

    /// The window's `WM_NAME`, or nil when it has none (or no longer exists).
    func title(of window: xcb_window_t) -> String? {
        let cookie = xcb_get_property(
            connection, 0, window, XCB_ATOM_WM_NAME.rawValue, XCB_ATOM_STRING.rawValue, 0, 256)
        guard let reply = xcb_get_property_reply(connection, cookie, nil) else { return nil }
        defer { free(reply) }
        let length = Int(xcb_get_property_value_length(reply))
        guard length > 0, let value = xcb_get_property_value(reply) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: value, count: length), as: UTF8.self)
    }

    /// Whether `window` still exists.
    func exists(_ window: xcb_window_t) -> Bool {
        let cookie = xcb_get_window_attributes(connection, window)
        guard let reply = xcb_get_window_attributes_reply(connection, cookie, nil) else { return false }
        free(reply)
        return true
    }

    /// The window's pixels as the X server has them (depth 24, 32 bits per pixel, BGRX), as an
    /// opaque image.
    func image(of window: xcb_window_t, width: Int, height: Int) throws -> CGImage {
        let cookie = xcb_get_image(
            connection, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), window, 0, 0, UInt16(width), UInt16(height),
            UInt32.max)
        guard let reply = xcb_get_image_reply(connection, cookie, nil) else {
            throw Failure(description: "xcb_get_image of window \(window) failed")
        }
        defer { free(reply) }
        let count = Int(xcb_get_image_data_length(reply))
        guard reply.pointee.depth == 24, count == width * height * 4, let data = xcb_get_image_data(reply) else {
            throw Failure(description: "unexpected image: depth \(reply.pointee.depth), \(count) bytes")
        }
        let bgrx = UnsafeBufferPointer(start: data, count: count)
        var rgba = [UInt8](repeating: 255, count: count)
        for p in 0..<(width * height) {
            rgba[p * 4] = bgrx[p * 4 + 2]
            rgba[p * 4 + 1] = bgrx[p * 4 + 1]
            rgba[p * 4 + 2] = bgrx[p * 4]
        }
        return CGImage(width: width, height: height, premultipliedRGBA: rgba)!
    }

    /// Destroys `window`, as another client may (its owner gets `DestroyNotify`).
    func destroy(_ window: xcb_window_t) {
        xcb_destroy_window(connection, window)
        xcb_flush(connection)
    }

    /// Resizes `window` as a window manager would (`ConfigureWindow`).
    func resize(_ window: xcb_window_t, width: Int, height: Int) {
        let values: [UInt32] = [UInt32(width), UInt32(height)]
        xcb_configure_window(
            connection, window, UInt16(XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue), values)
        xcb_flush(connection)
    }

    /// Maps a window of its own with a white background over the screen's rectangle at (`x`, `y`) of
    /// `width`×`height` (override-redirect: no window manager moves it) and returns it; what it
    /// covers is lost until its owner draws it again.
    func cover(x: Int, y: Int, width: Int, height: Int) -> xcb_window_t {
        let screen = xcb_setup_roots_iterator(xcb_get_setup(connection)).data!.pointee
        let window = xcb_generate_id(connection)
        let values: [UInt32] = [screen.white_pixel, 1]
        xcb_create_window(
            connection, CXCB_COPY_FROM_PARENT_DEPTH, window, root, Int16(x), Int16(y), UInt16(width),
            UInt16(height), 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.root_visual,
            XCB_CW_BACK_PIXEL.rawValue | XCB_CW_OVERRIDE_REDIRECT.rawValue, values)
        xcb_map_window(connection, window)
        xcb_flush(connection)
        return window
    }

    /// Clears all of `window` to its background and has the X server send its owner `Expose`, as
    /// when something uncovers it (`ClearArea` with exposures).
    func clear(_ window: xcb_window_t) {
        xcb_clear_area(connection, 1, window, 0, 0, 0, 0)
        xcb_flush(connection)
    }

    /// Sends `window` the `WM_DELETE_WINDOW` message a window manager sends when the user closes it
    /// (ICCCM §4.2.8.1): a `ClientMessage` of type `WM_PROTOCOLS` to the window's owner.
    func askToClose(_ window: xcb_window_t) throws {
        var message = xcb_client_message_event_t()
        message.response_type = UInt8(XCB_CLIENT_MESSAGE)
        message.format = 32
        message.window = window
        message.type = try atom("WM_PROTOCOLS")
        message.data.data32 = (try atom("WM_DELETE_WINDOW"), 0, 0, 0, 0)
        withUnsafeBytes(of: &message) { bytes in
            _ = xcb_send_event(
                connection, 0, window, 0, bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        xcb_flush(connection)
    }
}
