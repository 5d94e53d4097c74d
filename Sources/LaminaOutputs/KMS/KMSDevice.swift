import CDRM
import Foundation
import Glibc
import LaminaServer
import Logging

/// One DRM device (`/dev/dri/cardN`) opened for mode setting: its file descriptor, DRM master (from
/// the seat daemon through `KMSSeat` when one runs, else directly as root), the atomic and
/// universal-plane capabilities, and the property ids of its objects.
///
/// Shared by the `KMSOutput`s of its connectors. The device reads the DRM events (page flips) for all
/// of them and hands each completion to the output whose commit asked for it. `lock` guards the
/// event reading and the outputs' flip state, which the frame worker (`present`) and the server's
/// loop (`handleEvents`) both touch.
public final class KMSDevice: @unchecked Sendable {
    /// The device's path, such as `/dev/dri/card0`.
    public let path: String
    /// The open device (non-blocking, so event reads never wait). Closed in `deinit`.
    public let fileDescriptor: Int32
    /// Whether page-flip timestamps are on `CLOCK_MONOTONIC` (`DRM_CAP_TIMESTAMP_MONOTONIC`).
    public let monotonicTimestamps: Bool
    /// The seat the device was opened through, or nil when it was opened directly.
    public let seat: KMSSeat?
    /// The seat's id for the device.
    let seatDeviceID: Int32?
    /// The hot-plug monitor, or nil when udev's monitor could not be set up (logged).
    let hotplug: KMSHotplugMonitor?
    let logger: Logger
    let lock = NSLock()
    /// Property ids by object id and property name, read once per object.
    private var propertyIDs: [UInt32: [String: UInt32]] = [:]
    /// The GBM device, once `gbm()` has made it (nil before, and after a failure: `gbmTried`).
    private var gbmDevice: KMSGBMDevice?
    private var gbmTried = false
    /// The outputs that receive page-flip completions, weakly.
    private var outputs: [WeakOutput] = []

    private struct WeakOutput {
        weak var output: KMSOutput?
    }

