import CDRM
import CLaminaShims
import Foundation
import Glibc
import LaminaServer
import Logging

/// An output on a KMS connector: frames are drawn by the renderer, put into one of two scan-out
/// buffers and scanned out with atomic page flips, whose completion events drive the display's frame
/// clock.
///
/// Selected by `--output kms` (the first card with a connected connector) or `kms:/dev/dri/cardN`;
/// every connected connector of the card becomes a display. The output uses the connector's
/// preferred mode, a CRTC that can drive it and the CRTC's primary plane, and scans out one of two
/// XRGB8888 buffers (the renderer's BGRA8 byte order) by the best `KMSScanoutPath` that works: GBM
/// buffers the renderer copies the frame into (as dma-bufs on a GPU, as mappings on a CPU device), or
/// dumb buffers filled from the read-back frame. A copy that fails later moves the output to dumb
/// buffers for good (logged). The first frame is a mode-setting atomic
/// commit; later ones are non-blocking page flips; each commit is first tested with
/// `DRM_MODE_ATOMIC_TEST_ONLY`. A failed commit is thrown naming the call (the server logs it and
/// retries at the next refresh, with a full mode set). The CRTC's state from before is restored
/// in `deinit`.
///
/// Hot-plug: on a udev event for the device (`KMSDevice.handleHotplug`) the output reads its
/// connector again. When it is disconnected (or no longer offers the output's mode) the CRTC is
/// turned off and the output closes (`isClosed`): the server closes its display for good. A connector
/// connected later (again) is a new output, which takes its closed display's number again
/// (`attachment`).
///
/// The event source is an epoll fd over the DRM fd, a timer fd and the seat's fd (when the device
/// was opened through libseat): page-flip completions give the `FrameEvent`s (the flip's
/// `CLOCK_MONOTONIC` timestamp) while frames are flipping, and the timer
/// gives the first one after the display has been idle.
public final class KMSOutput: Output {
    /// The connector's preferred mode (its refresh rate from the pixel clock and totals).
    public let mode: DisplayMode
    /// The connector driven, such as `Virtual-1`.
    public let connectorName: String
    /// "kms": displays are named `kms-N` (`DisplayInfo.name`).
    public var kind: String { "kms" }
    /// The connector's name (`DisplayInfo.connector`, `laminactl displays`).
    public var connector: String { connectorName }
    /// The device's path and the connector's name (`/dev/dri/card1 Virtual-1`): a connector plugged
    /// in again gets its closed display's number back (`Output.attachment`).
    public var attachment: String? { "\(device.path) \(connectorName)" }
    let device: KMSDevice
    let renderer: any Renderer
    let logger: Logger
    /// The DRM connector object driven.
    let connectorID: UInt32
    /// The CRTC driving the connector.
    public let crtc: UInt32
    let plane: UInt32
    let modeInfo: drmModeModeInfo
    let modeBlob: UInt32
    let saved: KMSSavedCrtc
    let savedMode: drmModeModeInfo
    let objectTypes: [UInt32: UInt32]
    let target: any RenderTarget
    let scratch: any RenderTarget
    /// The buffers scanned out. Guarded by `device.lock`; released when the output closes.
    var scanout: KMSScanout
    /// The frame timer (`timerfd_create`) and the epoll fd over it and the DRM fd, closed in `deinit`.
    let timer: Int32
    let epoll: Int32
    /// Where the device's event reader writes the completion of this output's last commit.
    let flipRecord: UnsafeMutablePointer<CDRMFlip>

    // Guarded by `device.lock`: shared by the frame worker and the loop.
    /// The buffer on screen (nil before the first frame).
    var shown: Int?
    /// The buffer a committed flip will show, until its event comes.
    var pending: Int?
    /// What each scan-out buffer lacks of the newest frame (its damage history).
    var bufferDamage = BufferDamage(bufferCount: 2)
    /// Whether the next commit sets the mode (the first one, any after a failure, and the first after
    /// the seat came back).
    var needsModeset = true
    /// Whether the seat (when the device came through libseat) is this process's: while it is not,
    /// nothing is committed.
    var seatActive = true
    /// The seat's count of enables and disables this output last followed.
    var seatGeneration: Int
    /// Whether the connector is connected (with the output's mode): once it is not, frames are drawn
    /// into the buffers but not committed, and the CRTC is off.
    public internal(set) var isConnected = true
    /// Whether the connector went away: the output is closed for good, and its CRTC is free.
    var closed = false
    /// The refresh the server asked for and has not been told of.
    var armedTime: Double?
    /// Frame events for the loop, not yet returned by `handleEvents`.
    var undelivered: [FrameEvent] = []
    /// The media time of the last page flip.
    public internal(set) var lastFlipTime: Double?
    /// Page flips completed since start (the mode set's included).
    public internal(set) var flipCount = 0
    /// When `present` took the frame the flip in flight shows (`CLOCK_MONOTONIC` seconds), or nil when
    /// that flip shows no new frame (the last one shown again after the seat or connector came back).
    var pendingFrameStart: Double?
    /// When the flip in flight was committed (`CLOCK_MONOTONIC` seconds).
    var pendingCommitTime: Double?
    /// The frame-to-flip latencies of the latest flips, in seconds (see `frameToFlipLatencies`), at
    /// most `latencyCapacity`; once full, `latencyCursor` is where the next one replaces the oldest.
    var latencies: [Double] = []
    /// The index in `latencies` the next latency goes to once it is full.
    var latencyCursor = 0

