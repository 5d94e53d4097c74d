import Foundation
import Lamina
import LaminaProtocol
import LaminaTesting

/// How long a client waits for the server while another client works at the limits: a victim pings
/// the server in a loop while an attacker commits 200,000 layers (about 800,000 operations).
struct StallBench {
    /// Ping round trips of the victim, in seconds, and how long the attacker's commit took.
    struct Outcome {
        var pings: [Double]
        var commitApplied: Double
        var commitPresented: Double
    }

    /// Layers the attacker commits: `WireLimits.maxLayersPerClient`.
    static let layerCount = WireLimits.maxLayersPerClient

    /// Runs the measurement once against `server`; `shown` puts the attacker's layers on display 0.
    static func measure(_ server: TestServer, shown: Bool) throws -> Outcome {
        let victim = try connect(server, name: "victim")
        let attacker = try connect(server, name: "attacker")
        let messages = parts(shown: shown)
        let state = PingState()
        let thread = Thread { ping(victim, state) }
        thread.start()
        usleep(200_000)
        let start = CACurrentMediaTime()
        for message in messages { try attacker.send(MessageCodec.encode(message)) }
        var applied = Double.nan
        var presented = Double.nan
        while presented.isNaN {
            guard let packet = try attacker.receive(maxBytes: WireLimits.maxMessageBytes), !packet.isEndOfStream else {
                throw StallBenchError.closed
            }
            switch try MessageCodec.decodeServer(packet.bytes) {
            case .commitApplied: applied = CACurrentMediaTime() - start
            case .commitPresented: presented = CACurrentMediaTime() - start
            case .error(let code, let text): throw StallBenchError.refused("\(code): \(text)")
            default: break
            }
        }
        // A little longer: the frames right after the commit count too.
        usleep(300_000)
        state.stop()
        while !state.finished { usleep(1000) }
        if ProcessInfo.processInfo.environment["STALL_TRACE"] != nil {
            for (at, time) in state.slow {
                FileHandle.standardError.write(
                    Data(String(format: "slow ping at %.3f s: %.1f ms\n", at - start, time * 1000).utf8))
            }
        }
        attacker.close()
        victim.close()
        return Outcome(pings: state.times, commitApplied: applied, commitPresented: presented)
    }

    static func connect(_ server: TestServer, name: String) throws -> SeqPacketSocket {
        let socket = try SeqPacketSocket.connect(path: server.socketPath)
        try socket.send(MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: name)))
        _ = try socket.receive(maxBytes: WireLimits.maxMessageBytes)
        return socket
    }

    /// The attacker's transaction as parts of 1,000 operations and a commit: a root, groups of
    /// `maxSublayers` leaves under it, each leaf a 2×2 coloured layer on a grid over 1280×720.
    static func parts(shown: Bool) -> [ClientMessage] {
        let leaves = layerCount - 1 - (layerCount + WireLimits.maxSublayers - 1) / WireLimits.maxSublayers
        let groupCount = (leaves + WireLimits.maxSublayers - 1) / WireLimits.maxSublayers
        var operations: [LayerOperation] = [.createLayer(1)]
        var messages: [ClientMessage] = []
        var next: LayerID = 2 + LayerID(groupCount)
        var groups: [(LayerID, [LayerID])] = []
        for g in 0..<groupCount {
            let group = LayerID(2 + g)
            operations.append(.createLayer(group))
            var children: [LayerID] = []
            for _ in 0..<min(WireLimits.maxSublayers, leaves - g * WireLimits.maxSublayers) {
                let id = next
                next += 1
                let i = Int(id)
                operations += [
                    .createLayer(id), .set(id, .bounds(CGRect(x: 0, y: 0, width: 2, height: 2))),
                    .set(id, .position(CGPoint(x: Double(i % 640) * 2 + 1, y: Double((i / 640) % 360) * 2 + 1))),
                    .set(id, .backgroundColor(RGBAColor(red: 0.2, green: 0.5, blue: Double(i % 7) / 7, alpha: 1))),
                ]
                children.append(id)
            }
            groups.append((group, children))
        }
        for start in stride(from: 0, to: operations.count, by: 1000) {
            messages.append(.transactionPart(Array(operations[start..<min(start + 1000, operations.count)])))
        }
        for (group, children) in groups { messages.append(.transactionPart([.setSublayers(group, children)])) }
        var last: [LayerOperation] = [.setSublayers(1, groups.map(\.0))]
        if shown { last.append(.setRoot(display: 0, layer: 1)) }
        messages.append(.commit(serial: 1, operations: last))
        return messages
    }

    /// Pings on `socket` about every millisecond until stopped, recording each round trip.
    static func ping(_ socket: SeqPacketSocket, _ state: PingState) {
        var id: UInt64 = 0
        while !state.isStopped {
            id += 1
            let start = CACurrentMediaTime()
            do {
                try socket.send(MessageCodec.encode(ClientMessage.ping(requestID: id)))
                while true {
                    guard let packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes),
                        !packet.isEndOfStream
                    else { break }
                    if case .pong(id, _) = try MessageCodec.decodeServer(packet.bytes) { break }
                }
            } catch {
                break
            }
            state.record(CACurrentMediaTime() - start, at: start)
            usleep(1000)
        }
        state.finish()
    }
}

/// The victim thread's round trips and its stop flag, shared under a lock.
final class PingState: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var done = false
    private var recorded: [Double] = []

    var isStopped: Bool { lock.withLock { stopped } }
    var finished: Bool { lock.withLock { done } }
    var times: [Double] { lock.withLock { recorded } }

    private(set) var slow: [(at: Double, time: Double)] = []
    func record(_ time: Double, at start: Double) {
        lock.withLock {
            recorded.append(time)
            if time > 0.02 { slow.append((start, time)) }
        }
    }
    func stop() { lock.withLock { stopped = true } }
    func finish() { lock.withLock { done = true } }
}

/// Why the stall measurement could not finish.
enum StallBenchError: Error {
    case closed
    case refused(String)
}
