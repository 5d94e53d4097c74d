import ArgumentParser
import Foundation
import Lamina
import LaminaProtocol

/// Talks to a running laminad: captures frames, prints render trees, measures round trips.
struct LaminaCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "laminactl",
        abstract: "Control and inspect a running Lamina render server.",
        subcommands: [Capture.self, Tree.self, Ping.self, Stats.self, Displays.self, Frames.self])

    struct Connection: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "Socket path. Default: $LAMINA_SOCKET, else $XDG_RUNTIME_DIR/lamina/socket, else /run/lamina/socket.",
                valueName: "path"))
        var socket: String?

        func context() throws -> CAContext {
            try CAContext(socketPath: socket ?? CAContext.defaultSocketPath(), clientName: "laminactl")
        }
    }

    struct Capture: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a display (display 0 unless --display says) as a PNG, now or at a media time.",
            discussion: """
                As the server's user or root the capture shows every client's layers; as any other user, \
                only this connection's own (none).
                """)
        @OptionGroup var connection: Connection
        @Option(name: .shortAndLong, help: ArgumentHelp("PNG file to write.", valueName: "file"))
        var output: String
        @Option(
            help: ArgumentHelp(
                "Media time in seconds (the CACurrentMediaTime clock); default now.",
                valueName: "seconds"))
        var at: Double?
        @Option(
            help: ArgumentHelp(
                "Display number, as laminad numbers its --output options from 0.",
                valueName: "n"))
        var display: UInt32 = 0

        func run() throws {
            let image = try connection.context().capture(at: at, display: display)
            try image.writePNG(to: output)
            print("wrote \(output) (\(image.width)x\(image.height))")
        }
    }

    struct Tree: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print this connection's render tree (the server shows no client another's).")
        @OptionGroup var connection: Connection
        func run() throws {
            print(try connection.context().describeTree(), terminator: "")
        }
    }

    struct Ping: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the server's version and the round-trip time.")
        @OptionGroup var connection: Connection
        func run() throws {
            let (version, rtt) = try connection.context().ping()
            print("laminad \(version), round trip \(String(format: "%.3f", rtt * 1000)) ms")
        }
    }

    struct Displays: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the server's displays: number, name, mode, refresh rate and connector.",
            discussion: "A display whose output has closed (a closed window) is not listed.")
        @OptionGroup var connection: Connection
        func run() throws {
            print("id\tname\tmode\trefresh\tconnector")
            for display in try connection.context().displays {
                print(Self.line(display))
            }
        }

        /// One display as a tab-separated line: `0  offscreen-0  640x480  60 Hz  ` (the connector is
        /// empty offscreen).
        static func line(_ display: DisplayInfo) -> String {
            let hertz =
                display.refreshRate == display.refreshRate.rounded()
                ? String(Int(display.refreshRate)) : String(format: "%.2f", display.refreshRate)
            return
                "\(display.id)\t\(display.name)\t\(display.width)x\(display.height)\t\(hertz) Hz\t\(display.connector)"
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Print what the server holds for each client: layers, animations, textures, shared surfaces and their bytes.",
            discussion: """
                As the server's user or root every client is listed; as any other user, only this \
                connection (laminactl itself).
                """)
        @OptionGroup var connection: Connection
        func run() throws {
            print("pid\tlayers\tanimations\ttextures\ttexture bytes\tsurfaces\tsurface bytes\tbytes copied\tname")
            for client in try connection.context().statistics() {
                print(
                    "\(client.pid)\t\(client.layers)\t\(client.animations)\t\(client.images)\t"
                        + "\(client.textureBytes)\t\(client.surfaces)\t\(client.surfaceBytes)\t"
                        + "\(client.surfaceBytesCopied)\t\(client.name)")
            }
        }
    }
}

extension LaminaCtl {
    struct Frames: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print what the newest frames of a display cost, and a summary of their CPU times.",
            discussion: """
                Each frame: its media time, layers visited, instances emitted, pixels drawn, the display's \
                pixels, offscreen passes (and of those, kept from an earlier frame without drawing), raster \
                cache hits and misses (shouldRasterize), CPU and GPU milliseconds (GPU: - where the renderer has no \
                timestamps) and whether it missed its refresh. The summary gives the 50th, 90th and 99th \
                percentile and the worst CPU time and the missed refreshes. The server keeps 600 frames a \
                display, and records a frame only when something changed.
                """)
        @OptionGroup var connection: Connection
        @Option(help: "The display (default 0).") var display: UInt32 = 0
        @Option(help: "How many frames, newest last (at most 600).") var count: Int = 60
        @Flag(help: "One JSON object per frame and one for the summary, one per line.") var json = false

        func run() throws {
            let records = try connection.context().frameRecords(display: display, count: count)
            let summary = FrameSummary(records)
            if json {
                for r in records { print(FrameSummary.json(r)) }
                print(summary.json)
                return
            }
            print(
                "time\tlayers\tinstances\tpixels drawn\tdisplay pixels\tpasses\tkept\traster hits\traster misses"
                    + "\tcpu ms\tgpu ms\tmissed")
            for r in records {
                let gpu = r.gpuMilliseconds.map { String(format: "%.3f", $0) } ?? "-"
                print(
                    String(format: "%.4f", r.time) + "\t\(r.layersVisited)\t\(r.instancesEmitted)\t\(r.pixelsDrawn)\t"
                        + "\(r.displayPixels)\t\(r.offscreenPasses)\t\(r.offscreenPassesKept)\t\(r.rasterCacheHits)\t"
                        + "\(r.rasterCacheMisses)\t" + String(format: "%.3f", r.cpuMilliseconds)
                        + "\t\(gpu)\t\(r.missedDeadline ? "yes" : "no")")
            }
            print(summary.text)
        }
    }
}

LaminaCtl.main()
