import Foundation
import LaminaCore

/// A message from a client to the server.
public enum ClientMessage: Sendable, Hashable {
    /// The first message: the protocol version the client speaks, a name for logs, and what a
    /// context that reconnects after a server restart asks to keep.
    ///
    /// `contextId` is the context id the client had on the server that went away (0: none, a new
    /// context) and `exportToken` the export token it had there (0: none). The server gives the id
    /// back if it has never given it out itself, else a new one (with a `warning`); it keeps the
    /// token either way (docs/protocol.md §3.1).
    case hello(version: UInt32, clientName: String, contextId: UInt32 = 0, exportToken: UInt64 = 0)
    /// Operations to be held until the transaction's `commit`; lets a transaction exceed one message.
    case transactionPart([LayerOperation])
    /// The last part of a transaction: all held parts plus these operations are applied atomically.
    case commit(serial: UInt64, operations: [LayerOperation])
    /// Render `display` at media time `time` (nil: now) and reply with a `captureResult`.
    case capture(requestID: UInt64, display: UInt32, time: Double?)
    /// Renders layer `layer` of the asking client's own tree and its sublayers alone, with model
    /// values (no animations), into a `width`×`height` image, and replies with a `captureResult`:
    /// the layer's bounds origin at the image's top-left corner, its own transform, position and
    /// opacity not applied, one layer point `scale` pixels wide (`CALayer.render(in:)`).
    case captureLayer(requestID: UInt64, layer: LayerID, width: UInt32, height: UInt32, scale: Double)
    /// Asks for a `pong`.
    case ping(requestID: UInt64)
    /// Asks for the server's render trees as indented text.
    case describeTree(requestID: UInt64)
    /// Turns `frame` events on or off (a `CADisplayLink` is running); while on, the server
    /// produces a frame at every refresh.
    case frameEvents(enabled: Bool)
    /// Uploads image `id` (chosen by the client, never 0): `height` rows of `width` BGRA8
    /// premultiplied pixels, `stride` bytes apart, in the one sealed memfd the message carries.
    /// Layers then show it by id (`contents`); it is sent before the commit that first uses it.
    case uploadImage(id: UInt64, width: UInt32, height: UInt32, stride: UInt32)
    /// The client no longer uses image `id`; the server frees it once no frame draws it.
    case releaseImage(id: UInt64)
    /// Asks for a `statsReply`: the resources each client holds.
    case stats(requestID: UInt64)
    /// Sets the stacking level of this client's trees (`CAContext.level`): on each display, trees
    /// are drawn in ascending level, equal levels in connection order (older below). Finite.
    case setLevel(Float)
    /// Asks for an `exportToken`: the secret another client names, with this client's context id,
    /// to show this client's tree in a host layer (`CALayerHost`).
    case requestExportToken(requestID: UInt64)
    /// Asks for a `frameRecordsReply`: the newest `count` frames presented on `display` (at most
    /// `WireLimits.maxFrameRecords`, fewer when fewer were kept), oldest first.
    case frameRecords(requestID: UInt64, display: UInt32, count: UInt32)
    /// Registers shared surface `id` (an id of the image id space, never 0): `height` rows of `width`
    /// pixels of `format` (only `SurfaceFormat.bgra8`, premultiplied), `stride` bytes apart, in the
    /// one memfd the message carries, sealed against shrinking but not against writing. The client
    /// keeps writing the pixels; layers show them by id (`contents`) and a `surfaceChanged`
    /// operation says when a new frame of them is ready (docs/protocol.md §4.1). A bi-planar YCbCr
    /// format (`SurfaceFormat.isBiPlanarYCbCr`) carries `planes`: `stride` is then the luma plane's,
    /// and the encoding writes the planes after the format; other formats carry none.
    case registerSurface(
        id: UInt64, width: UInt32, height: UInt32, stride: UInt32, format: UInt32, planes: SurfacePlanes? = nil)
    /// The client no longer uses surface `id`; the server unmaps it once no frame draws it.
    case releaseSurface(id: UInt64)
    /// Asks for (`enabled`) or stops the server's feedback on registered surface `id`: a
    /// `surfacePresented` when a frame first shows a new revision of it, and a `surfaceReleased` once
    /// no frame shows it and the last that sampled it has finished on the device (docs/protocol.md
    /// §4.1). A registration starts without feedback; a new registration of the id (after
    /// `releaseSurface`, or on a new connection) asks again.
    case surfaceFeedback(id: UInt64, enabled: Bool)
    /// Asks for a `surfaceCapabilities` reply: the server's Vulkan device and driver, the row
    /// alignment of zero-copy surfaces and the formats of Vulkan-device drawables.
    case requestSurfaceCapabilities(requestID: UInt64)
    /// Registers a Vulkan image the client rendered on its own device (a `CAVulkanLayer` drawable),
    /// in the image id space: the one descriptor the message carries is the image's dedicated
    /// memory exported as an opaque fd; the server imports it with the same create info on its
    /// device, only when the device and driver UUIDs are its own (docs/protocol.md §4.2).
    /// `releaseSurface` releases it; `surfaceChanged` marks a new frame.
    case registerDeviceImage(DeviceImageDescription)
}

