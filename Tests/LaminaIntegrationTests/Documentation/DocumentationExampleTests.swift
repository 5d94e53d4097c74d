import Foundation
import Lamina
import LaminaTesting
import Testing

/// The README's Swift examples, compiled as written: each is the `main.swift` of an executable
/// target under `Examples/` (so `swift build` fails if one stops compiling), this suite checks that
/// the README still shows each file to the letter, and runs them as a newcomer would.
@Suite struct DocumentationExampleTests {
    /// The repository's root, from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The Swift blocks of the README, in order.
    static func readmeBlocks() throws -> [String] {
        let text = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Every Swift block of the README is one of the compiled examples, to the letter.
    @Test func readmeShowsTheCompiledExamples() throws {
        let blocks = try Self.readmeBlocks()
        let examples = ["readme-example", "graphics-example"].map {
            Self.repository.appendingPathComponent("Examples/\($0)/main.swift")
        }
        #expect(blocks.count == examples.count, "README has \(blocks.count) Swift blocks")
        for (block, file) in zip(blocks, examples) {
            let source = try String(contentsOf: file, encoding: .utf8)
            #expect(block == source, "the README's block differs from \(file.lastPathComponent) of its folder")
        }
    }

    /// Runs the example binary `name` in a fresh folder with `environment` added; returns the folder.
    static func run(_ name: String, environment: [String: String] = [:]) throws -> URL {
        let binary = try TestServer.laminadURL().deletingLastPathComponent().appendingPathComponent(name)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-example-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = binary
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(name) exited with \(process.terminationStatus)")
        return folder
    }

    /// Decodes the PNG at `url`.
    static func png(_ url: URL) throws -> CGImage {
        let provider = try #require(CGDataProvider(url: url as CFURL), "no file \(url.lastPathComponent)")
        return try #require(
            CGImage(pngDataProviderSource: provider, decode: nil, shouldInterpolate: false, intent: .defaultIntent))
    }

    /// The README's short example (`import Lamina` alone) connects to `LAMINA_SOCKET` and writes
    /// frame.png: a white root and, at the centre of the card's frame (320, 240), the card's blue
    /// (0.16, 0.42, 0.86) whatever its rotation about that centre.
    @Test func readmeExampleDrawsTheCard() throws {
        let server = try TestServer(width: 1280, height: 720)
        let folder = try Self.run("readme-example", environment: ["LAMINA_SOCKET": server.socketPath])
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Self.png(folder.appendingPathComponent("frame.png"))
        #expect(image.width == 1280 && image.height == 720)
        let card = PixelExpectation(red: 41, green: 107, blue: 219, alpha: 255, tolerance: 2)
        let white = PixelExpectation(red: 255, green: 255, blue: 255, alpha: 255, tolerance: 2)
        #expect(card.mismatch(in: image, x: 320, y: 240) == nil)
        #expect(white.mismatch(in: image, x: 1200, y: 650) == nil)
        #expect(white.mismatch(in: image, x: 20, y: 20) == nil)
        let report = server.stop()
        #expect(report.validationMessages.isEmpty)
    }

    /// The README's graphics example (`import LaminaGraphics` alone, no server) writes ellipse.png:
    /// the ellipse's colour (0.9, 0.3, 0.1) at its centre (100, 50), nothing outside it at (2, 2).
    @Test func graphicsExampleDrawsWithoutAServer() throws {
        let folder = try Self.run("graphics-example")
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Self.png(folder.appendingPathComponent("ellipse.png"))
        #expect(image.width == 200 && image.height == 100)
        let fill = PixelExpectation(red: 230, green: 77, blue: 26, alpha: 255, tolerance: 2)
        #expect(fill.mismatch(in: image, x: 100, y: 50) == nil)
        #expect(
            PixelExpectation(red: 0, green: 0, blue: 0, alpha: 0, tolerance: 0).mismatch(in: image, x: 2, y: 2) == nil)
    }
}
