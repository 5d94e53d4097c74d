import Foundation

/// The key path a property animation drives, and how its value combines with the layer's.
///
/// The key path may first name sublayers, as on Apple platforms: `"sublayers.dot.opacity"` drives
/// the opacity of the first sublayer named `dot` of the layer the animation is attached to, and
/// `"sublayers.a.sublayers.b.position"` goes one level deeper. Those names are `sublayerPath`.
public struct PropertyTarget: Sendable, Hashable {
    /// The names of the sublayers leading from the animation's layer to the layer it drives, outermost
    /// first (empty: the animation's own layer). Each step is the first sublayer with that name.
    public var sublayerPath: [String]
    /// The animated key path, of the driven layer.
    public var keyPath: LayerKeyPath
    /// When true the animated value is added to the underlying value (`isAdditive`).
    public var isAdditive: Bool
    /// When true each repeat builds on the previous one's end (`isCumulative`).
    public var isCumulative: Bool
    /// Maps a scalar animated value to a transform (`valueFunction`); the key path is then a
    /// whole transform property.
    public var valueFunction: CAValueFunctionName?
    /// A key that names no layer property (a custom property of a layer subclass, stored with
    /// `setValue(_:forKey:)`), or nil for a property target.
    ///
    /// The render server runs such an animation's timing and sends its events but changes no layer
    /// property with it (`write` skips it); the client evaluates its values to draw the layer's
    /// presentation copy. `keyPath` is then `LayerKeyPath.customStandIn(for:)` of the values' kind,
    /// which only gives the values their kind.
    public var customKey: String?
    /// The emitter cell value the animation drives (`emitterCells.NAME.birthRate`), or nil. `keyPath`
    /// is then the cell path's `standIn`, which only gives the values their kind; the value is read
    /// from and written into the driven layer's `emitter.cells` (a layer without such a cell is not
    /// changed).
    public var cell: EmitterCellKeyPath?

    /// Creates a target.
    public init(
        keyPath: LayerKeyPath, isAdditive: Bool = false, isCumulative: Bool = false,
        valueFunction: CAValueFunctionName? = nil, sublayerPath: [String] = [], customKey: String? = nil,
        cell: EmitterCellKeyPath? = nil
    ) {
        self.cell = cell
        self.sublayerPath = sublayerPath
        self.keyPath = keyPath
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        self.valueFunction = valueFunction
        self.customKey = customKey
    }

    /// The kind the animation's values must have: the key path's, or the value function's input.
    public var valueKind: AnimationValue.Kind {
        valueFunction?.inputKind ?? keyPath.kind
    }

    /// Splits a Core Animation key path into the sublayer names it starts with and the rest:
    /// `"sublayers.a.sublayers.b.opacity"` gives `(["a", "b"], "opacity")`. A key path without a
    /// `sublayers.NAME.` prefix comes back whole with no names. Nil when a `sublayers.` prefix has
    /// an empty name or nothing after it.
    public static func splitSublayerPath(_ keyPath: String) -> (names: [String], rest: String)? {
        // A key path without a "." byte (every implicit animation's) has no prefix to look for.
        if !keyPath.isEmpty && !keyPath.utf8.contains(UInt8(ascii: ".")) { return ([], keyPath) }
        var names: [String] = []
        var rest = Substring(keyPath)
        let prefix = "sublayers."
        while rest.hasPrefix(prefix) {
            let afterPrefix = rest.dropFirst(prefix.count)
            guard let dot = afterPrefix.firstIndex(of: "."), dot > afterPrefix.startIndex else { return nil }
            names.append(String(afterPrefix[..<dot]))
            rest = afterPrefix[afterPrefix.index(after: dot)...]
        }
        guard !rest.isEmpty else { return nil }
        return (names, String(rest))
    }

    /// The whole key path as written: the sublayer names, then the property's.
    public var keyPathString: String {
        sublayerPath.map { "sublayers.\($0)." }.joined() + (cell?.description ?? customKey ?? keyPath.description)
    }
}
