import Foundation
import Lamina
import LaminaTesting
import Testing

/// A real `laminad` with two offscreen outputs (320×240 at 60 Hz as display 0, 160×120 at 30 Hz as
/// display 1), rendered with Vulkan under validation: a context on display 1 shows its tree there only.
@Suite(.serialized) struct MultipleDisplayTests {
    /// A 40×20 opaque green layer centred at (30, 20): it covers pixels x 10..<50, y 10..<30.
    static func greenLayer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        layer.position = CGPoint(x: 30, y: 20)
        layer.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        return layer
    }

    static func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
        let p = image.pixel(x: x, y: y)
        return [Int(p.red), Int(p.green), Int(p.blue), Int(p.alpha)]
    }

    @Test func contextOnDisplayOneShowsItsTreeOnlyThere() throws {
        let server = try TestServer(extraArguments: ["--output", "offscreen:160x120@30"])
        let context = try CAContext(socketPath: server.socketPath, clientName: "display-one", display: 1)
        #expect(context.display == 1)
        #expect(context.displays.map(\.id) == [0, 1])
        #expect(context.displays.map { [$0.width, $0.height] } == [[320, 240], [160, 120]])
        #expect(context.displays.map(\.refreshRate) == [60, 30])
        context.layer = Self.greenLayer()
        try context.synchronize()

        // The context's own display by default, and display 1 by name: the layer, at its size.
        for image in [try context.capture(), try context.capture(display: 1)] {
            #expect(image.width == 160 && image.height == 120)
            #expect(Self.rgba(image, 10, 10) == [0, 255, 0, 255])
            #expect(Self.rgba(image, 49, 29) == [0, 255, 0, 255])
            #expect(Self.rgba(image, 9, 10) == [0, 0, 0, 255])
            #expect(Self.rgba(image, 50, 29) == [0, 0, 0, 255])
        }
        // Display 0 shows nothing of it.
        let zero = try context.capture(display: 0)
        #expect(zero.width == 320 && zero.height == 240)
        #expect(Self.rgba(zero, 10, 10) == [0, 0, 0, 255])

        // laminactl capture --display 1 writes the same frame.
        let file = server.directory.appendingPathComponent("display-1.png").path
        let laminactl = Process()
        laminactl.executableURL = try ServerLifecycleTests.executable("laminactl")
        laminactl.arguments = ["capture", "--socket", server.socketPath, "--display", "1", "-o", file]
        try laminactl.run()
        laminactl.waitUntilExit()
        #expect(laminactl.terminationStatus == 0)
        let written = try PNGCodec.read(file)
        #expect(written.width == 160 && written.height == 120)
        #expect(Self.rgba(written, 10, 10) == [0, 255, 0, 255])
        #expect(Self.rgba(written, 9, 10) == [0, 0, 0, 255])

        let report = server.stop()
        #expect(report.exitStatus == 0, "laminad: \(report.log)")
        #expect(report.validationMessages.isEmpty)
    }

    @Test func unknownDisplayIsAnErrorNamingIt() throws {
        let server = try TestServer(extraArguments: ["--output", "offscreen:160x120@30"])
        #expect(throws: CAContextError.unknownDisplay(2, available: [0, 1])) {
            try CAContext(socketPath: server.socketPath, clientName: "display-two", display: 2)
        }
        #expect(
            CAContextError.unknownDisplay(2, available: [0, 1]).description
                == "the render server has no display 2; it has 0, 1")
        server.stop()
    }
}
