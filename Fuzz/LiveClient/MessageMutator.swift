import Foundation
import LaminaCore
import LaminaProtocol

/// SplitMix64: a small seeded generator, so a live run can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Makes hostile-but-plausible client messages: valid messages of the seed corpus mutated at the level
/// of operations and values (random ids, extreme and non-finite numbers, shuffled and duplicated
/// operations), then sometimes at the level of bytes (bit flips, truncation, a wrong length).
struct MessageMutator {
    var random: SplitMix64
    let templates: [ClientMessage]
    let hostile: [[UInt8]]
    let operations: [LayerOperation]

    init(seed: UInt64) {
        random = SplitMix64(state: seed)
        templates = SeedCorpus.clientMessages().map(\.1)
        hostile = SeedCorpus.hostile().map(\.1)
        var operations = SeedCorpus.treeOperations
        operations += SeedCorpus.animations.map { .addAnimation(1, $0) }
        self.operations = operations
    }

    /// Numbers a hostile client would try.
    static let extremes: [Double] = [
        0, -0.0, 1, -1, 0.5, 1e-300, -1e-300, 1e6, -1e6, 1e18, 1e300, -1e300, .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .nan, .infinity, -.infinity, 4_294_967_296, 65_536,
    ]

    mutating func number() -> Double {
        random.next() % 3 == 0
            ? Double.random(in: -1000...1000, using: &random) : Self.extremes.randomElement(using: &random)!
    }

    mutating func id() -> LayerID {
        switch random.next() % 8 {
        case 0: LayerID(random.next())
        case 1: LayerID(random.next() % 8)
        default: LayerID(1 + random.next() % 4)
        }
    }

    mutating func point() -> CGPoint { CGPoint(x: number(), y: number()) }

    mutating func transform() -> CATransform3D {
        var t = CATransform3DIdentity
        for _ in 0..<(random.next() % 4) {
            switch random.next() % 5 {
            case 0: t.m11 = number()
            case 1: t.m34 = number()
            case 2: t.m41 = number()
            case 3: t.m14 = number()
            default: t = CATransform3DMakeRotation(number(), number(), number(), number())
            }
        }
        return t
    }

    /// Sets a random property of layer `id` to a random, often extreme, value.
    mutating func setProperty(_ id: LayerID) -> LayerOperation {
        typealias S = SetOperation
        let color = random.next() % 4 == 0 ? nil : RGBAColor(red: number(), green: 0.5, blue: number(), alpha: number())
        let names = ["center", "resize", "nearest", "trilinear", "linear", "", "sideways", nil]
        switch random.next() % 35 {
        case 0: return S.bounds(id, CGRect(origin: point(), size: CGSize(width: number(), height: number())))
        case 1: return S.position(id, point())
        case 2: return S.anchorPoint(id, point())
        case 3: return S.anchorPointZ(id, number())
        case 4: return S.zPosition(id, number())
        case 5: return S.transform(id, transform())
        case 6: return S.sublayerTransform(id, transform())
        case 7: return S.opacity(id, number())
        case 8: return S.isHidden(id, random.next() % 2 == 0)
        case 9: return S.backgroundColor(id, color)
        case 10: return S.cornerRadius(id, number())
        case 11: return S.maskedCorners(id, UInt32(random.next() % 32))
        case 12: return S.borderWidth(id, number())
        case 13: return S.borderColor(id, color)
        case 14: return S.masksToBounds(id, random.next() % 2 == 0)
        case 15:
            let length = Int(random.next() % UInt64(WireLimits.maxStringBytes + 1))
            return S.name(id, String(repeating: "n", count: length))
        case 16: return S.beginTime(id, number())
        case 17: return S.timeOffset(id, number())
        case 18: return S.speed(id, number())
        case 19: return S.geometryFlipped(id, random.next() % 2 == 0)
        case 20: return S.cornerCurve(id, ["circular", "continuous", "", nil][Int(random.next() % 4)])
        case 21: return S.contentsRect(id, CGRect(origin: point(), size: CGSize(width: number(), height: number())))
        case 22: return S.contentsCenter(id, CGRect(origin: point(), size: CGSize(width: number(), height: number())))
        case 23: return S.contentsScale(id, number())
        case 24: return S.contentsGravity(id, names[Int(random.next() % UInt64(names.count))])
        case 25: return S.allowsEdgeAntialiasing(id, random.next() % 2 == 0)
        case 26: return S.allowsGroupOpacity(id, random.next() % 2 == 0)
        case 27: return S.edgeAntialiasingMask(id, UInt32(random.next() % 32))
        case 28: return S.minificationFilter(id, names[Int(random.next() % UInt64(names.count))])
        case 29: return S.magnificationFilter(id, names[Int(random.next() % UInt64(names.count))])
        case 30: return S.minificationFilterBias(id, number())
        case 31: return S.isOpaque(id, random.next() % 2 == 0)
        case 32: return S.isDoubleSided(id, random.next() % 2 == 0)
        case 33: return S.shouldRasterize(id, random.next() % 2 == 0)
        default: return S.rasterizationScale(id, number())
        }
    }