    /// Takes `connector` of `device` (a connected one) with its preferred mode, picks a CRTC not in
    /// `usedCrtcs` and its primary plane, and makes the scan-out buffers (by `scanout`, or the best
    /// path that works when nil) and the renderer's targets.
    public init(
        device: KMSDevice, connector: UInt32, usedCrtcs: Set<UInt32> = [], scanout choice: KMSScanoutPath? = nil,
        renderer: any Renderer, logger: Logger
    ) throws {
        self.device = device
        self.connectorID = connector
        self.renderer = renderer
        self.logger = logger
        let fd = device.fileDescriptor
        guard let info = drmModeGetConnector(fd, connector) else {
            throw KMSError(call: "drmModeGetConnector", errno: errno, detail: "connector \(connector)")
        }
        defer { drmModeFreeConnector(info) }
        guard info.pointee.connection == DRM_MODE_CONNECTED, info.pointee.count_modes > 0 else {
            throw KMSError(call: "drmModeGetConnector", detail: "connector \(connector) is not connected")
        }
        let typeName = drmModeGetConnectorTypeName(info.pointee.connector_type).map { String(cString: $0) } ?? "Unknown"
        connectorName = "\(typeName)-\(info.pointee.connector_type_id)"
        let modes = UnsafeBufferPointer(start: info.pointee.modes, count: Int(info.pointee.count_modes))
        modeInfo = modes.first { $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 } ?? modes[0]
        mode = DisplayMode(
            width: Int(modeInfo.hdisplay), height: Int(modeInfo.vdisplay), refreshRate: Self.refreshRate(of: modeInfo))
        crtc = try Self.pickCrtc(device: device, connector: info.pointee, excluding: usedCrtcs)
        plane = try Self.primaryPlane(device: device, crtc: crtc)
        objectTypes = [
            connector: DRM_MODE_OBJECT_CONNECTOR, crtc: DRM_MODE_OBJECT_CRTC, plane: DRM_MODE_OBJECT_PLANE,
        ]
        guard let current = drmModeGetCrtc(fd, crtc) else {
            throw KMSError(call: "drmModeGetCrtc", errno: errno, detail: "CRTC \(crtc)")
        }
        saved = KMSSavedCrtc(
            crtc: crtc, framebuffer: current.pointee.buffer_id, x: current.pointee.x, y: current.pointee.y,
            modeValid: current.pointee.mode_valid != 0)
        savedMode = current.pointee.mode
        drmModeFreeCrtc(current)
        var blob: UInt32 = 0
        var modeCopy = modeInfo
        try KMSError.check(
            drmModeCreatePropertyBlob(fd, &modeCopy, MemoryLayout<drmModeModeInfo>.size, &blob),
            "drmModeCreatePropertyBlob", "mode \(mode)")
        modeBlob = blob
        let (width, height) = (Int(modeInfo.hdisplay), Int(modeInfo.vdisplay))
        scanout = try KMSScanout.make(
            device: device, width: width, height: height, candidates: KMSScanoutPath.candidates(for: choice),
            renderer: renderer, logger: logger)
        target = try renderer.makeTarget(width: width, height: height)
        scratch = try renderer.makeTarget(width: width, height: height)
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard timer >= 0 else { throw KMSError(call: "timerfd_create", errno: errno) }
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else {
            close(timer)
            throw KMSError(call: "epoll_create1", errno: errno)
        }
        let extra = [device.seat?.fileDescriptor].compactMap { $0 }
        for member in [fd, timer] + extra {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = member
            if epoll_ctl(epoll, EPOLL_CTL_ADD, member, &event) != 0 {
                let error = KMSError(call: "epoll_ctl", errno: errno)
                close(timer)
                close(epoll)
                throw error
            }
        }
        seatGeneration = device.seat?.status.generation ?? 0
        flipRecord = .allocate(capacity: 1)
        flipRecord.initialize(to: CDRMFlip())
        device.register(self)
        logger.info(
            "KMS output",
            metadata: [
                "device": "\(device.path)", "connector": "\(connectorName)", "mode": "\(mode)", "crtc": "\(crtc)",
                "plane": "\(plane)", "scanout": "\(scanout.path)",
                "damageClips":
                    "\(device.hasProperty("FB_DAMAGE_CLIPS", of: plane, type: UInt32(DRM_MODE_OBJECT_PLANE)))",
            ])
    }

