import Foundation
import Lamina
import LaminaOutputs
import LaminaServer
import LaminaTesting
import LaminaVulkan
@testable import LaminaWindow
import Testing

/// The window output (`laminad --output window:WIDTHxHEIGHT`) under Xvfb: the window shows exactly the
/// pixels an offscreen capture of the same scene has, and closing it stops that display only.
@Suite(.serialized, .enabled(if: XvfbServer.isInstalled, "Xvfb is not installed (Tools/setup installs it)"))
struct WindowOutputTests {
    /// A 320×240 root with three rounded layers, in device pixels: red x 20..<120, y 20..<80 (radius
    /// 12); green x 160..<240, y 80..<160 (radius 20); blue at half opacity x 80..<140, y 40..<100
    /// (radius 8), over the red.
    static func scene(red: CGColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.position = CGPoint(x: 160, y: 120)
        let boxes: [(CGRect, CGFloat, CGColor)] = [
            (CGRect(x: 20, y: 20, width: 100, height: 60), 12, red),
            (CGRect(x: 160, y: 80, width: 80, height: 80), 20, CGColor(red: 0, green: 1, blue: 0, alpha: 1)),
            (CGRect(x: 80, y: 40, width: 60, height: 60), 8, CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)),
        ]
        for (frame, radius, color) in boxes {
            let layer = CALayer()
            layer.frame = frame
            layer.cornerRadius = radius
            layer.backgroundColor = color
            root.addSublayer(layer)
        }
        return root
    }

    static func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
        let p = image.pixel(x: x, y: y)
        return [Int(p.red), Int(p.green), Int(p.blue), Int(p.alpha)]
    }

    /// The pixels the scene's geometry fixes exactly: inside the red and the green, and black where no
    /// layer is (the corner pixel (20, 20) lies outside the red's 12-pixel rounding).
    static func expectSceneColours(_ image: CGImage, _ what: String) {
        #expect(rgba(image, 60, 50) == [255, 0, 0, 255], "\(what): red")
        #expect(rgba(image, 200, 120) == [0, 255, 0, 255], "\(what): green")
        #expect(rgba(image, 20, 20) == [0, 0, 0, 255], "\(what): outside the red's rounded corner")
        #expect(rgba(image, 300, 200) == [0, 0, 0, 255], "\(what): background")
    }

    /// The window's pixels once they show `red` at (60, 50) and green at (200, 120). Presentation is
    /// asynchronous and clients get no "presented" reply, so the test reads the window until the
    /// frame is there, for at most 20 seconds.
    static func shownImage(_ x: XClient, _ window: UInt32, red: [Int] = [255, 0, 0, 255]) throws -> CGImage {
        let deadline = Date(timeIntervalSinceNow: 20)
        while true {
            let image = try x.image(of: window, width: 320, height: 240)
            if rgba(image, 60, 50) == red && rgba(image, 200, 120) == [0, 255, 0, 255] || Date() > deadline {
                return image
            }
            usleep(10_000)
        }
    }

    @Test func windowShowsTheOffscreenPixelsAndClosingStopsThatDisplayOnly() throws {
        let xvfb = try XvfbServer()
        defer { withExtendedLifetime(xvfb) {} }
        // Display 0 is TestServer's offscreen 320×240 output, display 1 the window.
        let server = try TestServer(
            extraArguments: ["--output", "window:320x240"], environment: ["DISPLAY": xvfb.display])
        let x = try XClient(display: xvfb.display)
        let windows = x.windows(titled: "laminad")
        #expect(windows.count == 1, "laminad's windows on \(xvfb.display): \(windows)")
        let window = try #require(windows.first)

        let inWindow = try CAContext(socketPath: server.socketPath, clientName: "in-window", display: 1)
        let offscreen = try CAContext(socketPath: server.socketPath, clientName: "offscreen", display: 0)
        #expect(inWindow.displays.map { [$0.width, $0.height] } == [[320, 240], [320, 240]])
        // Names and connectors: the window's is the X server it is on.
        #expect(inWindow.displays.map(\.name) == ["offscreen-0", "window-1"])
        #expect(inWindow.displays.map(\.connector) == ["", xvfb.display])
        inWindow.layer = Self.scene()
        offscreen.layer = Self.scene()
        try inWindow.synchronize()
        try offscreen.synchronize()

        // The same scene captured from the offscreen output and from the window output's scratch image.
        let reference = try offscreen.capture()
        Self.expectSceneColours(reference, "offscreen capture")
        let exact = ImageComparison(channelTolerance: 0, maxDifferingPixels: 0)
        let captured = try inWindow.capture()
        let sameCapture = exact.compare(captured, reference)
        #expect(sameCapture.matches, "window output's capture vs offscreen: \(sameCapture)")

        // What the X server shows in the window: the same pixels, byte for byte.
        let shown = try Self.shownImage(x, window)
        Self.expectSceneColours(shown, "window")
        let sameWindow = exact.compare(shown, reference)
        #expect(sameWindow.matches, "window vs offscreen capture: \(sameWindow)")

        // Closing the window as a window manager does stops display 1 only: the server destroys the
        // window, a capture of display 1 is refused naming it, display 0 goes on.
        try x.askToClose(window)
        let deadline = Date(timeIntervalSinceNow: 20)
        while x.exists(window) && Date() < deadline { usleep(10_000) }
        #expect(!x.exists(window), "laminad did not destroy its window after WM_DELETE_WINDOW")
        do {
            _ = try inWindow.capture()
            Issue.record("a capture of the closed display succeeded")
        } catch {
            let text = "\(error)"
            #expect(text.contains("display 1") && text.contains("closed"), "capture of the closed display: \(text)")
        }
        #expect(server.isRunning)
        offscreen.layer = Self.scene(red: CGColor(red: 1, green: 1, blue: 0, alpha: 1))
        try offscreen.synchronize()
        let after = try offscreen.capture()
        #expect(Self.rgba(after, 60, 50) == [255, 255, 0, 255])
        #expect(Self.rgba(after, 200, 120) == [0, 255, 0, 255])
        // The connected client learnt of it (displaysChanged, the hot-plug event), and a client that
        // connects now is told only of display 0; display 1's number is not reused.
        #expect(offscreen.displays.map(\.id) == [0])
        let late = try server.connect(name: "late")
        #expect(late.displays.map(\.id) == [0])
        _ = try late.ping()

        let report = server.stop()
        #expect(report.exitStatus == 0, "laminad: \(report.log)")
        #expect(report.validationMessages.isEmpty)
        #expect(report.log.contains("display closed"), "laminad: \(report.log)")
    }

    @Test func windowMadeAgainAfterAResizeShowsTheFrameAtTheTopLeft() throws {
        let xvfb = try XvfbServer()
        defer { withExtendedLifetime(xvfb) {} }
        let server = try TestServer(
            extraArguments: ["--output", "window:320x240"], environment: ["DISPLAY": xvfb.display])
        let x = try XClient(display: xvfb.display)
        let window = try #require(x.windows(titled: "laminad").first)
        // Resize the window to 400×300 as a window manager would; the display's mode stays 320×240.
        x.resize(window, width: 400, height: 300)
        let context = try CAContext(socketPath: server.socketPath, clientName: "resized", display: 1)
        context.layer = Self.scene()
        try context.synchronize()
        let deadline = Date(timeIntervalSinceNow: 20)
        var shown = try x.image(of: window, width: 400, height: 300)
        while Self.rgba(shown, 60, 50) != [255, 0, 0, 255] && Date() < deadline {
            usleep(10_000)
            shown = try x.image(of: window, width: 400, height: 300)
        }
        Self.expectSceneColours(shown, "resized window")
        // Outside the display's 320×240: black.
        #expect(Self.rgba(shown, 350, 120) == [0, 0, 0, 255])
        #expect(Self.rgba(shown, 160, 270) == [0, 0, 0, 255])
        let report = server.stop()
        #expect(report.exitStatus == 0, "laminad: \(report.log)")
        #expect(report.validationMessages.isEmpty)
    }

    /// The window's `width`×`height` pixels once their top-left 320×240 equal `reference` byte for
    /// byte, read until they do for at most 20 seconds (the server redraws asynchronously).
    static func imageShowing(
        _ reference: CGImage, _ x: XClient, _ window: UInt32, width: Int = 320, height: Int = 240
    ) throws -> CGImage {
        let exact = ImageComparison(channelTolerance: 0, maxDifferingPixels: 0)
        let deadline = Date(timeIntervalSinceNow: 20)
        while true {
            let image = try x.image(of: window, width: width, height: height)
            let corner = try #require(image.cropping(to: CGRect(x: 0, y: 0, width: 320, height: 240)))
            if exact.compare(corner, reference).matches || Date() > deadline { return image }
            usleep(10_000)
        }
    }

    @Test func exposedOrResizedWindowShowsTheFrameAgainWithoutACommit() throws {
        let xvfb = try XvfbServer()
        defer { withExtendedLifetime(xvfb) {} }
        let server = try TestServer(
            extraArguments: ["--output", "window:320x240"], environment: ["DISPLAY": xvfb.display])
        let x = try XClient(display: xvfb.display)
        let window = try #require(x.windows(titled: "laminad").first)
        let inWindow = try CAContext(socketPath: server.socketPath, clientName: "exposed", display: 1)
        let offscreen = try CAContext(socketPath: server.socketPath, clientName: "reference", display: 0)
        inWindow.layer = Self.scene()
        offscreen.layer = Self.scene()
        try inWindow.synchronize()
        try offscreen.synchronize()
        let reference = try offscreen.capture()
        Self.expectSceneColours(reference, "offscreen capture")
        let exact = ImageComparison(channelTolerance: 0, maxDifferingPixels: 0)
        let first = try Self.imageShowing(reference, x, window)
        #expect(exact.compare(first, reference).matches, "window before exposure vs capture")

        // From here on no client commits: every redraw below comes from the window's events alone.
        // Another client's window covers laminad's (the screen shows its white there), then goes: the
        // X server fills the uncovered window with black and sends Expose.
        let cover = x.cover(x: 0, y: 0, width: 320, height: 240)
        let screen = try x.image(of: x.root, width: 320, height: 240)
        #expect(Self.rgba(screen, 60, 50) == [255, 255, 255, 255], "the cover does not hide the window")
        x.destroy(cover)
        let uncovered = try Self.imageShowing(reference, x, window)
        let sameUncovered = exact.compare(uncovered, reference)
        #expect(sameUncovered.matches, "window after being uncovered vs capture: \(sameUncovered)")

        // Another client clears the window with exposures (ClearArea): the same loss, the same Expose.
        x.clear(window)
        let cleared = try Self.imageShowing(reference, x, window)
        let sameCleared = exact.compare(cleared, reference)
        #expect(sameCleared.matches, "window after ClearArea vs capture: \(sameCleared)")

        // A resize loses the window's contents too: the frame is shown again at its top left.
        x.resize(window, width: 400, height: 300)
        let resized = try Self.imageShowing(reference, x, window, width: 400, height: 300)
        let corner = try #require(resized.cropping(to: CGRect(x: 0, y: 0, width: 320, height: 240)))
        let sameResized = exact.compare(corner, reference)
        #expect(sameResized.matches, "resized window's top left vs capture: \(sameResized)")
        #expect(Self.rgba(resized, 350, 120) == [0, 0, 0, 255])
        #expect(Self.rgba(resized, 160, 270) == [0, 0, 0, 255])

        let report = server.stop()
        #expect(report.exitStatus == 0, "laminad: \(report.log)")
        #expect(report.validationMessages.isEmpty)
    }

    /// Waits (at most 20 seconds) until the output's event descriptor is readable, then lets it
    /// handle its events, until `done` holds: what the server's loop does.
    static func handleEvents(of output: WindowOutput, until done: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: 20)
        while !done() && Date() < deadline {
            var fd = pollfd(fd: output.eventFileDescriptor!, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, 1000)
            _ = output.handleEvents()
        }
    }

    @Test func swapchainFollowsTheWindowAndDestroyNotifyClosesTheOutput() throws {
        let xvfb = try XvfbServer()
        defer { withExtendedLifetime(xvfb) {} }
        let renderer = try VulkanRenderer(device: VulkanDevice(validation: true, windowSystem: true))
        #expect(renderer.vk.canPresentToXcb)
        let output = try WindowOutput(
            mode: DisplayMode(width: 320, height: 240, refreshRate: 60), renderer: renderer, display: xvfb.display)
        #expect(output.swapchain.size.width == 320 && output.swapchain.size.height == 240)
        let blue = DisplayListBuilder.build(
            trees: [], display: 0, width: 320, height: 240, clearColor: SIMD4(0, 0, 1, 1))
        try output.present(blue)
        let x = try XClient(display: xvfb.display)
        let window = output.window
        #expect(x.windows(titled: "laminad") == [window])

        // A resize reaches the loop's side as ConfigureNotify; the next present makes the swapchain
        // again at the window's size and copies the 320×240 frame to its top left, the rest black.
        x.resize(window, width: 400, height: 300)
        Self.handleEvents(of: output) { output.windowSize.width == 400 && output.windowSize.height == 300 }
        // The new size asks the server for a redraw, once.
        #expect(output.takeRedrawRequest())
        #expect(!output.takeRedrawRequest())
        try output.present(blue)
        #expect(output.swapchain.size.width == 400 && output.swapchain.size.height == 300)
        let deadline = Date(timeIntervalSinceNow: 20)
        var shown = try x.image(of: window, width: 400, height: 300)
        while Self.rgba(shown, 10, 10) != [0, 0, 255, 255] && Date() < deadline {
            usleep(10_000)
            shown = try x.image(of: window, width: 400, height: 300)
        }
        #expect(Self.rgba(shown, 0, 0) == [0, 0, 255, 255])
        #expect(Self.rgba(shown, 319, 239) == [0, 0, 255, 255])
        #expect(Self.rgba(shown, 320, 239) == [0, 0, 0, 255])
        #expect(Self.rgba(shown, 319, 240) == [0, 0, 0, 255])
        #expect(Self.rgba(shown, 399, 299) == [0, 0, 0, 255])

        // Another client destroys the window: DestroyNotify closes the output, presenting throws.
        #expect(!output.isClosed)
        x.destroy(window)
        Self.handleEvents(of: output) { output.isClosed }
        #expect(output.isClosed)
        #expect(throws: WindowOutputError.self) { try output.present(blue) }
        // A capture never touches the window.
        let captured = try output.capture(blue)
        #expect(Array(captured.pixels.prefix(4)) == [255, 0, 0, 255])  // BGRA: opaque blue
        try renderer.waitForAllFrames()
        #expect(renderer.validationMessages.isEmpty, "\(renderer.validationMessages)")
    }

    /// A 20×20 red square at x `x`, y 100 on blue, 320×240, as a display list with `damage`.
    static func square(at x: Int, damage: [DamageRect]?) throws -> DisplayList {
        var ops = RendererTests.layer(
            1, frame: CGRect(x: 0, y: 0, width: 320, height: 240), color: RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)
        )
        ops += RendererTests.layer(
            2, frame: CGRect(x: x, y: 100, width: 20, height: 20), color: RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
        )
        ops += [.setSublayers(1, [2]), .setRoot(display: 0, layer: 1)]
        var list = DisplayListBuilder.build(
            trees: [try RenderTree().applying(ops, displayCount: 1)], display: 0, width: 320, height: 240)
        list.damage = damage
        return list
    }

    /// Frames that change a little copy little: each swapchain image keeps the frame it showed, so a
    /// present copies only what the acquired image lacks of the newest frame (the damage of the frames
    /// since its own, by buffer age), and the window still shows exactly the newest frame. A square
    /// moves 30 pixels a frame; once every image has been shown, each present copies at most the
    /// damage of the last `images` frames (40×20 a frame: the square's old and new places).
    @Test func smallChangesCopyOnlyWhatEachImageLacks() throws {
        let xvfb = try XvfbServer()
        defer { withExtendedLifetime(xvfb) {} }
        let renderer = try VulkanRenderer(device: VulkanDevice(validation: true, windowSystem: true))
        let output = try WindowOutput(
            mode: DisplayMode(width: 320, height: 240, refreshRate: 60), renderer: renderer, display: xvfb.display)
        try output.present(try Self.square(at: 10, damage: nil))
        #expect(renderer.lastPresentPixelsCopied == 320 * 240, "the first frame is copied whole")
        let images = output.swapchain.imageCount
        #expect(images >= 2)
        var x = 10
        var copied: [Int] = []
        for _ in 0..<(images + 3) {
            let damage = [
                DamageRect(x: x, y: 100, width: 20, height: 20), DamageRect(x: x + 30, y: 100, width: 20, height: 20),
            ]
            x += 30
            try output.present(try Self.square(at: x, damage: damage))
            copied.append(renderer.lastPresentPixelsCopied)
        }
        // The last three presents reuse images that showed a frame `images` presents ago at most.
        for pixels in copied.suffix(3) {
            #expect(pixels > 0 && pixels <= images * 2 * 400, "copied \(pixels) of \(320 * 240): \(copied)")
        }
        let xc = try XClient(display: xvfb.display)
        let deadline = Date(timeIntervalSinceNow: 20)
        var shown = try xc.image(of: output.window, width: 320, height: 240)
        while Self.rgba(shown, x + 10, 110) != [255, 0, 0, 255] && Date() < deadline {
            usleep(10_000)
            shown = try xc.image(of: output.window, width: 320, height: 240)
        }
        // The newest frame, pixel for pixel: the square at its last place, blue everywhere it was.
        var wrong = 0
        for py in stride(from: 0, to: 240, by: 2) {
            for px in 0..<320 {
                let inside = px >= x && px < x + 20 && py >= 100 && py < 120
                if Self.rgba(shown, px, py) != (inside ? [255, 0, 0, 255] : [0, 0, 255, 255]) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
        try renderer.waitForAllFrames()
        #expect(renderer.validationMessages.isEmpty, "\(renderer.validationMessages)")
    }

    @Test func missingOrUnreachableDisplayIsAnErrorNamingTheOutput() throws {
        for (display, reason) in [(nil, "DISPLAY is not set"), (":4095", "cannot connect to the X display ':4095'")] {
            let process = Process()
            process.executableURL = try TestServer.laminadURL()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "lamina-window-\(UUID().uuidString.prefix(8))")
            defer { try? FileManager.default.removeItem(at: folder) }
            process.arguments = ["--socket", folder.appendingPathComponent("socket").path, "--output", "window:64x48"]
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = display
            process.environment = environment
            let pipe = Pipe()
            process.standardError = pipe
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 2, "\(text)")
            #expect(text.contains("--output window:64x48") && text.contains(reason), "\(text)")
        }
    }

    @Test func parseAcceptsWindowWithAndWithoutAMode() throws {
        // A bare `window` is 1280×720 at 60 Hz.
        #expect(try OutputSpecification.parse("window") == .window(.init(width: 1280, height: 720, refreshRate: 60)))
        #expect(
            try OutputSpecification.parse("window:320x240") == .window(.init(width: 320, height: 240, refreshRate: 60)))
        #expect(
            try OutputSpecification.parse("window:640x480@30")
                == .window(.init(width: 640, height: 480, refreshRate: 30)))
        for bad in ["window:", "window:0x10", "window:320x240@", "window:@60", "windows:320x240", "window:320"] {
            #expect(throws: OutputSpecificationError.self, "\(bad)") { try OutputSpecification.parse(bad) }
        }
    }
}