    mutating func timing(_ timing: MediaTiming) -> MediaTiming {
        var t = timing
        switch random.next() % 6 {
        case 0: t.beginTime = number()
        case 1: t.duration = number()
        case 2: t.speed = number()
        case 3: t.repeatCount = number()
        case 4: t.timeOffset = number()
        default: t.repeatDuration = number()
        }
        return t
    }

    mutating func operation() -> LayerOperation {
        switch random.next() % 8 {
        case 0: return .createLayer(id())
        case 1: return .destroyLayer(id())
        case 2, 3: return setProperty(id())
        case 4: return .setSublayers(id(), (0..<(random.next() % 5)).map { _ in id() })
        case 5: return .setRoot(display: UInt32(random.next() % 3), layer: random.next() % 3 == 0 ? nil : id())
        case 6:
            guard
                case .addAnimation(_, var animation) = operations.filter({
                    if case .addAnimation = $0 { return true } else { return false }
                }).randomElement(using: &random)!
            else { return .createLayer(id()) }
            animation.record.timing = timing(animation.record.timing)
            animation.id = random.next() % 8
            return .addAnimation(id(), animation)
        default: return .removeAnimation(id(), animationID: random.next() % 8)
        }
    }

    /// A list of operations: a valid prefix from the seed tree, then random ones.
    mutating func operationList() -> [LayerOperation] {
        let length = random.next() % 4 == 0 ? random.next() % UInt64(operations.count + 1) : 4 + random.next() % 30
        var ops = Array(operations.prefix(Int(length)))
        for _ in 0..<(random.next() % 6) {
            let op = operation()
            ops.insert(op, at: Int(random.next() % UInt64(ops.count + 1)))
        }
        if random.next() % 8 == 0, let some = ops.randomElement(using: &random) {
            ops += Array(repeating: some, count: Int(random.next() % 2000))
        }
        return ops
    }

    /// The next message to send, as bytes.
    mutating func message() -> [UInt8] {
        var message: ClientMessage
        switch random.next() % 10 {
        case 0: return hostile.randomElement(using: &random)!
        case 1: message = templates.randomElement(using: &random)!
        case 2: message = .transactionPart(operationList())
        case 3: message = .capture(requestID: random.next(), display: UInt32(random.next() % 3), time: number())
        case 4: message = .ping(requestID: random.next())
        case 5: message = .describeTree(requestID: random.next())
        case 6: message = .frameEvents(enabled: random.next() % 2 == 0)
        default: message = .commit(serial: random.next(), operations: operationList())
        }
        var bytes = MessageCodec.encode(message)
        if random.next() % 6 == 0 { mutateBytes(&bytes) }
        return bytes
    }

    mutating func mutateBytes(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        switch random.next() % 4 {
        case 0:
            for _ in 0...(random.next() % 4) {
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] ^= UInt8(1 << (random.next() % 8))
            }
        case 1: bytes.removeLast(Int(random.next() % UInt64(bytes.count)))
        case 2 where bytes.count >= 8: bytes[4] = UInt8(truncatingIfNeeded: random.next())
        default: bytes += [UInt8](repeating: UInt8(truncatingIfNeeded: random.next()), count: Int(random.next() % 64))
        }
        if bytes.isEmpty { bytes = [0] }
    }
}
