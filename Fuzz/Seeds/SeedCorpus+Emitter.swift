import Foundation
import LaminaCore
import LaminaProtocol

/// Seeds for `CAEmitterLayer` (issue 22, point 5): an emitter with every row set and a nested cell
/// tree (operation 12), its birth rate animated, and its hostile values (a billion births a second, 65
/// cells, cells nested five deep, a NaN cell number, a negative cell duration, a name over 1,024
/// bytes, an unknown image, cells on a plain layer, NaN rows); cells' values animated by key path
/// (animation property 62) and its hostile targets (an unknown field, five names, an empty name, a
/// value function).
extension SeedCorpus {
    /// A cell with `rate` births a second, living 2 s, moving at 30 points a second in every direction.
    static func emitterCell(rate: Float = 20, contents: UInt64 = 0, _ cells: [EmitterCellState] = [])
        -> EmitterCellState
    {
        var cell = EmitterCellState()
        cell.name = "spark"
        cell.birthRate = rate
        cell.lifetime = 2
        cell.lifetimeRange = 0.5
        cell.velocity = 30
        cell.velocityRange = 10
        cell.emissionRange = 2 * .pi
        cell.yAcceleration = 20
        cell.scaleSpeed = -0.2
        cell.spin = 1
        cell.colorSpeed = SIMD4(0, -0.2, -0.4, -0.5)
        cell.contents = contents
        cell.cells = cells
        return cell
    }

    /// An emitter with every row set and a cell holding a cell, under a plain root.
    static var emitterTreeOperations: [LayerOperation] {
        typealias S = SetOperation
        return [
            .createLayer(1), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(1, CGPoint(x: 32, y: 24)),
            .createLayer(2, .emitter), S.bounds(2, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(2, CGPoint(x: 32, y: 24)), S.emitterBirthRate(2, 2), S.emitterLifetime(2, 0.5),
            S.emitterVelocity(2, 1.5), S.emitterScale(2, 0.5), S.emitterSpin(2, -1),
            S.emitterPosition(2, CGPoint(x: 32, y: 40)), S.emitterZPosition(2, 3),
            S.emitterSize(2, CGSize(width: 20, height: 4)), S.emitterDepth(2, 2), S.emitterShape(2, "rectangle"),
            S.emitterMode(2, "outline"), S.renderMode(2, "additive"), S.emitterSeed(2, 1234),
            S.emitterPreservesDepth(2, true),
            .setEmitterCells(2, [emitterCell([emitterCell(rate: 5)]), emitterCell(rate: 3)]),
            .setSublayers(1, [2]), .setRoot(display: 0, layer: 1),
        ]
    }

    static func emitterClientMessages() -> [(String, ClientMessage)] {
        let rate = animation(70, .basic(target("birthRate"), BasicValues(from: .number(0), to: .number(4))))
        let cellRate = animation(
            72, .basic(cellTarget("emitterCells.spark.birthRate"), BasicValues(from: .number(0), to: .number(40))))
        let nestedColor = animation(
            73,
            .keyframe(
                cellTarget("emitterCells.spark.emitterCells.spark.color"),
                Keyframes(values: [.color(RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 1)), .color(nil)])))
        return [
            ("commit-emitter", .commit(serial: 70, operations: emitterTreeOperations)),
            (
                "commit-emitter-cell-animations",
                .commit(
                    serial: 72,
                    operations: emitterTreeOperations + [.addAnimation(2, cellRate), .addAnimation(2, nestedColor)])
            ),
            (
                "commit-emitter-animation",
                .commit(serial: 71, operations: emitterTreeOperations + [.addAnimation(2, rate)])
            ),
        ]
    }

