import Foundation
import LaminaCore

/// A message from the server to a client.
public enum ServerMessage: Sendable, Hashable {
    /// Handshake reply: the server's protocol version, its software version, the client's context
    /// id (unique while the server runs) and the displays.
    case welcome(version: UInt32, serverVersion: String, contextId: UInt32, displays: [DisplayInfo])
    /// The transaction was validated and applied to the render tree.
    case commitApplied(serial: UInt64)
    /// The transaction's effects, and those of every earlier transaction, reached the display in the
    /// frame presented at `time` (media time). One event covers all commits since the last one.
    case commitPresented(serial: UInt64, time: Double)
    /// A fatal error; the server closes the connection after sending it.
    case error(code: ServerErrorCode, message: String)
    /// A captured frame; its pixels (BGRA, premultiplied, `stride` bytes per row) arrive in the attached memfd.
    case captureResult(requestID: UInt64, width: UInt32, height: UInt32, stride: UInt32, time: Double)
    /// Reply to `ping`.
    case pong(requestID: UInt64, serverVersion: String)
    /// Reply to `describeTree`.
    case treeDescription(requestID: UInt64, text: String)
    /// Animations of this client started or finished in the frame presented at their time.
    case animationEvents([AnimationEvent])
    /// A frame was presented at `time`; the next is due at `targetTime` (sent while frame events are on).
    case frame(time: Double, targetTime: Double)
    /// Reply to `stats`: one entry per client the asker may see (all of them for the server's
    /// user or root, else only the asker), in connection order.
    case statsReply(requestID: UInt64, clients: [ClientStatistics])
    /// The set of displays changed (an output closed): the displays that remain, as in `welcome`.
    case displaysChanged([DisplayInfo])
    /// Reply to `requestExportToken`: the token that authorizes showing this client's tree in
    /// another client's host layer (the same token every time this client asks).
    case exportToken(requestID: UInt64, token: UInt64)
    /// A problem that does not end the connection (unlike `error`): the text names what is at fault,
    /// for example a host layer whose token does not match the context it names.
    case warning(code: ServerErrorCode, message: String)
    /// Reply to `frameRecords`: what each of the display's newest frames cost, oldest first.
    case frameRecordsReply(requestID: UInt64, records: [FrameRecord])
    /// What of a `CATiledLayer` the display shows: `rect`, in the layer's own coordinates, and
    /// `scale`, the device pixels per point of the layer there. Sent when a presented frame shows
    /// it otherwise than the last report said (docs/protocol.md §5).
    case tiledLayerView(layer: LayerID, rect: CGRect, scale: Double)
    /// A presented frame, at media time `time`, is the first to show surface `id`'s current revision
    /// (its contents since the last `surfaceChanged`), or the surface after frames that did not show
    /// it. Sent only for surfaces the client asked feedback on (`surfaceFeedback`), once per frame
    /// and surface, whichever display showed it.
    case surfacePresented(id: UInt64, time: Double)
    /// No display shows surface `id` any more, and every frame that sampled it has finished on the
    /// device: the client may write it again. Sent once after each time it was shown (for surfaces
    /// with feedback).
    case surfaceReleased(id: UInt64)
    /// Surface `id`'s current revision (its contents since the last `surfaceChanged`) was replaced
    /// before any frame showed it: a presented frame found it sampled by no display and named by
    /// nothing in the client's tree (no layer's `contents`, no animation), so no frame will show it.
    /// Sent at most once per revision, only for surfaces with feedback, before the frame's
    /// `commitPresented`.
    case surfaceDiscarded(id: UInt64)
    /// The server cannot take the well-formed registration of surface or device image `id`
    /// (`registerSurface`, `registerDeviceImage`): `code` (an error code, §10) and `message` name why.
    /// Not fatal: the client stays connected, and what names the id afterwards (a `contents`, a
    /// `surfaceChanged`, an animation) is left out of its commits, so its layers keep what they showed.
    case surfaceRefused(id: UInt64, code: ServerErrorCode, message: String)
    /// Reply to `requestSurfaceCapabilities`: what the server's device accepts for surfaces and
    /// Vulkan-device drawables.
    case surfaceCapabilities(requestID: UInt64, SurfaceCapabilities)
}
