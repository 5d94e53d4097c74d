import ArgumentParser
import Foundation
import Lamina
import LaminaProtocol
import LaminaServer
import LaminaTesting
import LaminaVulkan

/// Measures Lamina's costs and compares its renderer with Cairo and pixman on the same scene, in one
/// run. Prints a Markdown report (Tools/bench writes it to docs/benchmarks.md).
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lamina-bench",
        abstract: "Lamina benchmarks (not timed tests).")

    @Option(help: "Frames (or runs) per median.")
    var iterations = 20

    @Option(help: "Folder for the rendered images of the benchmark scene.")
    var imageFolder = "bench-output"

    @Flag(help: "Run only the animation measurements (for profiling).")
    var animationsOnly = false

    @Flag(help: "Run only the commit throughput measurements (for profiling).")
    var commitsOnly = false

    @Flag(help: "Run only the victim ping measurements while another client commits 200,000 layers.")
    var stallOnly = false

    @Flag(help: "Run only the textured-layer (contents) measurements.")
    var contentsOnly = false

    @Flag(help: "Run only the image upload and server memory measurements (against a laminad process).")
    var uploadsOnly = false

    @Flag(
        help: "Run only the shared-surface measurements (CAVulkanLayer frames at 1280×720 against a laminad process).")
    var surfacesOnly = false

    @Option(help: "Runs of the image upload measurement (a fresh laminad each) per median.")
    var uploadRuns = 5

    @Flag(help: "Run only the scan-out measurements (a frame into a KMS buffer by the dumb and mapped paths).")
    var scanoutOnly = false

    @Flag(help: "Run only the damage measurements (a small moving layer over 1,000 layers, drawn whole and as damage).")
    var damageOnly = false

    @Option(help: "Display size of every scene, WIDTHxHEIGHT (default 1280x720; the damage measurements 1920x1080).")
    var size: String?

    @Flag(help: "Run only the retained-frame measurements (CPU only: full and patched display-list builds).")
    var framesOnly = false

    @Flag(
        help:
            "Time the CPU-only rows by the thread's CPU clock instead of the wall clock (for a loaded machine: time spent waiting for a core is not counted)."
    )
    var cpuClock = false

    /// The display size `--size` names, or `fallback` when it names none.
    func displaySize(_ fallback: (Int, Int) = (1280, 720)) throws -> (width: Int, height: Int) {
        guard let size else { return fallback }
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 && $0 <= 16384 }) else {
            throw ValidationError("--size takes WIDTHxHEIGHT, for example 1920x1080")
        }
        return (parts[0], parts[1])
    }

    @Flag(help: "Run only the SIGKILL-to-restored-screen measurement (laminad killed and started again).")
    var restartOnly = false

    @Flag(help: "Run only the shape and gradient layer measurements (100 of each per frame).")
    var shapesOnly = false

    @Flag(help: "Run only the shadow measurements (200 shadowed rounded cards per frame).")
    var shadowsOnly = false

    @Flag(help: "Run only the offscreen pass measurements (masks and group opacity on 200 cards per frame).")
    var effectsOnly = false

    @Flag(help: "Run only the text layer measurements (100 labels and 100 paragraphs laid out and drawn).")
    var textOnly = false

    @Flag(help: "Run only the replicator measurement (one CAReplicatorLayer of 1,000 copies per frame).")
    var replicatorOnly = false

    @Flag(help: "Run only the emitter measurement (one CAEmitterLayer of 5,000 live particles per frame).")
    var emitterOnly = false

    @Flag(help: "Run only the cube measurement (E29's cube in a CATransformLayer, sorted and split per frame).")
    var cubeOnly = false

    @Option(help: "Runs of the restart measurement (a killed and a new laminad each) per median.")
    var restartRuns = 5

    func run() throws {
        try FileManager.default.createDirectory(atPath: imageFolder, withIntermediateDirectories: true)
        (BenchSize.width, BenchSize.height) = try displaySize()
        let (width, height) = (BenchSize.width, BenchSize.height)
        var rows: [(String, String)] = []
        func row(_ name: String, _ value: String) {
            rows.append((name, value))
            FileHandle.standardError.write(Data("\(name): \(value)\n".utf8))
        }

        if stallOnly {
            let server = try TestServer(width: width, height: height, validation: false)
            defer { server.stop() }
            try stallRows(server, row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if commitsOnly {
            let server = try TestServer(width: width, height: height, validation: false)
            defer { server.stop() }
            for actions in [false, true] {
                let (perSecond, _) = try commitThroughput(server, actions: actions)
                print(
                    String(
                        format: "commit throughput, actions %@: %.0f property changes/s", actions ? "on" : "off",
                        perSecond))
            }
            print(String(format: "commits per second, one of 1,000 layers changed: %.0f", try sparseCommitRate(server)))
            let roundTrips = try emptyCommitRoundTrips(server, count: 200)
            print(String(format: "empty commit round trip: %.3f ms", median(roundTrips) * 1000))
            return
        }
        if contentsOnly {
            try ContentsBench.rows(
                renderer: try VulkanRenderer(validation: false), iterations: iterations, imageFolder: imageFolder,
                row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if surfacesOnly {
            try SurfaceBench.rows(frames: 120, row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if uploadsOnly {
            try UploadBench.rows(
                runs: uploadRuns, renderer: try VulkanRenderer(validation: false), imageFolder: imageFolder, row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if scanoutOnly {
            try ScanoutBench.rows(renderer: try VulkanRenderer(validation: false), iterations: iterations, row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        SoftwareReference.usesThreadClock = cpuClock
        if framesOnly {
            try FrameBench.rows(iterations: iterations, width: width, height: height, row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if damageOnly {
            let (width, height) = try displaySize((1920, 1080))
            (BenchSize.width, BenchSize.height) = (width, height)
            try DamageBench.rows(
                renderer: try VulkanRenderer(validation: false), iterations: iterations, width: width,
                height: height, row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if restartOnly {
            try restartRows(row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if effectsOnly {
            try EffectsBench.rows(renderer: try VulkanRenderer(validation: false), iterations: iterations, row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if shadowsOnly {
            try ShadowBench.rows(renderer: try VulkanRenderer(validation: false), iterations: iterations, row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if shapesOnly {
            try ShapeBench.rows(renderer: try VulkanRenderer(validation: false), iterations: iterations, row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if textOnly {
            try TextBench.rows(iterations: iterations, row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if replicatorOnly {
            try ReplicatorBench.rows(
                renderer: try VulkanRenderer(validation: false), iterations: iterations, imageFolder: imageFolder,
                row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if emitterOnly {
            try EmitterBench.rows(
                renderer: try VulkanRenderer(validation: false), iterations: iterations, imageFolder: imageFolder,
                row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if cubeOnly {
            try CubeBench.rows(
                renderer: try VulkanRenderer(validation: false), iterations: iterations, imageFolder: imageFolder,
                row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }
        if animationsOnly {
            let renderer = try VulkanRenderer(validation: false)
            try animationRows(
                renderer: renderer, target: try renderer.makeTarget(width: width, height: height), row: row)
            print("| measurement | value |\n|---|---|")
            for (name, value) in rows { print("| \(name) | \(value) |") }
            return
        }

        // Start-up to first frame.
        let startups = try (0..<5).map { _ in try startupToFirstFrame() }
        row("laminad start to first frame (median of 5)", ms(median(startups)))

        // Frame times in-process: display list build and Vulkan render, at the run's size.
        let renderer = try VulkanRenderer(validation: false)
        let target = try renderer.makeTarget(width: width, height: height)
        let scene = BenchScene.layers(count: 1000, width: width, height: height)
        let tree = try RenderTree().applying(
            Self.operations(for: scene, width: width, height: height), displayCount: 1)
        var list = DisplayList(width: 0, height: 0)
        let build = SoftwareReference.medianMilliseconds(iterations: iterations) {
            list = DisplayListBuilder.build(trees: [tree], display: 0, width: width, height: height, clearColor: .zero)
        }
        let render = SoftwareReference.medianMilliseconds(iterations: iterations) {
            try! renderer.render(list, into: target)
            try! renderer.waitForAllFrames()
        }
        let laminaPixels = try renderer.readPixels(target).pixels
        row("1,000 layers: display list build", String(format: "%.2f ms", build))
        row("1,000 layers: Vulkan render (\(renderer.deviceName))", String(format: "%.2f ms", render))
        row("1,000 layers: frame (build + render)", String(format: "%.2f ms", build + render))
        let count = { (kind: DrawKind) in list.instances[kind.id].count }
        let fills = count(.opaqueFill) + count(.blendedFill)
        row(
            "1,000 layers: instances / batches",
            "\(fills) fills + \(count(.corner)) corner pieces + \(count(.shape)) shape pieces in \(list.batches.count) batches"
        )

        let oneTree = try RenderTree().applying(
            Self.operations(for: [
                BenchLayer(
                    x: 590, y: 310, width: 100, height: 100, cornerRadius: 12, borderWidth: 3,
                    fill: (0.2, 0.5, 0.9, 1), border: (0.1, 0.11, 0.14, 1), opacity: 0.5)
            ]),
            displayCount: 1)
        let one = SoftwareReference.medianMilliseconds(iterations: iterations) {
            let l = DisplayListBuilder.build(
                trees: [oneTree], display: 0, width: width, height: height, clearColor: .zero)
            try! renderer.render(l, into: target)
            try! renderer.waitForAllFrames()
        }
        row("1 layer: frame (build + render)", String(format: "%.2f ms", one))

        // The same 1,000-layer scene in software.
        var cairoPixels: [UInt8] = []
        var pixmanPixels: [UInt8] = []
        let cairo = SoftwareReference.medianMilliseconds(iterations: iterations) {
            cairoPixels = SoftwareReference.renderCairo(scene, width: width, height: height)
        }
        let pixman = SoftwareReference.medianMilliseconds(iterations: iterations) {
            pixmanPixels = SoftwareReference.renderPixman(scene, width: width, height: height)
        }
        row("1,000 layers: Cairo", String(format: "%.2f ms", cairo))
        row("1,000 layers: pixman", String(format: "%.2f ms", pixman))
        row("Lamina frame ÷ Cairo", String(format: "%.2f×", (build + render) / cairo))
        row("Lamina frame ÷ pixman", String(format: "%.2f×", (build + render) / pixman))
        let (maxDiff, over8) = Self.difference(laminaPixels, cairoPixels)
        row("Lamina vs Cairo image", "max channel difference \(maxDiff), \(over8) pixels differ by more than 8")
        try Self.save(laminaPixels, "\(imageFolder)/lamina-1000.png")
        try Self.save(cairoPixels, "\(imageFolder)/cairo-1000.png")
        try Self.save(pixmanPixels, "\(imageFolder)/pixman-1000.png")

        try ContentsBench.rows(renderer: renderer, iterations: iterations, imageFolder: imageFolder, row: row)
        try UploadBench.rows(runs: uploadRuns, renderer: renderer, imageFolder: imageFolder, row: row)
        try ScanoutBench.rows(renderer: renderer, iterations: iterations, row: row)
        try animationRows(renderer: renderer, target: target, row: row)

        // Through the socket.
        let server = try TestServer(width: width, height: height, validation: false)
        defer { server.stop() }
        let (changesPerSecond, commits) = try commitThroughput(server, actions: false)
        row(
            "commit throughput (1,000 position changes per commit, \(commits) commits, actions disabled)",
            String(format: "%.0f property changes/s", changesPerSecond))
        let (animatedPerSecond, _) = try commitThroughput(server, actions: true)
        row(
            "commit throughput with implicit animations (each change adds a 0.25 s position animation)",
            String(format: "%.0f property changes/s", animatedPerSecond))
        let roundTrips = try emptyCommitRoundTrips(server, count: 200)
        row("empty commit round trip (median of 200)", String(format: "%.3f ms", median(roundTrips) * 1000))
        try stallRows(server, row: row)
        try restartRows(row: row)

        print("| measurement | value |\n|---|---|")
        for (name, value) in rows { print("| \(name) | \(value) |") }
    }

    /// A victim's ping while another client commits 200,000 layers, hidden then shown on display 0,
    /// then while it runs 250,000 animations on them.
    func stallRows(_ server: TestServer, row: (String, String) -> Void) throws {
        for scenario in StallBench.Scenario.allCases {
            let outcome = try StallBench.measure(server, scenario: scenario)
            let name = "victim ping while another client \(scenario.name)"
            row(
                "\(name): worst / median (\(outcome.pings.count) pings)",
                String(
                    format: "%.1f ms / %.2f ms", (outcome.pings.max() ?? .nan) * 1000, median(outcome.pings) * 1000))
            row(
                "\(name): commitApplied / commitPresented after the first part",
                String(format: "%.0f ms / %.0f ms", outcome.commitApplied * 1000, outcome.commitPresented * 1000))
        }
    }

    /// The time from a SIGKILL of laminad to a new one accepting connections, to the context's
    /// reconnect (state resent) and to a capture equal to the one before the crash; medians.
    func restartRows(row: (String, String) -> Void) throws {
        let outcomes = try RestartBench.measure(runs: restartRuns)
        let name = "SIGKILL of laminad, new laminad started at once (no RestartSec), median of \(outcomes.count)"
        row("\(name): killed laminad exited, new one started", ms(median(outcomes.map(\.exited))))
        row("\(name): new laminad accepts connections", ms(median(outcomes.map(\.accepting))))
        row("\(name): context reconnected, state resent (onReconnect)", ms(median(outcomes.map(\.reconnected))))
        row(
            "\(name): capture equal to the pre-crash scene at the same media time",
            ms(median(outcomes.map(\.restored))))
    }

    /// Animations: evaluation per animated property per frame, then 10,000 animated layers.
    func animationRows(renderer: VulkanRenderer, target: any RenderTarget, row: (String, String) -> Void) throws {
        for c in AnimationBench.selectedCases {
            let ns = AnimationBench.evaluationCost(c.record, rounds: max(3, iterations / 4))
            row("animation evaluation per property per frame: \(c.name)", String(format: "%.0f ns", ns))
        }
        for c in AnimationBench.selectedCases {
            let ns = AnimationBench.inPlaceCost(c.record, rounds: max(3, iterations / 4))
            row(
                "animation evaluation per property per frame, in place (no state copy): \(c.name)",
                String(format: "%.0f ns", ns))
        }
        let copy = AnimationBench.evaluationCost(nil, rounds: max(3, iterations / 4))
        row(
            "animation evaluation, no animation (the copy of the layer state that each row above includes)",
            String(format: "%.0f ns", copy))
        let still = AnimationBench.tenThousandLayerFrame(
            try AnimationBench.tenThousandLayers(animated: false),
            renderer: renderer, target: target, iterations: iterations)
        let animated = AnimationBench.tenThousandLayerFrame(
            try AnimationBench.tenThousandLayers(animated: true),
            renderer: renderer, target: target, iterations: iterations)
        row("10,000 layers, no animations: display list build", String(format: "%.2f ms", still.build))
        row(
            "10,000 layers, position + opacity animation each: display list build (evaluates 20,000 animations)",
            String(format: "%.2f ms", animated.build))
        row("10,000 animated layers: advanceAnimations (events, removal)", String(format: "%.2f ms", animated.advance))
        row("10,000 animated layers: Vulkan render", String(format: "%.2f ms", animated.render))
        row(
            "10,000 animated layers: frame (build + advance + render)",
            String(format: "%.2f ms", animated.build + animated.advance + animated.render))
        row("10,000 layers: animated ÷ still display list build", String(format: "%.2f×", animated.build / still.build))
    }

    func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

    func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// Spawns laminad and reads the media time of its first presented frame from its log.
    func startupToFirstFrame() throws -> Double {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lamina-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let logURL = directory.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("laminad")
        process.arguments = ["--socket", directory.appendingPathComponent("socket").path]
        process.standardError = try FileHandle(forWritingTo: logURL)
        let start = CACurrentMediaTime()
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        while CACurrentMediaTime() - start < 20 {
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            if let range = text.range(of: "mediaTime=") {
                let number = text[range.upperBound...].prefix { "0123456789.".contains($0) }
                if let t = Double(number) { return t - start }
            }
            usleep(2000)
        }
        throw ValidationError("laminad did not report a first frame")
    }

    /// Commits that move all 1,000 layers, then one round trip to be sure the server applied them all.
    /// With `actions`, every change also runs the implicit position animation (searched, created,
    /// encoded, validated and attached on the server).
    func commitThroughput(_ server: TestServer, actions: Bool) throws -> (Double, Int) {
        let commits = 100
        let elapsed = try timeCommits(server, name: "bench", count: commits) { c, layers in
            CATransaction.setDisableActions(!actions)
            for (i, l) in layers.enumerated() {
                l.position = CGPoint(x: Double(i % 40) * 30 + 10 + Double(c % 7), y: Double(i / 40) * 28 + 10)
            }
        }
        return (Double(commits * 1000) / elapsed, commits)
    }

    /// Commits per second when each commit changes one layer among 1,000 (actions disabled): the
    /// client's work for the layers a commit did not change.
    func sparseCommitRate(_ server: TestServer) throws -> Double {
        let commits = 500
        let elapsed = try timeCommits(server, name: "bench-sparse", count: commits) { c, layers in
            CATransaction.setDisableActions(true)
            layers[c % 1000].position.x += 1
        }
        return Double(commits) / elapsed
    }

    /// Shows 1,000 20×20 layers on a 40-column grid in a new context, then times `count` transactions
    /// of `change` (given the transaction's number and the layers) and one round trip after them, to
    /// be sure the server applied them all: the seconds taken.
    func timeCommits(
        _ server: TestServer, name: String, count: Int, _ change: (Int, [CALayer]) -> Void
    ) throws -> Double {
        let context = try server.connect(name: name)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: BenchSize.width, height: BenchSize.height)
        let layers = (0..<1000).map { i -> CALayer in
            let l = CALayer()
            l.frame = CGRect(x: Double(i % 40) * 30, y: Double(i / 40) * 28, width: 20, height: 20)
            l.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
            root.addSublayer(l)
            return l
        }
        context.layer = root
        try context.synchronize()
        let start = CACurrentMediaTime()
        for c in 0..<count {
            CATransaction.begin()
            change(c, layers)
            CATransaction.commit()
        }
        try context.synchronize()
        let elapsed = CACurrentMediaTime() - start
        context.layer = nil
        try context.synchronize()
        return elapsed
    }

    /// Sends empty commits on a raw connection and times each until its `commitApplied`.
    func emptyCommitRoundTrips(_ server: TestServer, count: Int) throws -> [Double] {
        let socket = try SeqPacketSocket.connect(path: server.socketPath)
        try socket.send(
            MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "bench")))
        _ = try socket.receive(maxBytes: 65536)
        var times: [Double] = []
        for serial in 1...UInt64(count) {
            let start = CACurrentMediaTime()
            try socket.send(MessageCodec.encode(ClientMessage.commit(serial: serial, operations: [])))
            while true {
                guard let packet = try socket.receive(maxBytes: 65536), !packet.isEndOfStream else {
                    throw ValidationError("connection closed")
                }
                if case .commitApplied(serial) = try MessageCodec.decodeServer(packet.bytes) { break }
            }
            times.append(CACurrentMediaTime() - start)
        }
        return times
    }

    /// The render-tree operations for the benchmark scene: one root, then one layer per `BenchLayer`.
    static func operations(for scene: [BenchLayer], width: Int = 1280, height: Int = 720) -> [LayerOperation] {
        var ops: [LayerOperation] = [
            .createLayer(1), .set(1, .bounds(CGRect(x: 0, y: 0, width: width, height: height))),
            .set(1, .position(CGPoint(x: Double(width) / 2, y: Double(height) / 2))),
        ]
        var children: [LayerID] = []
        for (i, l) in scene.enumerated() {
            let id = LayerID(i + 2)
            children.append(id)
            ops += [
                .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: l.width, height: l.height))),
                .set(id, .position(CGPoint(x: l.x + l.width / 2, y: l.y + l.height / 2))),
                .set(id, .cornerRadius(l.cornerRadius)), .set(id, .borderWidth(l.borderWidth)),
                .set(id, .backgroundColor(RGBAColor(red: l.fill.r, green: l.fill.g, blue: l.fill.b, alpha: l.fill.a))),
                .set(
                    id, .borderColor(RGBAColor(red: l.border.r, green: l.border.g, blue: l.border.b, alpha: l.border.a))
                ),
                .set(id, .opacity(Float(l.opacity))),
            ]
        }
        return ops + [.setSublayers(1, children), .setRoot(display: 0, layer: 1)]
    }

    static func difference(_ a: [UInt8], _ b: [UInt8]) -> (Int, Int) {
        var maxDiff = 0, over = 0
        for p in stride(from: 0, to: min(a.count, b.count), by: 4) {
            var worst = 0
            for c in 0..<4 { worst = max(worst, abs(Int(a[p + c]) - Int(b[p + c]))) }
            maxDiff = max(maxDiff, worst)
            if worst > 8 { over += 1 }
        }
        return (maxDiff, over)
    }

    /// Writes premultiplied BGRA bytes of the run's display size as PNG.
    static func save(_ bgra: [UInt8], _ path: String) throws {
        try CGImage(
            width: BenchSize.width, height: BenchSize.height, stride: BenchSize.width * 4, premultipliedBGRA: bgra)!
            .writePNG(to: path)
    }
}

Bench.main()
