import LaminaCore

/// A render tree's layers by id, kept in dense slots that trees share until one of them writes.
///
/// The layers live in fixed-size chunks of slots; an index maps each id to its slot. A render tree
/// is a value, and the server keeps the tree before a commit (frames in flight draw it) while the
/// commit writes the next one. A dictionary of layers would then be copied whole by the commit's
/// first write, whatever the commit changed. Here a write copies only the chunk it lands in (and the
/// short list of chunks), so applying a commit costs what it changed, not the size of the tree
/// (docs/rendering.md, "Retained frames"). The index is copied only by commits that create or
/// destroy layers. Destroyed layers' slots are reused.
///
/// Reads and writes look like a dictionary's: `table[id]` is the layer or nil, assigning nil removes
/// it, and iteration gives `(key:value:)` pairs in no particular order.
public struct LayerTable: Sendable {
    /// Slots per chunk: a write copies at most this many layers.
    static let chunkSize = 32
    static let chunkShift = 5

    /// The slot of each layer.
    private var slots: [LayerID: Int32] = [:]
    /// The layers, `chunkSize` slots a chunk; nil in a free slot.
    private var chunks: [ContiguousArray<RenderLayer?>] = []
    /// Slots freed by removed layers, reused first.
    private var free: [Int32] = []

    /// An empty table.
    public init() {}

    /// The number of layers.
    public var count: Int { slots.count }
    /// Whether the table holds no layer.
    public var isEmpty: Bool { slots.isEmpty }
    /// The ids of the layers.
    public var keys: Dictionary<LayerID, Int32>.Keys { slots.keys }
    /// The layers, in slot order.
    public var values: some Sequence<RenderLayer> { chunks.lazy.joined().compactMap { $0 } }

    /// The layer `id`, or nil. Assigning nil removes the layer; assigning a layer to a new id adds it.
    public subscript(id: LayerID) -> RenderLayer? {
        _read {
            if let slot = slots[id] {
                yield chunks[Int(slot) >> Self.chunkShift][Int(slot) & (Self.chunkSize - 1)]
            } else {
                yield nil
            }
        }
        _modify {
            if let slot = slots[id] {
                let chunk = Int(slot) >> Self.chunkShift
                let index = Int(slot) & (Self.chunkSize - 1)
                yield &chunks[chunk][index]
                if chunks[chunk][index] == nil {
                    slots[id] = nil
                    free.append(slot)
                }
            } else {
                var added: RenderLayer?
                yield &added
                if let added { insert(added, id: id) }
            }
        }
    }

    /// The slot of layer `id`, or nil when the table has no such layer: for reading the layer in place
    /// (`subscript(slot:)`), without copying it out.
    @inline(__always)
    func slot(of id: LayerID) -> Int32? { slots[id] }

    /// The layer in `slot` (a slot `slot(of:)` returned, the table unchanged since), read where the
    /// table holds it.
    ///
    /// Yielding the force-unwrapped element copied the whole layer out first (its state, with every
    /// reference in it retained and released again), for each read of one field. A slot that
    /// `slot(of:)` gave holds a layer, and Swift lays an optional's payload out at its own address
    /// (spare bits or a tag byte after it say `nil`), so the element's address is the layer's.
    subscript(slot slot: Int32) -> RenderLayer {
        unsafeAddress { address(ofSlot: slot) }
    }

    /// The address of the layer in `slot` (a slot `slot(of:)` returned), valid while the table is
    /// held and unchanged, as `subscript(slot:)`'s: fields read through it are read in place, where
    /// an argument taken from the subscript may be copied whole first (a layer is large).
    @inline(__always)
    func address(ofSlot slot: Int32) -> UnsafePointer<RenderLayer> {
        let chunk = Int(slot) >> Self.chunkShift, index = Int(slot) & (Self.chunkSize - 1)
        assert(chunks[chunk][index] != nil, "slot \(slot) holds no layer")
        return chunks[chunk].withUnsafeBufferPointer {
            UnsafeRawPointer($0.baseAddress! + index).assumingMemoryBound(to: RenderLayer.self)
        }
    }

    /// Removes layer `id` and returns it, or nil when there is none.
    @discardableResult
    public mutating func removeValue(forKey id: LayerID) -> RenderLayer? {
        guard let slot = slots.removeValue(forKey: id) else { return nil }
        let chunk = Int(slot) >> Self.chunkShift
        let index = Int(slot) & (Self.chunkSize - 1)
        let removed = chunks[chunk][index]
        chunks[chunk][index] = nil
        free.append(slot)
        return removed
    }

    /// Puts `layer` in a free slot under `id`, which has none.
    private mutating func insert(_ layer: RenderLayer, id: LayerID) {
        let slot: Int32
        if let reused = free.popLast() {
            slot = reused
        } else {
            slot = Int32(chunks.count * Self.chunkSize)
            chunks.append(ContiguousArray(repeating: nil, count: Self.chunkSize))
            free.reserveCapacity(Self.chunkSize)
            // The new chunk's other slots, highest first so that the lowest is taken next.
            for spare in (slot + 1..<slot + Int32(Self.chunkSize)).reversed() { free.append(spare) }
        }
        slots[id] = slot
        chunks[Int(slot) >> Self.chunkShift][Int(slot) & (Self.chunkSize - 1)] = layer
    }

    /// How many of this table's chunks are the same storage as `other`'s (for tests: a commit that
    /// writes to one layer leaves every other chunk shared with the tree before it).
    func chunksShared(with other: LayerTable) -> Int {
        zip(chunks, other.chunks).reduce(0) { shared, pair in
            let a = pair.0.withUnsafeBufferPointer { $0.baseAddress }
            let b = pair.1.withUnsafeBufferPointer { $0.baseAddress }
            return shared + (a == b ? 1 : 0)
        }
    }

    /// The number of chunks (for tests).
    var chunkCount: Int { chunks.count }
}

extension LayerTable: Sequence {
    /// Walks the layers with their ids, in no particular order.
    public struct Iterator: IteratorProtocol {
        var ids: Dictionary<LayerID, Int32>.Iterator
        let chunks: [ContiguousArray<RenderLayer?>]

        /// The next layer with its id, or nil after the last.
        public mutating func next() -> (key: LayerID, value: RenderLayer)? {
            guard let (id, slot) = ids.next() else { return nil }
            return (id, chunks[Int(slot) >> LayerTable.chunkShift][Int(slot) & (LayerTable.chunkSize - 1)]!)
        }
    }

    /// Each layer with its id, in no particular order.
    public func makeIterator() -> Iterator { Iterator(ids: slots.makeIterator(), chunks: chunks) }

    /// The number of layers.
    public var underestimatedCount: Int { slots.count }
}

extension LayerTable: ExpressibleByDictionaryLiteral {
    /// A table holding `elements` (a later element replaces an earlier one with the same id).
    public init(dictionaryLiteral elements: (LayerID, RenderLayer)...) {
        for (id, layer) in elements { self[id] = layer }
    }
}
