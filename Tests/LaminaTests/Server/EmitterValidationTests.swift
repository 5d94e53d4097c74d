import Foundation
import LaminaCore
import LaminaProtocol
import Testing

@testable import LaminaServer

/// The server's checks of `setEmitterCells` (operation 12) and of the emitter rows: each refusal has
/// its named error, and an accepted cell tree lands in the layer's state and makes it animated.
@Suite struct EmitterValidationTests {
    /// A tree with an emitter layer 1 and a plain layer 2, image 7 uploaded.
    static func tree() throws -> RenderTree {
        var tree = RenderTree()
        tree.liveImages = [7]
        return try tree.applying([.createLayer(1, .emitter), .createLayer(2)], displayCount: 1)
    }

    static func cell(name: String? = nil, contents: UInt64 = 0, _ cells: [EmitterCellState] = []) -> EmitterCellState {
        var cell = EmitterCellState()
        cell.birthRate = 10
        cell.lifetime = 1
        cell.name = name
        cell.contents = contents
        cell.cells = cells
        return cell
    }

    @Test func cellsAreSetAndTheLayerCountsAsAnimated() throws {
        let tree = try Self.tree().applying(
            [.setEmitterCells(1, [Self.cell(name: "spark", contents: 7)])], displayCount: 1)
        #expect(tree.layers[1]?.state.emitter.cells.map(\.name) == ["spark"])
        #expect(tree.animatedLayers.contains(1))
        #expect(tree.referencedImages().contains(7))
        let cleared = try tree.applying([.setEmitterCells(1, [])], displayCount: 1)
        #expect(!cleared.animatedLayers.contains(1))
    }

    /// An emitting layer keeps the server's frames coming, as a running animation does; a layer with
    /// no cells, or one whose clock is stopped, does not.
    @Test func anEmittingLayerKeepsFramesComing() throws {
        let emitting = try Self.tree().applying([.setEmitterCells(1, [Self.cell()])], displayCount: 1)
        #expect(emitting.advancement(to: 5).running)
        #expect(try !Self.tree().advancement(to: 5).running)
        let stopped = try emitting.applying([.set(1, .speed(0))], displayCount: 1)
        #expect(!stopped.advancement(to: 5).running)
    }

    @Test func aLayerOfAnotherClassIsRefused() throws {
        #expect(throws: TransactionError.wrongLayerClass(2, key: "emitterCells", owner: .emitter, actual: .layer)) {
            try Self.tree().applying([.setEmitterCells(2, [Self.cell()])], displayCount: 1)
        }
        #expect(throws: TransactionError.unknownLayer(9)) {
            try Self.tree().applying([.setEmitterCells(9, [Self.cell()])], displayCount: 1)
        }
        #expect(throws: TransactionError.wrongLayerClass(2, key: "birthRate", owner: .emitter, actual: .layer)) {
            try Self.tree().applying([.set(2, .emitterBirthRate(3))], displayCount: 1)
        }
    }

    @Test func anUnknownImageIsRefused() throws {
        #expect(throws: TransactionError.unknownImage(8)) {
            try Self.tree().applying([.setEmitterCells(1, [Self.cell(contents: 8)])], displayCount: 1)
        }
        let nested = Self.cell(contents: 7, [Self.cell(contents: 9)])
        #expect(throws: TransactionError.unknownImage(9)) {
            try Self.tree().applying([.setEmitterCells(1, [nested])], displayCount: 1)
        }
    }

    @Test func boundsAreRefusedAsInvalidValues() throws {
        let tree = try Self.tree()
        func reason(_ cells: [EmitterCellState]) -> String? {
            do {
                _ = try tree.applying([.setEmitterCells(1, cells)], displayCount: 1)
                return nil
            } catch {
                guard case .invalidValue(let text) = error else { return "\(error)" }
                return text
            }
        }
        #expect(reason(Array(repeating: Self.cell(), count: 64)) == nil)
        #expect(reason(Array(repeating: Self.cell(), count: 65)) == "layer 1: more than 64 emitter cells")
        let four = Self.cell([Self.cell([Self.cell([Self.cell()])])])
        #expect(reason([four]) == nil)
        #expect(reason([Self.cell([four])]) == "layer 1: emitter cells nest deeper than 4")
        var nan = Self.cell()
        nan.velocity = .nan
        #expect(reason([nan]) == "layer 1: emitter cell number 6 is NaN or infinite")
        var infinite = Self.cell()
        infinite.color.alpha = .infinity
        #expect(reason([infinite]) == "layer 1: emitter cell number 19 is NaN or infinite")
        #expect(reason([Self.cell(name: String(repeating: "a", count: 1024))]) == nil)
        #expect(
            reason([Self.cell(name: String(repeating: "a", count: 1025))])
                == "layer 1: emitter cell name is longer than 1024 bytes")
        // A nested cell counts towards the 64.
        let wide = Self.cell(Array(repeating: Self.cell(), count: 63))
        #expect(reason([wide]) == nil)
        #expect(reason([wide, Self.cell()]) == "layer 1: more than 64 emitter cells")
    }

    @Test func theTreePrintsTheClassAndCellCount() throws {
        let tree = try Self.tree().applying(
            [
                .setEmitterCells(1, [Self.cell([Self.cell()]), Self.cell()]), .set(1, .emitterShape("line")),
                .set(1, .emitterBirthRate(2)), .setRoot(display: 0, layer: 1),
            ], displayCount: 1)
        let text = TreeDescriber.describe([(label: "app", tree: tree)])
        #expect(
            text.contains("layer 1 CAEmitterLayer bounds=0,0,0,0 position=0,0 birthRate=2 shape=line cells=3"),
            "\(text)")
    }
}
