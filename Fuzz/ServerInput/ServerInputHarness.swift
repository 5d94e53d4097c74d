import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer

/// Plays one fuzzer input through what laminad does with a client's messages, using only the
/// public entry points so the harness survives refactors of the decoder and the validation.
///
/// The input is a sequence of frames: each takes its header's declared payload length (clamped to
/// the bytes that are left), so one valid message is one frame and libFuzzer's cross-over of two
/// seeds makes a two-message conversation. Each frame goes through `MessageCodec.decodeClient`
/// (and `decodeServer`, since the client decodes the server's bytes); decoded commits are applied
/// to the session's tree like laminad does (transaction parts held until the commit, a rejected
/// commit drops the session), and every accepted commit is drawn with `DisplayListBuilder.build`
/// at a few media times derived from the input, then `advanceAnimations` runs at those times.
enum ServerInputHarness {
    /// The displays the fuzzed server pretends to have.
    static let displayCount = 2
    /// The display size used for display lists (small: the cost of a frame is the tree's, not the screen's).
    static let width = 64
    static let height = 48
    /// Whether to print what happens to each message (`LAMINA_FUZZ_VERBOSE=1`, for reading a reproducer).
    static let verbose = ProcessInfo.processInfo.environment["LAMINA_FUZZ_VERBOSE"] != nil

    /// What the harness keeps between frames of one input: one client's state on the server.
    struct Session {
        var tree = RenderTree()
        var pending: [LayerOperation] = []
        var times: [Double]
    }

    /// Plays one input; returns the number of messages (frames) it held.
    static func run(_ bytes: [UInt8]) -> Int {
        var session = Session(times: times(for: bytes))
        let frames = frames(of: bytes)
        for frame in frames {
            _ = try? MessageCodec.decodeServer(frame)
            let message: ClientMessage
            do {
                message = try MessageCodec.decodeClient(frame)
            } catch {
                // laminad drops a client that sends an undecodable message.
                if verbose { print("\(frame.count)-byte message refused: \(error)") }
                session = Session(times: session.times)
                continue
            }
            checkRoundTrip(message)
            handle(message, in: &session)
        }
        return frames.count
    }

