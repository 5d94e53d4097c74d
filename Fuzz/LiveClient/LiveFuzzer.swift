import Foundation
import LaminaCore
import LaminaProtocol

/// The structure-aware live fuzzer: speaks the protocol to a running laminad over many connections,
/// sending mutated valid messages (some with file descriptors attached, some cut short), and checks
/// between connections that the server still answers a ping from a well-behaved client.
///
/// Usage: `lamina-fuzz-live --socket PATH [--seconds N] [--seed N]`. Exits 1 if laminad stops answering.
@main
struct LiveFuzzer {
    static func main() {
        var socketPath = ""
        var seconds = 60.0
        var seed = UInt64(UInt32(truncatingIfNeeded: time(nil)))
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            let value = arguments.next() ?? ""
            switch argument {
            case "--socket": socketPath = value
            case "--seconds": seconds = Double(value) ?? seconds
            case "--seed": seed = UInt64(value) ?? seed
            default: fail("unknown argument \(argument)")
            }
        }
        print("lamina-fuzz-live: seed \(seed)")
        var mutator = MessageMutator(seed: seed)
        let deadline = Date().addingTimeInterval(seconds)
        var sent = 0, connections = 0, refused = 0
        while Date() < deadline {
            connections += 1
            do {
                sent += try session(&mutator, socketPath: socketPath)
            } catch {
                refused += 1
            }
            if connections % 20 == 0 { probe(socketPath) }
        }
        probe(socketPath)
        print(
            "lamina-fuzz-live: \(sent) messages over \(connections) connections (\(refused) ended early: laminad closed it or its queue was full)"
        )
        print("lamina-fuzz-live: laminad answered every ping")
    }

    /// One hostile connection: usually a hello first, then a burst of messages; replies are drained
    /// without waiting; the connection is closed at the end, often without reading the error.
    static func session(_ mutator: inout MessageMutator, socketPath: String) throws -> Int {
        let socket = try SeqPacketSocket.connect(path: socketPath)
        defer { socket.close() }
        try socket.setNonBlocking(true)
        var sent = 0
        if mutator.random.next() % 10 != 0 {
            try socket.send(
                MessageCodec.encode(
                    ClientMessage.hello(
                        version: WireLimits.protocolVersion,
                        clientName: "live-fuzz")))
            sent += 1
        }
        for _ in 0..<(1 + mutator.random.next() % 16) {
            let bytes = mutator.message()
            if mutator.random.next() % 40 == 0 {
                let fd = open("/dev/null", O_RDONLY)
                defer { close(fd) }
                try socket.send(bytes, fds: [fd])
            } else {
                try socket.send(bytes)
            }
            sent += 1
            while let packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes), !packet.isEndOfStream {}
        }
        return sent
    }

    /// A well-behaved client must get its pong within ten seconds; otherwise laminad is dead or hung.
    static func probe(_ socketPath: String) {
        do {
            let socket = try SeqPacketSocket.connect(path: socketPath)
            defer { socket.close() }
            try socket.setReceiveTimeout(seconds: 10)
            try socket.send(
                MessageCodec.encode(ClientMessage.hello(version: WireLimits.protocolVersion, clientName: "probe")))
            try socket.send(MessageCodec.encode(ClientMessage.ping(requestID: 42)))
            while true {
                guard let packet = try socket.receive(maxBytes: WireLimits.maxMessageBytes), !packet.isEndOfStream
                else {
                    fail("laminad did not answer the probe's ping")
                }
                if case .pong(42, _) = try MessageCodec.decodeServer(packet.bytes) { return }
            }
        } catch {
            fail("the probe could not talk to laminad: \(error)")
        }
    }

    static func fail(_ text: String) -> Never {
        FileHandle.standardError.write(Data("lamina-fuzz-live: \(text)\n".utf8))
        exit(1)
    }
}