    /// Opens `path` through `seat` (the seat daemon makes this process DRM master), or without a seat
    /// read-write directly and becomes DRM master itself (as root), and turns on universal planes and
    /// atomic mode setting.
    public init(path: String, seat: KMSSeat? = nil, logger: Logger) throws(KMSError) {
        self.path = path
        self.logger = logger
        self.seat = seat
        let fd: Int32
        if let seat {
            (fd, seatDeviceID) = try seat.openDevice(path)
        } else {
            fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK)
            seatDeviceID = nil
        }
        guard fd >= 0 else { throw KMSError(call: "open", errno: errno, detail: path) }
        fileDescriptor = fd
        do {
            hotplug = try KMSHotplugMonitor()
        } catch {
            logger.warning("no KMS hot-plug events", metadata: ["device": "\(path)", "error": "\(error)"])
            hotplug = nil
        }
        var capability: UInt64 = 0
        monotonicTimestamps = drmGetCap(fd, UInt64(DRM_CAP_TIMESTAMP_MONOTONIC), &capability) == 0 && capability == 1
        do {
            try KMSError.check(
                drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1), "drmSetClientCap", "universal planes")
            try KMSError.check(drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1), "drmSetClientCap", "atomic")
        } catch {
            Self.release(fd, seat: seat, id: seatDeviceID)
            throw error
        }
        // The first opener of a device with no master is master already; drmSetMaster fails then only
        // when another process (a compositor, a seat daemon's client) holds it. Through a seat, the
        // daemon made this process master.
        if seat == nil && drmIsMaster(fd) == 0 {
            if drmSetMaster(fd) != 0 {
                let error = KMSError(call: "drmSetMaster", errno: errno, detail: path)
                close(fd)
                throw error
            }
        }
        logger.info(
            "KMS device opened",
            metadata: ["device": "\(path)", "master": "\(seat.map { "libseat (\($0.name))" } ?? "direct")"])
    }

    deinit {
        gbmDevice = nil
        Self.release(fileDescriptor, seat: seat, id: seatDeviceID)
    }

    /// The device's GBM allocator, made on first use; nil (logged once) when libgbm has none for its
    /// driver.
    func gbm() -> KMSGBMDevice? {
        lock.withLock {
            if !gbmTried {
                gbmTried = true
                do {
                    gbmDevice = try KMSGBMDevice(self)
                    logger.info("GBM device", metadata: ["device": "\(path)", "backend": "\(gbmDevice!.backend)"])
                } catch {
                    logger.warning("no GBM device: scan-out from dumb buffers", metadata: ["error": "\(error)"])
                }
            }
            return gbmDevice
        }
    }

    /// Closes `fd`, giving it back to `seat` first when it came from there.
    private static func release(_ fd: Int32, seat: KMSSeat?, id: Int32?) {
        if let seat, let id { seat.closeDevice(id) }
        close(fd)
    }

    /// The DRM devices in `/dev/dri` (`card0`, `card1`, …), sorted by number.
    public static func cardPaths() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return names.filter { $0.hasPrefix("card") }
            .sorted { (Int($0.dropFirst(4)) ?? 0) < (Int($1.dropFirst(4)) ?? 0) }
            .map { "/dev/dri/" + $0 }
    }

    /// The first device with a connected connector, opened (through `seat` when given).
    public static func firstConnected(seat: KMSSeat? = nil, logger: Logger) throws(KMSError) -> KMSDevice {
        var failures: [String] = []
        for path in cardPaths() {
            do {
                let device = try KMSDevice(path: path, seat: seat, logger: logger)
                if try !device.connectedConnectors().isEmpty { return device }
                failures.append("\(path): no connected connector")
            } catch {
                failures.append("\(error)")
            }
        }
        throw KMSError(
            call: "open /dev/dri/card*",
            detail: failures.isEmpty ? "no DRM device in /dev/dri" : failures.joined(separator: "; "))
    }

    /// The ids of the connectors that have a display attached, in the device's order. With `probing`
    /// the kernel looks at each connector again (`drmModeGetConnector`, slow on some hardware);
    /// without, it reports what it last saw (`drmModeGetConnectorCurrent`).
    public func connectedConnectors(probing: Bool = true) throws(KMSError) -> [UInt32] {
        guard let resources = drmModeGetResources(fileDescriptor) else {
            throw KMSError(call: "drmModeGetResources", errno: errno, detail: path)
        }
        defer { drmModeFreeResources(resources) }
        var connected: [UInt32] = []
        for index in 0..<Int(resources.pointee.count_connectors) {
            let id = resources.pointee.connectors[index]
            let read = probing ? drmModeGetConnector : drmModeGetConnectorCurrent
            guard let connector = read(fileDescriptor, id) else {
                throw KMSError(call: "drmModeGetConnector", errno: errno, detail: "connector \(id)")
            }
            if connector.pointee.connection == DRM_MODE_CONNECTED && connector.pointee.count_modes > 0 {
                connected.append(id)
            }
            drmModeFreeConnector(connector)
        }
        return connected
    }

    /// Whether `object` (of kind `type`) has a property `name`.
    func hasProperty(_ name: String, of object: UInt32, type: UInt32) -> Bool {
        (try? propertyID(name, of: object, type: type)) != nil
    }

    /// A property blob of `rects` as `struct drm_mode_rect`s (x1, y1, x2, y2 as 32-bit integers), the
    /// value of a plane's `FB_DAMAGE_CLIPS`; destroyed by the caller after the commit that uses it.
    func makeDamageBlob(_ rects: [DamageRect]) throws(KMSError) -> UInt32 {
        var corners: [Int32] = []
        corners.reserveCapacity(rects.count * 4)
        for rect in rects {
            corners += [Int32(rect.x), Int32(rect.y), Int32(rect.x + rect.width), Int32(rect.y + rect.height)]
        }
        var blob: UInt32 = 0
        let status = corners.withUnsafeBytes {
            drmModeCreatePropertyBlob(fileDescriptor, $0.baseAddress, $0.count, &blob)
        }
        try KMSError.check(status, "drmModeCreatePropertyBlob", "\(rects.count) damage rectangles")
        return blob
    }

    /// The id of the property `name` of `object` (of kind `type`, such as `DRM_MODE_OBJECT_PLANE`).
    func propertyID(_ name: String, of object: UInt32, type: UInt32) throws(KMSError) -> UInt32 {
        if propertyIDs[object] == nil {
            guard let properties = drmModeObjectGetProperties(fileDescriptor, object, type) else {
                throw KMSError(call: "drmModeObjectGetProperties", errno: errno, detail: "object \(object)")
            }
            defer { drmModeFreeObjectProperties(properties) }
            var names: [String: UInt32] = [:]
            for index in 0..<Int(properties.pointee.count_props) {
                let id = properties.pointee.props[index]
                guard let property = drmModeGetProperty(fileDescriptor, id) else { continue }
                let text = withUnsafeBytes(of: property.pointee.name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                names[text] = id
                drmModeFreeProperty(property)
            }
            propertyIDs[object] = names
        }
        guard let id = propertyIDs[object]?[name] else {
            throw KMSError(call: "drmModeObjectGetProperties", detail: "object \(object) has no property \(name)")
        }
        return id
    }

    /// The current value of the property `name` of `object`, or nil when it has none.
    func propertyValue(_ name: String, of object: UInt32, type: UInt32) -> UInt64? {
        guard let properties = drmModeObjectGetProperties(fileDescriptor, object, type) else { return nil }
        defer { drmModeFreeObjectProperties(properties) }
        for index in 0..<Int(properties.pointee.count_props) {
            guard let property = drmModeGetProperty(fileDescriptor, properties.pointee.props[index]) else { continue }
            let text = withUnsafeBytes(of: property.pointee.name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            drmModeFreeProperty(property)
            if text == name { return properties.pointee.prop_values[index] }
        }
        return nil
    }

    /// Commits `plan`: first with `DRM_MODE_ATOMIC_TEST_ONLY` (nothing changes when the device refuses
    /// it), then for real, with `userData` (a `CDRMFlip`) receiving the page-flip event if it asks for one.
    /// `objectTypes` gives each object's kind for the property lookup.
    func commit(
        _ plan: KMSAtomicPlan, objectTypes: [UInt32: UInt32], userData: UnsafeMutableRawPointer?
    ) throws(KMSError) {
        guard let request = drmModeAtomicAlloc() else { throw KMSError(call: "drmModeAtomicAlloc", errno: errno) }
        defer { drmModeAtomicFree(request) }
        for assignment in plan.assignments {
            let type = objectTypes[assignment.object] ?? UInt32(bitPattern: DRM_MODE_OBJECT_ANY)
            let property = try propertyID(assignment.property, of: assignment.object, type: type)
            try KMSError.check(
                drmModeAtomicAddProperty(request, assignment.object, property, assignment.value),
                "drmModeAtomicAddProperty", "\(assignment.property) of object \(assignment.object)")
        }
        let testFlags =
            (plan.flags & ~KMSAtomicPlan.pageFlipEvent & ~KMSAtomicPlan.nonBlocking) | KMSAtomicPlan.testOnly
        try KMSError.check(
            drmModeAtomicCommit(fileDescriptor, request, testFlags, nil), "drmModeAtomicCommit(TEST_ONLY)")
        try KMSError.check(drmModeAtomicCommit(fileDescriptor, request, plan.flags, userData), "drmModeAtomicCommit")
    }

    /// Registers `output` for the page-flip completions of its commits.
    func register(_ output: KMSOutput) {
        lock.withLock {
            outputs.removeAll { $0.output == nil }
            outputs.append(WeakOutput(output: output))
        }
    }

    /// Reads every DRM event waiting (never blocks) and tells each registered output whose commit
    /// completed. Called with `lock` held.
    func drainEvents() {
        while true {
            var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) == 1 else { break }
            if cdrm_handle_events(fileDescriptor) != 0 {
                if errno != EAGAIN && errno != EINTR {
                    logger.error("KMS event read failed", metadata: ["call": "drmHandleEvent", "errno": "\(errno)"])
                }
                break
            }
        }
        for entry in outputs { entry.output?.collectFlip() }
    }

    /// Reads the seat's events and tells each output of this device the seat's state, which it follows
    /// when the seat was enabled or disabled since it last looked. The seat is shared by the devices,
    /// so each device's outputs compare the seat's count themselves. Called on the loop's thread,
    /// without `lock`.
    func handleSeat() {
        guard let seat else { return }
        seat.dispatch()
        let status = seat.status
        lock.withLock {
            for entry in outputs { entry.output?.followSeat(generation: status.generation, active: status.active) }
        }
    }

    /// The hot-plug monitor's fd (readable when udev events wait; `handleHotplug` reads them), or nil
    /// when there is no monitor. The server's loop watches it (`Server.watch`): not the outputs, so
    /// a device whose every display closed still sees its connectors come back.
    public var hotplugFileDescriptor: Int32? { hotplug?.fileDescriptor }

    /// The CRTCs the device's open outputs drive (a new output takes another).
    public var crtcsInUse: Set<UInt32> {
        lock.withLock { Set(outputs.compactMap { $0.output }.filter { !$0.closed }.map(\.crtc)) }
    }

    /// Reads the hot-plug monitor and, when this device had an event, tells each open output to look
    /// at its connector again (one that went away closes: `KMSOutput.isClosed`). Returns the connected
    /// connectors (with modes) that no open output drives, in the device's order: the caller makes an
    /// output for each (`KMSOutput(device:connector:usedCrtcs:renderer:logger:)` with `crtcsInUse`).
    /// Called on the loop's thread, without `lock`.
    public func handleHotplug() -> [UInt32] {
        guard let hotplug, hotplug.receive().contains(path) else { return [] }
        let driven = lock.withLock {
            for entry in outputs { entry.output?.updateConnection() }
            return Set(outputs.compactMap { $0.output }.filter { !$0.closed }.map(\.connectorID))
        }
        let connected: [UInt32]
        do {
            connected = try connectedConnectors(probing: false)
        } catch {
            logger.error("KMS connectors unreadable after a hot-plug", metadata: ["error": "\(error)"])
            return []
        }
        let added = connected.filter { !driven.contains($0) }
        for connector in added {
            logger.notice("KMS connector connected", metadata: ["device": "\(path)", "connector": "\(connector)"])
        }
        return added
    }

    /// The media time of a page flip's `seconds` and `microseconds` (`CLOCK_MONOTONIC` when the
    /// device says so, else the time now).
    func mediaTime(seconds: UInt32, microseconds: UInt32) -> Double {
        if monotonicTimestamps { return Double(seconds) + Double(microseconds) / 1e6 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
