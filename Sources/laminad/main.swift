import ArgumentParser
import Foundation
import Glibc
import LaminaOutputs
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import LaminaWindow
import LaminaCore
import Logging

/// The Lamina render server. The only place that picks concrete backends.
struct Laminad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "laminad",
        abstract: "The Lamina render server: composites clients' layer trees with Vulkan.",
        discussion: """
            Clients connect over a SOCK_SEQPACKET Unix socket and commit layer trees; laminad renders them \
            on its output. It renders nothing while nothing changes, and stops cleanly on SIGTERM or SIGINT.
            Exit status: 0 stopped by a signal, 2 could not start, 3 validation messages (--validation), \
            4 the Vulkan device was lost (a service manager restarts it; clients reconnect on their own).
            """,
        version: laminaVersion)

    @Option(
        help: ArgumentHelp(
            "Socket path. Default: $LAMINA_SOCKET, else $XDG_RUNTIME_DIR/lamina/socket, else /run/lamina/socket.",
            valueName: "path"))
    var socket: String?

    @Option(
        help: ArgumentHelp(
            "Let this group's members connect too: the socket gets mode 0660 and this group "
                + "(default: mode 0600, the server's user only).",
            valueName: "name"))
    var socketGroup: String?

    @Option(
        help: ArgumentHelp(
            "Output: offscreen:WIDTHxHEIGHT@HZ, window[:WIDTHxHEIGHT[@HZ]] (an X11 window on $DISPLAY, "
                + "1280x720@60 by default), or kms[:DEVICE][,scanout=auto|dma-buf|mapped|dumb] (every connected "
                + "connector of DEVICE, default the first /dev/dri/card* with one; scan-out buffers by that path, "
                + "default the best that works). Repeat for several displays, numbered 0, 1, … in order. "
                + "Default: one offscreen:1280x720@60.",
            valueName: "spec"))
    var output: [String] = []

    @Flag(help: "Enable VK_LAYER_KHRONOS_validation; report every message and a count at exit (status 3 if any).")
    var validation = false

    @Option(
        help: ArgumentHelp(
            "Use the first Vulkan device whose name contains this text (also $LAMINA_VULKAN_DEVICE).",
            valueName: "name"))
    var vulkanDevice: String?

    @Option(help: ArgumentHelp("Log level: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel = "info"

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "laminad")
        let environment = ProcessInfo.processInfo.environment
        let path = socket ?? SocketPath.default(environment: environment)
        let access = try socketAccess()
        let specifications = output.isEmpty ? ["offscreen:1280x720@60"] : output
        guard specifications.count <= WireLimits.maxDisplays else {
            throw ValidationError("--output: at most \(WireLimits.maxDisplays) outputs, got \(specifications.count)")
        }
        var requests: [OutputRequest] = []
        for specification in specifications {
            do {
                requests.append(try OutputSpecification.parse(specification))
            } catch {
                throw ValidationError("--output: \(error)")
            }
        }
        let windowSystem = requests.contains { if case .window = $0 { true } else { false } }
        // SIGTERM and SIGINT are blocked from the first line of the program (see the bottom of this
        // file), so one sent at any moment stays pending until this thread collects it: never lost.
        let shutdown = ShutdownRequest()
        let service = ServiceManager()
        let waiter = Thread {
            var set = stopSignals
            var received: Int32 = 0
            while sigwait(&set, &received) == 0 {
                service.notify("STOPPING=1\nSTATUS=Stopping")
                shutdown.request()
            }
        }
        waiter.name = "laminad-signals"
        waiter.start()
        // Only a window needs the window-system extensions (and an X server).
        let renderer = try VulkanRenderer(
            device: VulkanDevice(
                validation: validation, preferredName: vulkanDevice ?? environment["LAMINA_VULKAN_DEVICE"],
                windowSystem: windowSystem))
        logger.info("vulkan device", metadata: ["name": "\(renderer.deviceName)"])
        // A test hook: draw N frames, then report the next frame's submit as VK_ERROR_DEVICE_LOST.
        if let text = environment["LAMINA_TEST_LOSE_DEVICE_AFTER_FRAMES"] {
            guard let frames = Int(text), frames >= 0 else {
                throw ValidationError("LAMINA_TEST_LOSE_DEVICE_AFTER_FRAMES must be a count of frames (0 or more)")
            }
            renderer.drawsBeforeTestDeviceLoss = frames
        }
        let (outputs, devices) = try makeOutputs(
            zip(specifications, requests).map { $0 }, renderer: renderer, logger: logger, service: service,
            display: environment["DISPLAY"])
        guard outputs.count <= WireLimits.maxDisplays else {
            throw ValidationError("--output: at most \(WireLimits.maxDisplays) displays, got \(outputs.count)")
        }
        let modes = outputs.map(\.mode)
        let server: Server
        do {
            var configuration = Server.Configuration(
                socketPath: path, serverVersion: laminaVersion, socketAccess: access)
            // Fed at half the watchdog's timeout, from the loop itself: a loop that hangs stops feeding it.
            configuration.heartbeatInterval = service.watchdogTimeout.map { $0 / 2 }
            // A test hook: announce another device UUID, so a client's device images do not match.
            if let text = environment["LAMINA_TEST_DEVICE_UUID"] {
                let digits = Array(text)
                let bytes =
                    digits.count == 32
                    ? (0..<16).compactMap { UInt8(String(digits[$0 * 2...$0 * 2 + 1]), radix: 16) } : []
                guard bytes.count == 16 else { throw ValidationError("LAMINA_TEST_DEVICE_UUID must be 32 hex digits") }
                configuration.deviceUUIDOverride = bytes
            }
            let activated = try ServiceManager.activatedListener()
            if activated != nil { logger.info("socket activation: serving the socket the service manager passed") }
            server = try Server(
                configuration: configuration, outputs: outputs, logger: logger, renderer: renderer,
                listener: activated)
        } catch let error as ValidationError {
            service.notify("STATUS=\(error.message)")
            throw error
        } catch {
            logger.critical("cannot listen: \(error)")
            service.notify("STATUS=cannot listen: \(error)")
            throw ExitCode(2)
        }
        server.onHeartbeat = { service.notify("WATCHDOG=1") }
        for (device, scanout) in devices {
            watchHotplug(device, scanout: scanout, server: server, renderer: renderer, logger: logger)
        }
        var reported = 0
        var firstFrame = true
        server.onFramePresented = { _, _ in
            if firstFrame {
                firstFrame = false
                logger.info("first frame presented", metadata: ["mediaTime": "\(CACurrentMediaTime())"])
            }
            let messages = renderer.validationMessages
            for m in messages.dropFirst(reported) { logger.error("vulkan validation: \(m)") }
            reported = messages.count
        }
        shutdown.attach(server)
        // The displays are up and the socket listens: ready.
        let displays = modes.map { "\($0)" }.joined(separator: ", ")
        service.notify("READY=1\nSTATUS=Serving \(modes.count) display(s): \(displays)")
        server.run()
        // The server stopped because the device was lost: leave for the service manager to start a
        // new laminad, whose clients reconnect and send everything again (docs/deploy.md).
        let lost = server.deviceLoss != nil ? renderer.lostDevice : nil
        if let lost {
            let line =
                "Vulkan device lost: \(lost.call), \(lost.resultName); exiting with status "
                + "\(Self.deviceLostStatus) so the service manager restarts the server"
            logger.critical("\(line)")
            service.notify("STOPPING=1\nSTATUS=\(line)")
        }
        if validation {
            let messages = renderer.validationMessages
            for m in messages.dropFirst(reported) { logger.error("vulkan validation: \(m)") }
            logger.info("validation messages: \(messages.count)")
            if !messages.isEmpty && lost == nil { throw ExitCode(3) }
        }
        if lost != nil { throw ExitCode(Self.deviceLostStatus) }
    }

    /// The exit status after a Vulkan device loss: not 0, so `Restart=on-failure` restarts laminad.
    static let deviceLostStatus: Int32 = 4

    /// The outputs `requests` ask for, in order: one offscreen output each, and one KMS output for every
    /// connected connector of each KMS device; and the KMS devices opened. A KMS device that cannot be
    /// opened, or a connector that cannot be driven, is logged with the call that failed; laminad stops
    /// when no display is left.
    func makeOutputs(
        _ requests: [(specification: String, request: OutputRequest)], renderer: VulkanRenderer, logger: Logger,
        service: ServiceManager, display: String?
    ) throws -> (outputs: [any Output], devices: [(KMSDevice, scanout: KMSScanoutPath?)]) {
        var outputs: [any Output] = []
        var devices: [(KMSDevice, scanout: KMSScanoutPath?)] = []
        // DRM master from the seat daemon when one runs, else directly (as root).
        let seat =
            requests.contains { if case .kms = $0.request { true } else { false } } ? KMSSeat.open(logger: logger) : nil
        for (specification, request) in requests {
            switch request {
            case .offscreen(let mode):
                outputs.append(try OffscreenOutput(mode: mode, renderer: renderer))
            case .window(let mode):
                do {
                    outputs.append(try WindowOutput(mode: mode, renderer: renderer, display: display))
                } catch {
                    logger.critical("--output \(specification): \(error)")
                    service.notify("STATUS=--output \(specification): \(error)")
                    throw ExitCode(2)
                }
            case .kms(let path, let scanout):
                let device: KMSDevice
                do {
                    device =
                        try path.map { try KMSDevice(path: $0, seat: seat, logger: logger) }
                        ?? KMSDevice.firstConnected(seat: seat, logger: logger)
                } catch {
                    logger.error("KMS device unusable, no display from it", metadata: ["error": "\(error)"])
                    continue
                }
                devices.append((device, scanout))
                var used: Set<UInt32> = []
                let connectors: [UInt32]
                do {
                    connectors = try device.connectedConnectors()
                } catch {
                    logger.error("KMS device unusable, no display from it", metadata: ["error": "\(error)"])
                    continue
                }
                for connector in connectors {
                    do {
                        let output = try KMSOutput(
                            device: device, connector: connector, usedCrtcs: used, scanout: scanout, renderer: renderer,
                            logger: logger)
                        used.insert(output.crtc)
                        outputs.append(output)
                    } catch {
                        logger.error(
                            "KMS connector dropped", metadata: ["connector": "\(connector)", "error": "\(error)"])
                    }
                }
            }
        }
        guard !outputs.isEmpty else {
            logger.critical("no display could be set up from --output")
            throw ExitCode(2)
        }
        return (outputs, devices)
    }

    /// Follows `device`'s hot-plug events in `server`'s loop: a connector that goes away closes its
    /// display (the output closes itself); one connected later becomes a display, its buffers by
    /// `scanout`: a connector connected again takes its closed display's number back
    /// (`Server.addOutput`). A connector that cannot be driven, or one when all display numbers belong
    /// to open displays, is logged.
    func watchHotplug(
        _ device: KMSDevice, scanout: KMSScanoutPath?, server: Server, renderer: VulkanRenderer, logger: Logger
    ) {
        guard let fd = device.hotplugFileDescriptor else { return }
        // Weakly: the server keeps its handlers, and must be released (restoring the CRTCs) at exit.
        server.watch(fileDescriptor: fd) { [weak server] in
            guard let server else { return }
            for connector in device.handleHotplug() {
                do {
                    try server.addOutput {
                        try KMSOutput(
                            device: device, connector: connector, usedCrtcs: device.crtcsInUse, scanout: scanout,
                            renderer: renderer, logger: logger)
                    }
                } catch {
                    logger.error("KMS connector dropped", metadata: ["connector": "\(connector)", "error": "\(error)"])
                }
            }
        }
    }

    /// The socket's access from `--socket-group`: a group name (or number) known to the system.
    func socketAccess() throws -> SocketAccess {
        guard let socketGroup else { return .owner }
        if let entry = getgrnam(socketGroup) { return .group(gid: entry.pointee.gr_gid) }
        if let gid = UInt32(socketGroup) { return .group(gid: gid) }
        throw ValidationError("--socket-group: no group named '\(socketGroup)'")
    }

}

