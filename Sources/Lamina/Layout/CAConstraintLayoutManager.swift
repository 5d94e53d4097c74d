import Foundation

/// A layout manager that places sublayers by their `constraints` (Apple's `CAConstraintLayoutManager`).
///
/// Set it as the `layoutManager` of the layer whose sublayers carry constraints. At each layout pass it
/// computes every constrained sublayer's frame afresh:
/// - A constraint's reference is named: `"superlayer"` is the laid-out layer (its `bounds`), any other
///   name the first sublayer with that `name` (its `frame`, as already laid out in this pass). A
///   constraint whose reference does not exist is ignored.
/// - Sublayers constrained to siblings are laid out after those siblings (dependency order). A cycle of
///   references gives an undefined but finite result: each layer in it is laid out once, from the
///   frames its references have at that moment.
/// - Each axis takes at most two constraints: two edges (or an edge and the centre) set the position
///   and the size; an edge and the size move the other edge; a single edge or centre keeps the size;
///   the size alone keeps the point under the anchor. A second constraint on the same attribute
///   replaces the first; a third attribute on an axis is ignored. Sizes below zero become zero.
/// - Sublayers without constraints are left alone.
open class CAConstraintLayoutManager: NSObject, CALayoutManager, @unchecked Sendable {
    /// A constraint layout manager; one may be shared by any number of layers (Apple's
    /// `CAConstraintLayoutManager()`).
    public override init() {
        super.init()
    }

    /// The size of `layer`'s bounds.
    open func preferredSize(of layer: CALayer) -> CGSize { layer.bounds.size }

    /// Does nothing: the manager caches nothing.
    open func invalidateLayout(of layer: CALayer) {}

    /// Sets the frame of every sublayer of `layer` that has constraints, as the type's summary says.
    open func layoutSublayers(of layer: CALayer) {
        let sublayers = layer.modelSublayers
        var named: [String: CALayer] = [:]
        for sublayer in sublayers { if let name = sublayer.name, named[name] == nil { named[name] = sublayer } }
        for sublayer in Self.dependencyOrder(sublayers, named: named) {
            guard let constraints = sublayer.constraints, !constraints.isEmpty else { continue }
            let frame = Self.frame(of: sublayer, constraints: constraints, superlayer: layer, named: named)
            if frame != sublayer.frame { sublayer.frame = frame }
        }
    }

    /// `sublayers` ordered so that each comes after the siblings its constraints name (a depth-first
    /// topological order, iterative so that long chains do not exhaust the stack; a cycle is cut where
    /// the search meets a layer it is still visiting).
    static func dependencyOrder(_ sublayers: [CALayer], named: [String: CALayer]) -> [CALayer] {
        var visited = Set<ObjectIdentifier>()
        var order: [CALayer] = []
        order.reserveCapacity(sublayers.count)
        func references(_ layer: CALayer) -> [CALayer] {
            (layer.constraints ?? []).compactMap { c in
                guard c.sourceName != "superlayer", let source = named[c.sourceName], source !== layer else {
                    return nil
                }
                return source
            }
        }
        for root in sublayers where !visited.contains(ObjectIdentifier(root)) {
            visited.insert(ObjectIdentifier(root))
            var stack: [(layer: CALayer, pending: [CALayer])] = [(root, references(root))]
            while !stack.isEmpty {
                if let next = stack[stack.count - 1].pending.popLast() {
                    guard visited.insert(ObjectIdentifier(next)).inserted else { continue }
                    stack.append((next, references(next)))
                } else {
                    order.append(stack.removeLast().layer)
                }
            }
        }
        return order
    }

    /// What the constraints of one axis say: the values given to its edges, centre and size.
    struct Axis {
        var min: CGFloat?
        var mid: CGFloat?
        var max: CGFloat?
        var size: CGFloat?
        var count = 0

        /// Records `value` for `slot`: replaces a value already there, takes a new slot while fewer
        /// than two are used, ignores it otherwise.
        mutating func set(_ slot: WritableKeyPath<Axis, CGFloat?>, _ value: CGFloat) {
            if self[keyPath: slot] != nil {
                self[keyPath: slot] = value
            } else if count < 2 {
                self[keyPath: slot] = value
                count += 1
            }
        }

        /// The origin and size along the axis, from the current ones and the anchor's unit position.
        func solve(origin: CGFloat, size current: CGFloat, anchor: CGFloat) -> (origin: CGFloat, size: CGFloat) {
            if let size {
                let s = Swift.max(size, 0)
                if let min { return (min, s) }
                if let mid { return (mid - s / 2, s) }
                if let max { return (max - s, s) }
                return (origin + anchor * (current - s), s)
            }
            switch (min, mid, max) {
            case (let lo?, _, let hi?): return (lo, Swift.max(hi - lo, 0))
            case (let lo?, let m?, nil): return (lo, Swift.max(2 * (m - lo), 0))
            case (nil, let m?, let hi?):
                let s = Swift.max(2 * (hi - m), 0)
                return (hi - s, s)
            case (let lo?, nil, nil): return (lo, current)
            case (nil, let m?, nil): return (m - current / 2, current)
            case (nil, nil, let hi?): return (hi - current, current)
            case (nil, nil, nil): return (origin, current)
            }
        }
    }

    /// The frame `constraints` give `sublayer`, the references read from `superlayer`'s bounds and
    /// the siblings' current frames.
    static func frame(
        of sublayer: CALayer, constraints: [CAConstraint], superlayer: CALayer, named: [String: CALayer]
    ) -> CGRect {
        var x = Axis()
        var y = Axis()
        for c in constraints {
            let source: CGRect
            if c.sourceName == "superlayer" {
                source = superlayer.bounds
            } else if let sibling = named[c.sourceName] {
                source = sibling.frame
            } else {
                continue
            }
            let value = c.value(from: c.sourceAttribute.value(in: source))
            switch c.attribute {
            case .minX: x.set(\.min, value)
            case .midX: x.set(\.mid, value)
            case .maxX: x.set(\.max, value)
            case .width: x.set(\.size, value)
            case .minY: y.set(\.min, value)
            case .midY: y.set(\.mid, value)
            case .maxY: y.set(\.max, value)
            case .height: y.set(\.size, value)
            }
        }
        let current = sublayer.frame
        let anchor = sublayer.anchorPoint
        let h = x.solve(origin: current.minX, size: current.width, anchor: anchor.x)
        let v = y.solve(origin: current.minY, size: current.height, anchor: anchor.y)
        return CGRect(x: h.origin, y: v.origin, width: h.size, height: v.size)
    }
}
