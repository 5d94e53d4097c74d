import ArgumentParser
import Foundation
import Lamina

/// Churns clients against a `laminad` it starts and records the server's memory, descriptors and
/// frame cost over time (CSV and PNG); fails when memory grows over the last half of the run.
struct LaminaSoak: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lamina-soak",
        abstract: "Soak test: churns clients against laminad and plots its RSS, descriptors and capture times.")

    @Option(help: "Minutes to churn.")
    var minutes = 5.0

    @Option(help: ArgumentHelp("The laminad executable to start.", valueName: "path"))
    var laminad = "laminad"

    @Option(help: ArgumentHelp("Folder for soak.csv, soak.png and laminad.log.", valueName: "path"))
    var outputFolder = "soak-output"

    @Option(help: "Client processes running at once.")
    var clients = 4

    @Option(help: "Seconds between samples.")
    var sampleSeconds = 5.0

    @Option(help: "One client in this many is killed with SIGKILL while it commits.")
    var killEvery = 3

    @Option(help: "Most RSS growth (MiB) allowed over the last half of the run, by its least-squares line.")
    var maxGrowthMiB = 8.0

    @Flag(help: "Run as one churning client (internal: the soak starts these itself).")
    var client = false

    @Option(help: ArgumentHelp("Socket of the server (client mode).", valueName: "path"))
    var socket: String?

    @Option(help: "Seed of the client's random tree (client mode).")
    var seed: UInt64 = 1

    @Option(help: "Commits before a client leaves; 0 commits until killed (client mode).")
    var commits = 4

    func run() throws {
        if client {
            guard let socket else { throw ValidationError("--client needs --socket") }
            throw ExitCode(SoakClient(socketPath: socket, seed: seed, commits: commits).run())
        }
        guard minutes > 0, clients > 0, sampleSeconds > 0, killEvery > 0 else {
            throw ValidationError("--minutes, --clients, --sample-seconds and --kill-every must be positive")
        }
        var runner = try SoakRunner(
            laminad: laminad, outputFolder: outputFolder, clients: clients, sampleSeconds: sampleSeconds,
            killEvery: killEvery)
        let samples = try runner.run(minutes: minutes)
        let report = try runner.finish(samples, minutes: minutes, maxGrowthMiB: maxGrowthMiB)
        print(report.text)
        if !report.flat { throw ExitCode(1) }
    }
}

LaminaSoak.main()