    static func emitterHostile() -> [(String, [UInt8])] {
        typealias S = SetOperation
        let emitter: [LayerOperation] = [
            .createLayer(1, .emitter), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            .setRoot(display: 0, layer: 1),
        ]
        var nanCell = emitterCell()
        nanCell.velocity = .nan
        var longName = emitterCell()
        longName.name = String(repeating: "n", count: 1025)
        var deep = emitterCell()
        for _ in 0..<4 { deep = emitterCell([deep]) }
        var backwards = emitterCell()
        backwards.duration = -1
        return [
            ("emitter-billion-births", commit(emitter + [.setEmitterCells(1, [emitterCell(rate: 1e9)])])),
            ("emitter-65-cells", commit(emitter + [.setEmitterCells(1, Array(repeating: emitterCell(), count: 65))])),
            ("emitter-cells-five-deep", commit(emitter + [.setEmitterCells(1, [deep])])),
            ("emitter-nan-cell", commit(emitter + [.setEmitterCells(1, [nanCell])])),
            ("emitter-negative-cell-duration", commit(emitter + [.setEmitterCells(1, [backwards])])),
            ("emitter-long-cell-name", commit(emitter + [.setEmitterCells(1, [longName])])),
            ("emitter-unknown-image", commit(emitter + [.setEmitterCells(1, [emitterCell(contents: 99)])])),
            ("emitter-cells-on-a-plain-layer", commit([.createLayer(1), .setEmitterCells(1, [emitterCell()])])),
            ("emitter-nan-birth-rate", commit(emitter + [S.emitterBirthRate(1, .nan)])),
            ("emitter-row-on-a-plain-layer", commit([.createLayer(1), S.emitterSeed(1, 2)])),
            (
                "emitter-depth-row-on-a-replicator",
                commit([.createLayer(1, .replicator), S.emitterPreservesDepth(1, true)])
            ),
        ] + emitterCellAnimationHostile(emitter)
    }

    /// The target of cell key path `path` (a cell named `spark` by default).
    static func cellTarget(_ path: String) -> PropertyTarget {
        let cell = EmitterCellKeyPath(path) ?? EmitterCellKeyPath(names: ["spark"], field: 0)!
        return PropertyTarget(keyPath: cell.standIn, cell: cell)
    }

    /// Hostile cell animation targets after a valid emitter: an unknown field (16, the colour's red),
    /// five names, an empty name (each a valid commit's target bytes replaced, the frame's length
    /// rewritten), and a valid target with a value function.
    static func emitterCellAnimationHostile(_ emitter: [LayerOperation]) -> [(String, [UInt8])] {
        func bytes(_ build: (inout WireWriter) -> Void) -> [UInt8] {
            var w = WireWriter()
            build(&w)
            return w.bytes
        }
        let rate = animation(75, .basic(cellTarget("emitterCells.spark.birthRate"), BasicValues(to: .number(3))))
        let valid = commit(emitter + [.addAnimation(1, rate)])
        let original = bytes {
            $0.u8(62); $0.u8(0); $0.u32(1); $0.string("spark")
        }
        func replacing(with target: [UInt8]) -> [UInt8] {
            var payload = Array(valid.dropFirst(8))
            guard
                let start = (0...(payload.count - original.count)).last(where: {
                    Array(payload[$0..<$0 + original.count]) == original
                })
            else { return valid }
            payload.replaceSubrange(start..<start + original.count, with: target)
            return Array(valid.prefix(4)) + bytes { $0.u32(UInt32(payload.count)) } + payload
        }
        var withFunction = cellTarget("emitterCells.spark.spin")
        withFunction.valueFunction = .rotateZ
        return [
            (
                "emitter-cell-animation-unknown-field",
                replacing(
                    with: bytes {
                        $0.u8(62); $0.u8(16); $0.u32(1); $0.string("spark")
                    })
            ),
            (
                "emitter-cell-animation-five-names",
                replacing(
                    with: bytes { w in
                        w.u8(62); w.u8(0); w.u32(5); for _ in 0..<5 { w.string("spark") }
                    })
            ),
            (
                "emitter-cell-animation-empty-name",
                replacing(
                    with: bytes {
                        $0.u8(62); $0.u8(0); $0.u32(1); $0.string("")
                    })
            ),
            (
                "emitter-cell-animation-value-function",
                commit(
                    emitter + [
                        .addAnimation(
                            1, animation(74, .basic(withFunction, BasicValues(from: .number(0), to: .number(1)))))
                    ])
            ),
        ]
    }
}
