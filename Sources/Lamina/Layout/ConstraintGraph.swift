import Foundation

/// The references between the sublayers of one layer laid out by a `CAConstraintLayoutManager`:
/// which sibling each constraint reads, which constraints can be used, and the order in which the
/// sublayers are laid out.
///
/// A layer reads a sibling through a constraint that names it. The strongly connected components
/// of that graph are found with Tarjan's algorithm, iteratively so that long chains do not exhaust
/// the stack; a reference inside a component (a layer naming itself, or layers waiting on each
/// other) is unusable, and the components come out with every layer after the siblings it reads.
struct ConstraintGraph {
    /// For each sublayer, the indices of the siblings its constraints name, by constraint.
    private let references: [[Int?]]
    /// For each sublayer, its component's number.
    private var component: [Int]
    /// The components, each a list of sublayer indices, in dependency order.
    private var components: [[Int]] = []
    /// Which sublayers have a constraint on the x axis, and on the y axis.
    private let laidOutX: [Bool]
    private let laidOutY: [Bool]

    init(_ sublayers: [CALayer], named: [String: CALayer]) {
        var index: [ObjectIdentifier: Int] = [:]
        for (i, layer) in sublayers.enumerated() { index[ObjectIdentifier(layer)] = i }
        references = sublayers.map { layer in
            (layer.constraints ?? []).map { c in
                guard c.sourceName != "superlayer", let source = named[c.sourceName] else { return nil }
                return index[ObjectIdentifier(source)]
            }
        }
        laidOutX = sublayers.map { ($0.constraints ?? []).contains { $0.attribute.isHorizontal } }
        laidOutY = sublayers.map { ($0.constraints ?? []).contains { !$0.attribute.isHorizontal } }
        component = Array(repeating: -1, count: sublayers.count)
        findComponents()
    }

    /// The sublayer indices, each after the siblings it reads.
    func dependencyOrder() -> [Int] { components.flatMap { $0 } }

    /// The constraints of sublayer `layer` (its `constraints`, in order) that can be used: those
    /// naming the superlayer, and those naming a sibling outside the layer's component that has a
    /// constraint on the axis of the attribute read. Constraints naming no layer are kept (the
    /// layout skips them).
    func usableConstraints(of layer: Int, _ constraints: [CAConstraint]) -> [CAConstraint] {
        constraints.indices.compactMap { i in
            let c = constraints[i]
            guard i < references[layer].count, let source = references[layer][i] else { return c }
            guard component[source] != component[layer] else { return nil }
            let laidOut = c.sourceAttribute.isHorizontal ? laidOutX[source] : laidOutY[source]
            return laidOut ? c : nil
        }
    }

    /// Tarjan's algorithm without recursion: each frame of the stack is a node and the position of
    /// the next edge to follow.
    private mutating func findComponents() {
        let count = references.count
        var order = Array(repeating: -1, count: count)
        var low = Array(repeating: 0, count: count)
        var onStack = Array(repeating: false, count: count)
        var stack: [Int] = []
        var next = 0
        for root in 0..<count where order[root] < 0 {
            var frames: [(node: Int, edge: Int)] = [(root, 0)]
            order[root] = next
            low[root] = next
            next += 1
            stack.append(root)
            onStack[root] = true
            while var frame = frames.popLast() {
                let edges = references[frame.node]
                if frame.edge < edges.count {
                    let target = edges[frame.edge]
                    frame.edge += 1
                    frames.append(frame)
                    guard let w = target else { continue }
                    if order[w] < 0 {
                        order[w] = next
                        low[w] = next
                        next += 1
                        stack.append(w)
                        onStack[w] = true
                        frames.append((w, 0))
                    } else if onStack[w] {
                        low[frame.node] = min(low[frame.node], order[w])
                    }
                    continue
                }
                let v = frame.node
                if let parent = frames.last?.node { low[parent] = min(low[parent], low[v]) }
                guard low[v] == order[v] else { continue }
                var members: [Int] = []
                while let w = stack.popLast() {
                    onStack[w] = false
                    component[w] = components.count
                    members.append(w)
                    if w == v { break }
                }
                components.append(members.reversed())
            }
        }
    }
}