    deinit {
        logger.info("KMS output stopping", metadata: ["connector": "\(connectorName)", "pageFlips": "\(flipCount)"])
        logLatency()
        restore()
        close(epoll)
        close(timer)
        flipRecord.deallocate()
        drmModeDestroyPropertyBlob(device.fileDescriptor, modeBlob)
    }

    /// The refresh rate of `info` in hertz: the pixel clock (kHz) over the frame's total pixels, or
    /// its rounded `vrefresh` when the clock is missing.
    static func refreshRate(of info: drmModeModeInfo) -> Double {
        let total = Double(info.htotal) * Double(info.vtotal)
        guard info.clock > 0, total > 0 else { return info.vrefresh > 0 ? Double(info.vrefresh) : 60 }
        return Double(info.clock) * 1000 / total
    }

    /// A CRTC for `connector`: the one its encoder drives now if free, else the first free one an
    /// encoder of the connector can use.
    static func pickCrtc(device: KMSDevice, connector: drmModeConnector, excluding used: Set<UInt32>) throws
        -> UInt32
    {
        let fd = device.fileDescriptor
        guard let resources = drmModeGetResources(fd) else {
            throw KMSError(call: "drmModeGetResources", errno: errno, detail: device.path)
        }
        defer { drmModeFreeResources(resources) }
        let crtcs = Array(
            UnsafeBufferPointer(start: resources.pointee.crtcs, count: Int(resources.pointee.count_crtcs)))
        if connector.encoder_id != 0, let encoder = drmModeGetEncoder(fd, connector.encoder_id) {
            let current = encoder.pointee.crtc_id
            drmModeFreeEncoder(encoder)
            if current != 0 && !used.contains(current) { return current }
        }
        for index in 0..<Int(connector.count_encoders) {
            guard let encoder = drmModeGetEncoder(fd, connector.encoders[index]) else { continue }
            let possible = encoder.pointee.possible_crtcs
            drmModeFreeEncoder(encoder)
            for (bit, crtc) in crtcs.enumerated() where possible & (1 << UInt32(bit)) != 0 && !used.contains(crtc) {
                return crtc
            }
        }
        throw KMSError(call: "drmModeGetEncoder", detail: "no free CRTC for connector \(connector.connector_id)")
    }

    /// The primary plane that can show on `crtc`.
    static func primaryPlane(device: KMSDevice, crtc: UInt32) throws -> UInt32 {
        let fd = device.fileDescriptor
        guard let resources = drmModeGetResources(fd) else {
            throw KMSError(call: "drmModeGetResources", errno: errno, detail: device.path)
        }
        let crtcs = Array(
            UnsafeBufferPointer(start: resources.pointee.crtcs, count: Int(resources.pointee.count_crtcs)))
        drmModeFreeResources(resources)
        guard let index = crtcs.firstIndex(of: crtc) else {
            throw KMSError(call: "drmModeGetResources", detail: "CRTC \(crtc) is not the device's")
        }
        guard let planes = drmModeGetPlaneResources(fd) else {
            throw KMSError(call: "drmModeGetPlaneResources", errno: errno, detail: device.path)
        }
        defer { drmModeFreePlaneResources(planes) }
        for id in UnsafeBufferPointer(start: planes.pointee.planes, count: Int(planes.pointee.count_planes)) {
            guard let plane = drmModeGetPlane(fd, id) else { continue }
            let possible = plane.pointee.possible_crtcs
            drmModeFreePlane(plane)
            guard possible & (1 << UInt32(index)) != 0 else { continue }
            if device.propertyValue("type", of: id, type: DRM_MODE_OBJECT_PLANE) == UInt64(DRM_PLANE_TYPE_PRIMARY) {
                return id
            }
        }
        throw KMSError(call: "drmModeGetPlane", detail: "no primary plane for CRTC \(crtc)")
    }

    /// Puts the CRTC back as it was before the output took it, logging a failure. Nothing when the
    /// output closed (its connector went away and the CRTC is off; another output may drive it now).
    func restore() {
        let gone = device.lock.withLock {
            // A flip in flight must land before the mode changes under it.
            if pending != nil { _ = waitForFlipLocked(timeout: 0.2) }
            return closed
        }
        guard !gone else { return }
        let fd = device.fileDescriptor
        switch saved.restore(connector: connectorID, plane: plane) {
        case .reapply(let crtc, let framebuffer, let x, let y, var connector):
            var mode = savedMode
            let result = drmModeSetCrtc(fd, crtc, framebuffer, x, y, &connector, 1, &mode)
            if result != 0 {
                let error = KMSError(call: "drmModeSetCrtc", errno: result == -1 ? errno : -result, detail: "restore")
                logger.error("KMS restore failed", metadata: ["error": "\(error)"])
            } else {
                logger.info("KMS CRTC restored", metadata: ["crtc": "\(crtc)", "framebuffer": "\(framebuffer)"])
            }
        case .disable(let plan):
            do {
                try device.commit(plan, objectTypes: objectTypes, userData: nil)
                logger.info("KMS CRTC restored (off)", metadata: ["crtc": "\(crtc)"])
            } catch {
                logger.error("KMS restore failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
