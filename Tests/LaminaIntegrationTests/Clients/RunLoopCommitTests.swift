import Foundation
import Lamina
import LaminaTesting
import Testing

/// Changes made outside an explicit transaction are committed by the run-loop observer at the end of
/// the main run loop's turn, without `CATransaction.flush()`. Tested with a real program whose main
/// thread runs the run loop (`lamina-demo --run-loop`), since test functions do not.
@Suite(.serialized) final class RunLoopCommitTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 64, height: 48)
    }

    deinit {
        server.stop()
    }

    @Test func implicitTransactionCommitsAtTheEndOfTheRunLoopTurn() throws {
        let demo = Process()
        demo.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("lamina-demo")
        if !FileManager.default.isExecutableFile(atPath: demo.executableURL!.path),
            let executable = Bundle.main.executableURL
        {
            demo.executableURL = executable.deletingLastPathComponent().appendingPathComponent("lamina-demo")
        }
        demo.arguments = ["--run-loop"]
        var environment = ProcessInfo.processInfo.environment
        environment["LAMINA_SOCKET"] = server.socketPath
        demo.environment = environment
        let pipe = Pipe()
        demo.standardOutput = pipe
        try demo.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        demo.waitUntilExit()
        #expect(demo.terminationStatus == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(
            lines.first { $0.hasPrefix("after the first turn") }?.contains("background=#ff0000ff") == true, "\(output)")
        #expect(
            lines.first { $0.hasPrefix("during the second turn") }?.contains("background=#ff0000ff") == true,
            "a change must wait for the end of its turn:\n\(output)")
        #expect(
            lines.first { $0.hasPrefix("after the second turn") }?.contains("background=#0000ffff") == true, "\(output)"
        )
    }

    @Test func nestedTransactionsReachTheServerAtTheOutermostCommit() throws {
        let context = try server.connect(name: "nested")
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        CATransaction.begin()
        context.layer = root
        CATransaction.begin()
        root.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        CATransaction.commit()
        #expect(!(try context.describeTree()).contains("#00ff00ff"), "an inner commit must not send")
        CATransaction.commit()
        #expect(try context.describeTree().contains("background=#00ff00ff"))
        let image = try context.capture()
        #expect(image.pixel(x: 20, y: 15) == (0, 255, 0, 255))
    }
}