    /// Splits the input into frames by their declared lengths.
    static func frames(of bytes: [UInt8]) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        var start = 0
        while start < bytes.count, frames.count < 64 {
            var end = bytes.count
            if bytes.count - start >= 8 {
                let length = (4..<8).reduce(0) { $0 | Int(bytes[start + $1]) << (8 * ($1 - 4)) }
                end = min(bytes.count, start + 8 + length)
            }
            frames.append(Array(bytes[start..<end]))
            start = end
        }
        return frames
    }

    /// Media times at which to draw and advance animations: zero, an early time, a time drawn from
    /// the input's hash (a few seconds in) and an arbitrary finite Double from the hash's bits.
    static func times(for bytes: [UInt8]) -> [Double] {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var times: [Double] = [0, 0.25, Double(hash % 10_000) / 1000]
        let arbitrary = Double(bitPattern: hash)
        if arbitrary.isFinite { times.append(arbitrary) }
        return times
    }

    /// Encoding a decoded message and decoding that again must give the same bytes.
    static func checkRoundTrip(_ message: ClientMessage) {
        let once = MessageCodec.encode(message)
        guard let again = try? MessageCodec.decodeClient(once) else {
            fatalError("a decoded message does not decode after re-encoding: \(message)")
        }
        guard MessageCodec.encode(again) == once else {
            fatalError("re-encoding a decoded message changed its bytes: \(message)")
        }
    }

    /// The incremental hierarchy check must accept what the full one accepts, with the same links on
    /// every layer, and refuse what it refuses.
    static func checkRelinkAgreement(_ tree: RenderTree, _ operations: [LayerOperation]) {
        let full = try? tree.applying(operations, displayCount: displayCount, relink: .full)
        let incremental = try? tree.applying(operations, displayCount: displayCount, relink: .incremental)
        switch (full, incremental) {
        case (nil, nil): return
        case (let full?, let incremental?):
            for (id, layer) in full.layers {
                guard let other = incremental.layers[id], other.superlayer == layer.superlayer,
                    other.maskOwner == layer.maskOwner
                else { fatalError("the incremental hierarchy check linked layer \(id) otherwise: \(operations)") }
            }
        default:
            fatalError(
                "the full hierarchy check \(full == nil ? "refused" : "accepted") a commit the incremental one "
                    + "\(incremental == nil ? "refused" : "accepted"): \(operations)")
        }
    }

    static func handle(_ message: ClientMessage, in session: inout Session) {
        switch message {
        case .transactionPart(let operations):
            guard session.pending.count + operations.count <= WireLimits.maxOperationsPerTransaction else {
                session = Session(times: session.times)
                return
            }
            session.pending += operations
        case .commit(_, let operations):
            let all = session.pending + operations
            session.pending = []
            checkRelinkAgreement(session.tree, all)
            let next: RenderTree
            do {
                next = try session.tree.applying(all, displayCount: displayCount)
            } catch {
                if verbose { print("commit of \(all.count) operations refused: \(error)") }
                session = Session(times: session.times)
                return
            }
            if verbose { print("commit of \(all.count) operations applied") }
            session.tree = next
            for time in session.times { present(&session, at: time) }
        case .capture(_, let display, let time):
            guard Int(display) < displayCount, let time, time.isFinite else { return }
            _ = draw(session.tree, display: display, at: time)
        case .captureLayer(_, let layer, let width, let height, let scale):
            // laminad's checks: the client's own layer, a size within the display, a finite scale.
            guard session.tree.layers[layer] != nil, width >= 1, height >= 1, Int(width) <= Self.width,
                Int(height) <= Self.height, scale.isFinite,
                scale > 0, scale <= Double(WireLimits.maxCaptureSide)
            else { return }
            let list = DisplayListBuilder.buildSubtree(
                tree: session.tree, layer: layer, scale: scale, width: Self.width, height: Self.height,
                clipWidth: Int(width), clipHeight: Int(height), time: session.times.first ?? 0, shapes: shapes)
            shapes.endFrame()
            _ = list.batches.count
        case .describeTree:
            _ = TreeDescriber.describe([(label: "fuzz", tree: session.tree)])
        case .uploadImage(let id, _, _, _):
            // The harness has no memfd: the id becomes nameable as the server's checks would make it.
            if id != 0 { session.tree.liveImages.insert(id) }
        case .releaseImage(let id):
            session.tree.liveImages.remove(id)
        case .registerSurface(let id, _, _, _, _, _):
            // No memfd here either: the id becomes a nameable surface (and image), as laminad's checks make it.
            if id != 0 {
                session.tree.liveImages.insert(id)
                session.tree.liveSurfaces.insert(id)
            }
        case .releaseSurface(let id):
            session.tree.liveSurfaces.remove(id)
            session.tree.liveImages.remove(id)
        case .registerDeviceImage(let image):
            // No exported memory here: the id becomes a nameable surface, as laminad's checks make it.
            if image.id != 0 {
                session.tree.liveImages.insert(image.id)
                session.tree.liveSurfaces.insert(image.id)
            }
        case .hello, .ping, .frameEvents, .stats, .setLevel, .requestExportToken, .frameRecords, .surfaceFeedback,
            .requestSurfaceCapabilities:
            break
        }
    }

    /// What laminad does for a frame: draws every display, then advances the animation bookkeeping.
    static func present(_ session: inout Session, at time: Double) {
        for display in 0..<UInt32(displayCount) { _ = draw(session.tree, display: display, at: time) }
        let (events, _, nextStart) = session.tree.advanceAnimations(to: time)
        for event in events { _ = MessageCodec.encode(ServerMessage.animationEvents([event])) }
        if let nextStart, !nextStart.isNaN {
            _ = draw(session.tree, display: 0, at: nextStart)
        }
    }

    static func draw(_ tree: RenderTree, display: UInt32, at time: Double) -> Int {
        let list = DisplayListBuilder.build(
            trees: [tree], display: display, width: width, height: height, time: time, shapes: shapes)
        shapes.endFrame()
        return list.batches.count
    }

    /// The shape-raster cache every frame of the harness draws through, so shape layers' paths go
    /// through Cairo as laminad's frames do (the renderer keeps nothing but ids).
    nonisolated(unsafe) static let shapes = ShapeRasterCache(renderer: FuzzRenderer(), budgetBytes: 1 << 20)
}
