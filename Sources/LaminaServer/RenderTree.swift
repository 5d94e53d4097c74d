import LaminaCore
import LaminaProtocol

/// One layer of a render tree: its properties and its place in the hierarchy.
public struct RenderLayer: Sendable {
    public var state = LayerState()
    /// Sublayer ids, back to front, before sorting by `zPosition`.
    public var sublayers: [LayerID] = []
    /// The layer whose sublayer list holds this one.
    public var superlayer: LayerID?
}

/// A client's render tree: the server's private copy of its layers, updated only by whole transactions.
public struct RenderTree: Sendable {
    public var layers: [LayerID: RenderLayer] = [:]
    /// The layer shown on each display.
    public var roots: [UInt32: LayerID] = [:]

    public init() {}

    /// Applies a transaction to a copy of the tree and returns it, or throws the first problem found.
    /// The tree itself is never left half-changed: the caller swaps the copy in on success.
    public func applying(_ operations: [LayerOperation], displayCount: Int) throws(TransactionError) -> RenderTree {
        var next = self
        var touchedHierarchy = false
        for op in operations {
            switch op {
            case .createLayer(let id):
                guard id != 0 else { throw .invalidValue("layer id 0 is reserved") }
                guard next.layers[id] == nil else { throw .duplicateLayer(id) }
                guard next.layers.count < WireLimits.maxLayersPerClient else {
                    throw .limitExceeded("more than \(WireLimits.maxLayersPerClient) layers")
                }
                next.layers[id] = RenderLayer()
            case .destroyLayer(let id):
                guard next.layers.removeValue(forKey: id) != nil else { throw .unknownLayer(id) }
                touchedHierarchy = true
            case .set(let id, let property):
                guard next.layers[id] != nil else { throw .unknownLayer(id) }
                if let reason = property.invalidReason { throw .invalidValue("layer \(id): \(reason)") }
                property.apply(to: &next.layers[id]!.state)
            case .setSublayers(let id, let children):
                guard next.layers[id] != nil else { throw .unknownLayer(id) }
                next.layers[id]!.sublayers = children
                touchedHierarchy = true
            case .setRoot(let display, let layer):
                guard display < displayCount else { throw .badDisplay(display) }
                if let layer { next.roots[display] = layer } else { next.roots[display] = nil }
                touchedHierarchy = true
            }
        }
        if touchedHierarchy { try next.relinkAndValidate() }
        return next
    }

    /// Recomputes every `superlayer` from the sublayer lists and checks the hierarchy: every id exists,
    /// no layer has two superlayers or is its own ancestor, roots have no superlayer, depth is bounded.
    mutating func relinkAndValidate() throws(TransactionError) {
        for id in layers.keys { layers[id]!.superlayer = nil }
        for (id, layer) in layers {
            var seen = Set<LayerID>()
            for child in layer.sublayers {
                guard layers[child] != nil else { throw .unknownLayer(child) }
                if child == id { throw .cycle("layer \(id) lists itself as a sublayer") }
                guard seen.insert(child).inserted else {
                    throw .invalidValue("layer \(child) appears twice in the sublayers of \(id)")
                }
                if let other = layers[child]!.superlayer {
                    throw .invalidValue("layer \(child) is a sublayer of both \(other) and \(id)")
                }
                layers[child]!.superlayer = id
            }
        }
        for (display, root) in roots {
            guard let layer = layers[root] else { throw .unknownLayer(root) }
            if let parent = layer.superlayer {
                throw .invalidValue("root layer \(root) of display \(display) is a sublayer of \(parent)")
            }
        }
        // Walk up from every layer; memoised depths keep this linear. A walk that meets itself is a cycle.
        var depth: [LayerID: Int] = [:]
        for start in layers.keys where depth[start] == nil {
            var path: [LayerID] = []
            var onPath = Set<LayerID>()
            var current: LayerID? = start
            var base = 0
            while let id = current {
                if let known = depth[id] { base = known; break }
                guard onPath.insert(id).inserted else { throw .cycle("layer \(id) is its own ancestor") }
                path.append(id)
                current = layers[id]!.superlayer
            }
            for (i, id) in path.reversed().enumerated() {
                let d = base + i + 1
                guard d <= WireLimits.maxTreeDepth else {
                    throw .limitExceeded("tree deeper than \(WireLimits.maxTreeDepth) layers at layer \(id)")
                }
                depth[id] = d
            }
        }
    }
}

/// Why a transaction was refused. The text names the id or value at fault.
public enum TransactionError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownLayer(LayerID)
    case duplicateLayer(LayerID)
    case cycle(String)
    case invalidValue(String)
    case limitExceeded(String)
    case badDisplay(UInt32)

    public var code: ServerErrorCode {
        switch self {
        case .unknownLayer: .unknownLayer
        case .duplicateLayer: .duplicateLayer
        case .cycle: .cycle
        case .invalidValue: .invalidValue
        case .limitExceeded: .limitExceeded
        case .badDisplay: .badDisplay
        }
    }

    public var description: String {
        switch self {
        case .unknownLayer(let id): "unknown layer id \(id) (ids are per connection: another client's id is unknown here)"
        case .duplicateLayer(let id): "layer id \(id) already exists"
        case .cycle(let text): "cycle in the layer tree: \(text)"
        case .invalidValue(let text): "invalid value: \(text)"
        case .limitExceeded(let text): "limit exceeded: \(text)"
        case .badDisplay(let d): "display \(d) does not exist"
        }
    }
}
