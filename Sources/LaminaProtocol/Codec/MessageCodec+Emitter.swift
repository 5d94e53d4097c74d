import Foundation
import LaminaCore

/// The cell tree of a `setEmitterCells` operation (code 12, docs/protocol.md §6): a `u32` count, then
/// each cell as its 35 numbers (`f64`, `EmitterCellState.numbers`' order), its name (`bool` present,
/// then a string), `bool` enabled, `u64` contents image id (0: none) and its own cells, nested the same
/// way.
///
/// The codec reads at most `maxWireEmitterCells` cells nested at most `maxWireEmitterDepth` deep, so
/// that a hostile message cannot make it recurse or allocate without bound; the server's tighter
/// bounds (`EmitterCellState.maxCellsPerLayer`, `maxDepth`, `maxNameBytes`) are refused as invalid
/// values with their own messages.
extension MessageCodec {
    /// The most cells one `setEmitterCells` operation may carry on the wire.
    public static let maxWireEmitterCells = 1024
    /// The deepest nesting the codec reads.
    public static let maxWireEmitterDepth = 16
    /// The fewest bytes one encoded cell takes (its numbers, name flag, enabled, image, cell count).
    static let minimumEmitterCellSize = EmitterCellState.numberCount * 8 + 1 + 1 + 8 + 4

    /// Writes a cell list in the layout above.
    static func encode(_ cells: [EmitterCellState], into w: inout WireWriter) {
        w.u32(UInt32(cells.count))
        for cell in cells {
            for number in cell.numbers { w.f64(number) }
            w.bool(cell.name != nil)
            if let name = cell.name { w.string(name) }
            w.bool(cell.isEnabled)
            w.u64(cell.contents)
            encode(cell.cells, into: &w)
        }
    }

    /// Reads a cell list nested `depth` deep (the layer's cells are depth 1), taking from `budget`, the
    /// cells the operation may still carry.
    static func emitterCells(_ r: inout WireReader, depth: Int, budget: inout Int) throws(WireError)
        -> [EmitterCellState]
    {
        guard depth <= maxWireEmitterDepth else { throw .badValue(field: "setEmitterCells.depth") }
        let n = try r.count(
            "setEmitterCells.cells", limit: maxWireEmitterCells, minimumElementSize: minimumEmitterCellSize)
        guard n <= budget else {
            throw .countTooLarge(field: "setEmitterCells.cells", count: n, limit: budget)
        }
        budget -= n
        var cells: [EmitterCellState] = []
        cells.reserveCapacity(n)
        for _ in 0..<n {
            var numbers: [Double] = []
            numbers.reserveCapacity(EmitterCellState.numberCount)
            for _ in 0..<EmitterCellState.numberCount { numbers.append(try r.f64("emitterCell.number")) }
            let hasName = try r.bool("emitterCell.hasName")
            let name = hasName ? try r.string("emitterCell.name", limit: WireLimits.maxStringBytes) : nil
            let enabled = try r.bool("emitterCell.enabled")
            let contents = try r.u64("emitterCell.contents")
            let children = try emitterCells(&r, depth: depth + 1, budget: &budget)
            cells.append(
                EmitterCellState(numbers: numbers, name: name, isEnabled: enabled, contents: contents, cells: children))
        }
        return cells
    }
}
