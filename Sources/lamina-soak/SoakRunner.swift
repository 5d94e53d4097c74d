import Foundation
import Lamina
import LaminaTesting

/// Runs one soak: starts `laminad`, keeps `clients` client processes churning (killing one in
/// `killEvery` while it commits), samples the server every `sampleSeconds`, then stops everything
/// and writes the CSV and the plot.
struct SoakRunner {
    /// A running client process and, for one to be killed, when.
    struct Child {
        var process: Process
        var killAt: Date?
    }

    let outputFolder: String
    let clients: Int
    let sampleSeconds: Double
    let killEvery: Int
    let socketPath: String
    let server: Process
    let observer: CAContext
    var children: [Child] = []
    var started = 0
    var killed = 0
    var random = SplitMix64(seed: 2024)

    /// This program, which the clients run in `--client` mode.
    static let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()

    /// Starts `laminad` on a socket in a fresh temporary folder and connects the observing client.
    init(laminad: String, outputFolder: String, clients: Int, sampleSeconds: Double, killEvery: Int) throws {
        self.outputFolder = outputFolder
        self.clients = clients
        self.sampleSeconds = sampleSeconds
        self.killEvery = killEvery
        try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-soak-\(getpid())")
        socketPath = folder.appendingPathComponent("socket").path
        server = Process()
        server.executableURL = URL(fileURLWithPath: laminad)
        server.arguments = ["--socket", socketPath, "--output", "offscreen:320x240@60", "--log-level", "warning"]
        let logPath = (outputFolder as NSString).appendingPathComponent("laminad.log")
        FileManager.default.createFile(atPath: logPath, contents: nil)
        server.standardError = FileHandle(forWritingAtPath: logPath)
        server.standardOutput = FileHandle.nullDevice
        try server.run()
        var connected: CAContext?
        let deadline = Date(timeIntervalSinceNow: 30)
        while connected == nil, Date() < deadline, server.isRunning {
            connected = try? CAContext(socketPath: socketPath, clientName: "soak-observer")
            if connected == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        guard let connected else { throw SoakError("laminad did not start; see \(logPath)") }
        observer = connected
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.backgroundColor = CGColor(red: 0.9, green: 0.9, blue: 0.9, alpha: 1)
        observer.layer = root
        CATransaction.flush()
    }

    /// Churns for `minutes`, sampling as it goes; returns the samples.
    mutating func run(minutes: Double) throws -> [SoakSample] {
        let start = Date()
        var samples: [SoakSample] = []
        var nextSample = 0.0
        while Date().timeIntervalSince(start) < minutes * 60 {
            guard server.isRunning else { throw SoakError("laminad exited with status \(server.terminationStatus)") }
            churn()
            let elapsed = Date().timeIntervalSince(start)
            if elapsed >= nextSample {
                samples.append(sample(elapsed: elapsed))
                // A slow sample under load skips the slots it overran rather than sampling in a burst.
                nextSample = ((elapsed / sampleSeconds).rounded(.down) + 1) * sampleSeconds
                let last = samples[samples.count - 1]
                FileHandle.standardError.write(Data("lamina-soak: \(last.csvLine)\n".utf8))
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        for child in children where child.process.isRunning { kill(child.process.processIdentifier, SIGKILL) }
        for child in children { child.process.waitUntilExit() }
        children = []
        // One last sample with every client gone: what the server keeps when idle.
        Thread.sleep(forTimeInterval: 0.5)
        samples.append(sample(elapsed: Date().timeIntervalSince(start)))
        return samples
    }

    /// Reaps finished clients, kills those due, and starts new ones up to `clients`.
    mutating func churn() {
        let now = Date()
        for child in children where child.process.isRunning {
            if let due = child.killAt, now >= due {
                kill(child.process.processIdentifier, SIGKILL)
                killed += 1
            }
        }
        children.removeAll { !$0.process.isRunning }
        while children.count < clients {
            let process = Process()
            process.executableURL = Self.executable
            let doomed = random.below(killEvery) == 0
            process.arguments = [
                "--client", "--socket", socketPath, "--seed", "\(random.next())", "--commits", doomed ? "0" : "4",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                FileHandle.standardError.write(Data("lamina-soak: cannot start a client: \(error)\n".utf8))
                return
            }
            started += 1
            let killAt = doomed ? now.addingTimeInterval(0.5 + Double(random.below(2500)) / 1000) : nil
            children.append(Child(process: process, killAt: killAt))
        }
    }

    /// Reads the server's memory and descriptors from `/proc` and times a capture and a ping.
    func sample(elapsed: Double) -> SoakSample {
        let pid = server.processIdentifier
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let rssLine = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        let rss = rssLine.flatMap {
            Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        let before = Date()
        let captured = (try? observer.capture()) != nil
        let capture = captured ? Date().timeIntervalSince(before) * 1000 : -1
        let ping = (try? observer.ping().roundTrip).map { $0 * 1000 } ?? -1
        return SoakSample(
            elapsed: elapsed, rssKiB: rss ?? -1, descriptors: descriptors, clientsStarted: started,
            clientsKilled: killed, captureMilliseconds: capture, pingMilliseconds: ping)
    }

    /// What `finish` found: a summary and whether memory stayed flat.
    struct Report {
        var text: String
        var flat: Bool
    }

    /// Stops the server, writes `soak.csv` and `soak.png`, and judges the RSS trend of the last half.
    func finish(_ samples: [SoakSample], minutes: Double, maxGrowthMiB: Double) throws -> Report {
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
        let csv = ([SoakSample.csvHeader] + samples.map(\.csvLine)).joined(separator: "\n") + "\n"
        let csvPath = (outputFolder as NSString).appendingPathComponent("soak.csv")
        try csv.write(toFile: csvPath, atomically: true, encoding: .utf8)
        let pngPath = (outputFolder as NSString).appendingPathComponent("soak.png")
        let title = String(
            format: "laminad soak: %.1f min, %d clients started, %d killed mid-transaction", minutes, started, killed)
        try SoakPlot.write(samples, title: title, to: pngPath)

        let half = samples.filter { $0.elapsed >= samples.last.map { $0.elapsed / 2 } ?? 0 }
        let trend = SoakTrend(times: half.map(\.elapsed), values: half.map { Double($0.rssKiB) / 1024 })
        let fdTrend = SoakTrend(times: half.map(\.elapsed), values: half.map { Double($0.descriptors) })
        let rss = samples.map { Double($0.rssKiB) / 1024 }
        let fds = samples.map(\.descriptors)
        let captures = samples.map(\.captureMilliseconds).filter { $0 >= 0 }.sorted()
        let median = captures.isEmpty ? -1 : captures[captures.count / 2]
        let p95 = captures.isEmpty ? -1 : captures[min(captures.count - 1, captures.count * 95 / 100)]
        let flat = trend.rise <= maxGrowthMiB
        let lines = [
            "samples \(samples.count), clients started \(started), killed \(killed), laminad status \(server.terminationStatus)",
            String(
                format: "RSS MiB: first %.1f, last %.1f, min %.1f, max %.1f", rss.first ?? 0, rss.last ?? 0,
                rss.min() ?? 0, rss.max() ?? 0),
            String(
                format: "RSS last half: slope %.3f MiB/min, rise %.2f MiB (bound %.1f): ", trend.slopePerMinute,
                trend.rise, maxGrowthMiB) + (flat ? "flat" : "GROWING"),
            String(
                format: "descriptors: first %d, last %d, max %d; last-half slope %.3f/min", fds.first ?? 0,
                fds.last ?? 0, fds.max() ?? 0, fdTrend.slopePerMinute),
            String(format: "capture ms: median %.1f, p95 %.1f, max %.1f", median, p95, captures.last ?? -1),
            "wrote \(csvPath) and \(pngPath)",
        ]
        return Report(text: lines.joined(separator: "\n"), flat: flat && server.terminationStatus == 0)
    }
}
