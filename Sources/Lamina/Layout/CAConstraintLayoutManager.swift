import Foundation

/// A layout manager that places sublayers by their `constraints` (Apple's `CAConstraintLayoutManager`).
///
/// Set it as the `layoutManager` of the layer whose sublayers carry constraints. At each layout pass it
/// computes every constrained sublayer's frame afresh, by Apple's rules (as GNUstep's QuartzCore tests
/// observed them on macOS, issue 24):
/// - A constraint's reference is named: `"superlayer"` is the laid-out layer (its `bounds`), any other
///   name the first sublayer with that `name` (its `frame`, as already laid out in this pass). A
///   constraint is ignored when no layer has the name, when it names its own layer, when the sibling
///   it names has no constraint on the axis of the attribute read (it is not laid out there), or when
///   the sibling waits, directly or through others, on the constrained layer (a cycle).
/// - Sublayers constrained to siblings are laid out after those siblings, whatever their order.
/// - Each axis is decided by the constraint given last, paired with the lowest of the others in the
///   order left (or bottom) edge, centre, right (or top) edge, size. Two edges (or an edge and the
///   centre) set the position and the size; an edge or the centre with the size place the layer at
///   that size; a single edge or centre keeps the size. A size alone, or a pair naming the same
///   attribute twice, leaves the axis as it is. Sizes below zero become zero.
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
        let graph = ConstraintGraph(sublayers, named: named)
        for index in graph.dependencyOrder() {
            let sublayer = sublayers[index]
            guard let constraints = sublayer.constraints, !constraints.isEmpty else { continue }
            let usable = graph.usableConstraints(of: index, constraints)
            let frame = Self.frame(of: sublayer, constraints: usable, superlayer: layer, named: named)
            if frame != sublayer.frame { sublayer.frame = frame }
        }
    }

    /// What the constraints of one axis say, in the order they were given.
    struct Axis {
        /// The slot of an attribute on its axis, lowest first: the order in which a partner for the
        /// last constraint is chosen.
        enum Slot: Int, Comparable {
            case min, mid, max, size
            static func < (a: Slot, b: Slot) -> Bool { a.rawValue < b.rawValue }
        }

        var entries: [(slot: Slot, value: CGFloat)] = []

        mutating func append(_ slot: Slot, _ value: CGFloat) { entries.append((slot, value)) }

        /// The origin and size along the axis from the current ones, or nil when the constraints
        /// leave the axis alone.
        func solve(origin: CGFloat, size current: CGFloat) -> (origin: CGFloat, size: CGFloat)? {
            guard let last = entries.last else { return nil }
            guard entries.count > 1 else {
                switch last.slot {
                case .min: return (last.value, current)
                case .mid: return (last.value - current / 2, current)
                case .max: return (last.value - current, current)
                case .size: return nil
                }
            }
            // The lowest of the others; among equals, the one given first.
            var partner = entries[0]
            for entry in entries.dropLast() where entry.slot < partner.slot { partner = entry }
            guard partner.slot != last.slot else { return nil }
            let (a, b) = partner.slot < last.slot ? (partner, last) : (last, partner)
            switch (a.slot, b.slot) {
            case (.min, .mid): return (a.value, Swift.max(2 * (b.value - a.value), 0))
            case (.min, .max): return (a.value, Swift.max(b.value - a.value, 0))
            case (.min, .size): return (a.value, Swift.max(b.value, 0))
            case (.mid, .max):
                let s = Swift.max(2 * (b.value - a.value), 0)
                return (b.value - s, s)
            case (.mid, .size):
                let s = Swift.max(b.value, 0)
                return (a.value - s / 2, s)
            case (.max, .size):
                let s = Swift.max(b.value, 0)
                return (a.value - s, s)
            default: return nil
            }
        }
    }

    /// The frame `constraints` give `sublayer`, the references read from `superlayer`'s bounds and
    /// the siblings' current frames. Constraints whose reference is missing are skipped.
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
            case .minX: x.append(.min, value)
            case .midX: x.append(.mid, value)
            case .maxX: x.append(.max, value)
            case .width: x.append(.size, value)
            case .minY: y.append(.min, value)
            case .midY: y.append(.mid, value)
            case .maxY: y.append(.max, value)
            case .height: y.append(.size, value)
            }
        }
        var frame = sublayer.frame
        if let h = x.solve(origin: frame.minX, size: frame.width) {
            frame.origin.x = h.origin
            frame.size.width = h.size
        }
        if let v = y.solve(origin: frame.minY, size: frame.height) {
            frame.origin.y = v.origin
            frame.size.height = v.size
        }
        return frame
    }
}