/// The pixel formats of shared surfaces, by their four-character codes.
public enum SurfaceFormat {
    /// 'BGRA' (0x42475241): 8 bits per channel, blue first in memory, premultiplied alpha, as
    /// Core Video's `kCVPixelFormatType_32BGRA`.
    public static let bgra8: UInt32 = 0x4247_5241
    /// '420v' (0x34323076): NV12, a plane of 8-bit luma (Y) and a plane of interleaved Cb, Cr at half
    /// the width and height, video range (Y 16–235, Cb and Cr 16–240), as Core Video's
    /// `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange`.
    public static let nv12VideoRange: UInt32 = 0x3432_3076
    /// '420f' (0x34323066): NV12 at full range (Y, Cb and Cr 0–255), as Core Video's
    /// `kCVPixelFormatType_420YpCbCr8BiPlanarFullRange`.
    public static let nv12FullRange: UInt32 = 0x3432_3066
    /// 'x420' (0x78343230): P010, NV12's layout with 16-bit samples holding a 10-bit value in their
    /// high bits (little-endian), video range (Y 64–940, Cb and Cr 64–960), as Core Video's
    /// `kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange`.
    public static let p010VideoRange: UInt32 = 0x7834_3230
    /// 'xf20' (0x78663230): P010 at full range (0–1023), as Core Video's
    /// `kCVPixelFormatType_420YpCbCr10BiPlanarFullRange`.
    public static let p010FullRange: UInt32 = 0x7866_3230

    /// Whether `format` is one of the bi-planar YCbCr formats (`registerSurface` carries planes).
    public static func isBiPlanarYCbCr(_ format: UInt32) -> Bool {
        format == nv12VideoRange || format == nv12FullRange || isTenBit(format)
    }

    /// Whether `format` is a bi-planar YCbCr format of 16-bit samples (P010: 'x420', 'xf20').
    public static func isTenBit(_ format: UInt32) -> Bool {
        format == p010VideoRange || format == p010FullRange
    }

    /// Whether `format` is a bi-planar YCbCr format at full range ('420f', 'xf20').
    public static func isFullRange(_ format: UInt32) -> Bool {
        format == nv12FullRange || format == p010FullRange
    }
}

/// Where the two planes of a bi-planar YCbCr surface lie in its memfd, the matrix that turns its YCbCr
/// into RGB and where its chroma samples sit (the wire's part of `registerSurface` for NV12 and P010).
public struct SurfacePlanes: Sendable, Hashable {
    /// The byte offset of the luma plane's first row.
    public var lumaOffset: UInt32
    /// The byte offset of the chroma plane's first row (pairs of Cb, Cr bytes).
    public var chromaOffset: UInt32
    /// Bytes from one chroma row to the next.
    public var chromaStride: UInt32
    /// The YCbCr to RGB matrix, by its ITU-T H.273 `MatrixCoefficients` code
    /// (`SurfacePlanes.bt709` or `SurfacePlanes.bt601`).
    public var matrix: UInt32
    /// Where each chroma sample sits against its 2 × 2 block of luma samples, by its H.264 and H.265
    /// `chroma_sample_loc_type` code (0 to `chromaBottom`, 5; the six values of Core Video's
    /// `kCVImageBufferChromaLocationTopFieldKey` but `DV 4:2:0`).
    public var chromaLocation: UInt32

    /// ITU-T H.273 matrix code 1: BT.709 (Kr 0.2126, Kb 0.0722).
    public static let bt709: UInt32 = 1
    /// ITU-T H.273 matrix code 6: BT.601 (SMPTE 170M; Kr 0.299, Kb 0.114).
    public static let bt601: UInt32 = 6

    /// Chroma location 0, "Left": co-sited with the left luma column, centred vertically (MPEG-2,
    /// H.264's default).
    public static let chromaLeft: UInt32 = 0
    /// Chroma location 1, "Center": centred in its 2 × 2 block (JPEG, MPEG-1).
    public static let chromaCenter: UInt32 = 1
    /// Chroma location 2, "TopLeft": co-sited with the top-left luma sample.
    public static let chromaTopLeft: UInt32 = 2
    /// Chroma location 3, "Top": centred horizontally, co-sited with the top luma row.
    public static let chromaTop: UInt32 = 3
    /// Chroma location 4, "BottomLeft": co-sited with the bottom-left luma sample.
    public static let chromaBottomLeft: UInt32 = 4
    /// Chroma location 5, "Bottom": centred horizontally, co-sited with the bottom luma row.
    public static let chromaBottom: UInt32 = 5

    /// Planes at `lumaOffset` and `chromaOffset` with a chroma stride of `chromaStride`, `matrix` and
    /// `chromaLocation` (centred unless given).
    public init(
        lumaOffset: UInt32, chromaOffset: UInt32, chromaStride: UInt32, matrix: UInt32,
        chromaLocation: UInt32 = SurfacePlanes.chromaCenter
    ) {
        self.lumaOffset = lumaOffset
        self.chromaOffset = chromaOffset
        self.chromaStride = chromaStride
        self.matrix = matrix
        self.chromaLocation = chromaLocation
    }
}
