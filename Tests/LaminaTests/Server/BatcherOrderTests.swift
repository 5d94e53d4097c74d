import Foundation
import LaminaTesting
import Testing

@testable import LaminaServer

/// The batcher held to the rule it implements, worked out the slow way: a primitive goes into the
/// lowest batch of its kind after every earlier primitive of another group whose cells it shares
/// (the same batch allowed for its own kind), skipping batches that bind another texture. The
/// reference compares every pair of primitives; the batcher keeps one number per grid cell.
struct BatcherOrderTests {
    struct Primitive {
        var kind: Int
        var box: CGRect
        var texture: TextureSampling?
    }

    /// The batches the rule gives for `groups` of primitives (each group's primitives do not constrain
    /// each other), on a `width`×`height` device with `kindCount` kinds.
    static func referenceBatches(
        _ groups: [[Primitive]], width: Int, height: Int, kindCount n: Int
    ) -> [DrawBatch] {
        let columns = max(1, (width + 15) / 16), rows = max(1, (height + 15) / 16)
        func cells(_ box: CGRect) -> (Int, Int, Int, Int)? {
            guard !box.isEmpty else { return nil }
            let c0 = Batcher.cell(box.minX, last: columns - 1), r0 = Batcher.cell(box.minY, last: rows - 1)
            return (
                c0, r0, max(Batcher.cell(box.maxX - 0.001, last: columns - 1), c0),
                max(Batcher.cell(box.maxY - 0.001, last: rows - 1), r0)
            )
        }
        func share(_ a: (Int, Int, Int, Int)?, _ b: (Int, Int, Int, Int)?) -> Bool {
            guard let a, let b else { return false }
            return a.0 <= b.2 && b.0 <= a.2 && a.1 <= b.3 && b.1 <= a.3
        }
        var placed: [(batch: Int, kind: Int, index: Int32, cells: (Int, Int, Int, Int)?)] = []
        var textures: [Int: TextureSampling] = [:]
        var index: [Int: Int32] = [:]
        for group in groups {
            var decided: [(batch: Int, kind: Int, index: Int32, cells: (Int, Int, Int, Int)?)] = []
            for primitive in group {
                let own = cells(primitive.box)
                var required = 0
                for earlier in placed where share(earlier.cells, own) {
                    required = max(required, earlier.kind == primitive.kind ? earlier.batch : earlier.batch + 1)
                }
                var b = required + (primitive.kind - required % n + n) % n
                if let texture = primitive.texture {
                    while let held = textures[b], held != texture { b += n }
                    textures[b] = texture
                }
                let i = index[primitive.kind, default: 0]
                index[primitive.kind] = i + 1
                decided.append((b, primitive.kind, i, own))
            }
            placed += decided
        }
        var out: [DrawBatch] = []
        for batch in Set(placed.map(\.batch)).sorted() {
            out.append(
                DrawBatch(
                    kind: batch % n, instances: placed.filter { $0.batch == batch }.map(\.index),
                    texture: textures[batch]))
        }
        return out
    }

    /// Random scenes of overlapping, disjoint, empty and off-device primitives of up to seven kinds, in
    /// groups of one to four, some textured with one of three samplings: the batcher's batches are the
    /// rule's, batch for batch.
    @Test(arguments: 0..<40)
    func batchesAreTheRulesBatches(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let n = Int.random(in: 2...7, using: &random)
        let (width, height) = (Int.random(in: 1...200, using: &random), Int.random(in: 1...120, using: &random))
        let samplings = (1...3).map { TextureSampling(image: RenderImageID(rawValue: $0), filter: .linear) }
        var groups: [[Primitive]] = []
        for _ in 0..<Int.random(in: 1...60, using: &random) {
            groups.append(
                (0..<Int.random(in: 1...4, using: &random)).map { _ in
                    let x = Double.random(in: -40...Double(width + 20), using: &random)
                    let y = Double.random(in: -40...Double(height + 20), using: &random)
                    let box =
                        Int.random(in: 0..<10, using: &random) == 0
                        ? .zero
                        : CGRect(
                            x: x, y: y, width: Double.random(in: 0.5...90, using: &random),
                            height: Double.random(in: 0.5...60, using: &random))
                    let textured = Int.random(in: 0..<4, using: &random) == 0
                    return Primitive(
                        kind: Int.random(in: 0..<n, using: &random), box: box,
                        texture: textured ? samplings.randomElement(using: &random) : nil)
                })
        }
        var batcher = Batcher(width: width, height: height, kindCount: n)
        var index: [Int: Int] = [:]
        for group in groups {
            for primitive in group {
                let i = index[primitive.kind, default: 0]
                index[primitive.kind] = i + 1
                batcher.add(primitive.kind, index: i, box: primitive.box, texture: primitive.texture)
            }
            batcher.endGroup()
        }
        #expect(batcher.finish() == Self.referenceBatches(groups, width: width, height: height, kindCount: n))
    }
}