let laminaVersion = "0.1.0"

/// A stop request from a signal, remembered until the server exists. Holds the server weakly: the
/// server (and with it the Vulkan instance) must be released on the main thread, never by the
/// signal thread racing the process's exit.
final class ShutdownRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var requested = false
    private weak var server: Server?

    func request() {
        let target = lock.withLock {
            requested = true
            return server
        }
        target?.stop()
    }

    func attach(_ server: Server) {
        let already = lock.withLock {
            self.server = server
            return requested
        }
        if already { server.stop() }
    }
}

// Run the command, then leave with _exit: every Vulkan and socket object has been released on this
// thread by then, and skipping exit-time handlers avoids a race (seen as SIGSEGV) between the main
// thread's exit handlers and a dispatch worker thread unloading a shared library.
// Block the stop signals before any other thread exists, so every thread inherits the mask and a
// signal can only be taken by the sigwait thread that run() starts.
let stopSignals: sigset_t = {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGTERM)
    sigaddset(&set, SIGINT)
    return set
}()
withUnsafePointer(to: stopSignals) { _ = pthread_sigmask(SIG_BLOCK, $0, nil) }
signal(SIGPIPE, SIG_IGN)

var status: Int32 = 0
do {
    let command = try Laminad.parse()
    try command.run()
} catch {
    status = Laminad.exitCode(for: error).rawValue
    let message = Laminad.fullMessage(for: error)
    if !message.isEmpty {
        let stream = status == 0 ? FileHandle.standardOutput : FileHandle.standardError
        stream.write(Data((message + "\n").utf8))
    }
}
fflush(nil)
_exit(status)
