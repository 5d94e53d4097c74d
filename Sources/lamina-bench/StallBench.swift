import Foundation
import Lamina
import LaminaProtocol
import LaminaTesting

/// How long a client waits for the server while another client works at the limits: a victim pings
/// the server in a loop while an attacker commits 200,000 layers (about 800,000 operations), and,
/// animated, then adds 250,000 running animations to them.
struct StallBench {
    /// What the attacker does.
    enum Scenario: CaseIterable {
        /// Commits 200,000 layers that no display shows.
        case hidden
        /// Commits 200,000 layers shown on display 0.
        case shown
        /// Commits 200,000 shown layers, then 250,000 animations on them (`WireLimits.maxAnimationsPerClient`),
        /// which run for a second after they are presented. Only the pings from the second commit on count.
        case animated

        var name: String {
            switch self {
            case .hidden: "commits 200,000 layers not shown"
            case .shown: "commits 200,000 layers shown"
            case .animated: "runs 250,000 animations on 200,000 shown layers"
            }
        }
    }

    /// Ping round trips of the victim, in seconds, and how long the attacker's commit took.
    struct Outcome {
        var pings: [Double]
        var commitApplied: Double
        var commitPresented: Double
    }

    /// Layers the attacker commits: `WireLimits.maxLayersPerClient`.
    static let layerCount = WireLimits.maxLayersPerClient

    /// Runs the measurement of `scenario` once against `server`.
    static func measure(_ server: TestServer, scenario: Scenario) throws -> Outcome {
        let victim = try connect(server, name: "victim")
        let attacker = try connect(server, name: "attacker")
        let state = PingState()
        let thread = Thread { ping(victim, state) }
        thread.start()
        usleep(200_000)
        var start = CACurrentMediaTime()
        var (applied, presented) = try commit(parts(shown: scenario != .hidden), on: attacker, since: start)
        if scenario == .animated {
            start = CACurrentMediaTime()
            (applied, presented) = try commit(animationParts(), on: attacker, since: start)
        }
        // A little longer: the frames right after the commit count too (a second of animation). The
        // attacker reads its events meanwhile, as a client must.
        try attacker.setReceiveTimeout(seconds: 0.05)
        let end = CACurrentMediaTime() + (scenario == .animated ? 1 : 0.3)
        while CACurrentMediaTime() < end {
            guard let packet = try? attacker.receive(maxBytes: WireLimits.maxMessageBytes) else { continue }
            if packet.isEndOfStream { throw StallBenchError.closed }
            if case .error(let code, let text) = try MessageCodec.decodeServer(packet.bytes) {
                throw StallBenchError.refused("\(code): \(text)")
            }
        }
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
        let pings = state.samples.filter { $0.at >= start }.map(\.time)
        return Outcome(pings: pings, commitApplied: applied, commitPresented: presented)
    }

    /// Sends `messages` (a transaction's parts and its commit) on `socket` and returns the seconds
    /// after `start` at which the commit was applied and presented.
    static func commit(_ messages: [ClientMessage], on socket: SeqPacketSocket, since start: Double) throws -> (
        applied: Double, presented: Double
    ) {
        for message in messages { try socket.send(MessageCodec.encode(message)) }
        var applied = Double.nan
        var presented = Double.nan
        while presented.isNaN {
            guard let packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes), !packet.isEndOfStream else {
                throw StallBenchError.closed
            }
            switch try MessageCodec.decodeServer(packet.bytes) {
            case .commitApplied: applied = CACurrentMediaTime() - start
            case .commitPresented: presented = CACurrentMediaTime() - start
            case .error(let code, let text): throw StallBenchError.refused("\(code): \(text)")
            default: break
            }
        }
        return (applied, presented)
    }

    /// The second transaction of `.animated`: an opacity animation on every leaf of `parts(shown:)`,
    /// and an additive `position.x` one on as many of the first leaves as make 250,000 in all, each
    /// two seconds long, repeating forever; in parts of 1,000 operations and a commit.
    static func animationParts() -> [ClientMessage] {
        let leaves = leafIDs()
        let opacity = AnimationRecord(
            timing: MediaTiming(duration: 2, repeatCount: .infinity, autoreverses: true),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("opacity")!), BasicValues(from: .number(1), to: .number(0.5))))
        let shift = AnimationRecord(
            timing: MediaTiming(duration: 2, repeatCount: .infinity, autoreverses: true),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("position.x")!, isAdditive: true),
                BasicValues(from: .number(0), to: .number(2))))
        var operations: [LayerOperation] = []
        var next: UInt64 = 1
        for id in leaves {
            operations.append(.addAnimation(id, AttachedAnimation(id: next, key: "fade", record: opacity)))
            next += 1
        }
        for id in leaves.prefix(WireLimits.maxAnimationsPerClient - leaves.count) {
            operations.append(.addAnimation(id, AttachedAnimation(id: next, key: "shift", record: shift)))
            next += 1
        }
        var messages: [ClientMessage] = []
        for start in stride(from: 0, to: operations.count - 1000, by: 1000) {
            messages.append(.transactionPart(Array(operations[start..<start + 1000])))
        }
        let last = (operations.count - 1) / 1000 * 1000
        messages.append(.commit(serial: 2, operations: Array(operations[last...])))
        return messages
    }

    /// The ids of the leaves `parts(shown:)` creates, in order.
    static func leafIDs() -> [LayerID] {
        let leaves = layerCount - 1 - (layerCount + WireLimits.maxSublayers - 1) / WireLimits.maxSublayers
        let groupCount = (leaves + WireLimits.maxSublayers - 1) / WireLimits.maxSublayers
        return (0..<leaves).map { LayerID(2 + groupCount + $0) }
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
    private var recorded: [(at: Double, time: Double)] = []

    var isStopped: Bool { lock.withLock { stopped } }
    var finished: Bool { lock.withLock { done } }
    var times: [Double] { lock.withLock { recorded.map(\.time) } }
    var samples: [(at: Double, time: Double)] { lock.withLock { recorded } }

    private(set) var slow: [(at: Double, time: Double)] = []
    func record(_ time: Double, at start: Double) {
        lock.withLock {
            recorded.append((start, time))
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
