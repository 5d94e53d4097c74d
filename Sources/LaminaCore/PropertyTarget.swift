import Foundation

/// The key path a property animation drives, and how its value combines with the layer's.
public struct PropertyTarget: Sendable, Hashable {
    /// The animated key path.
    public var keyPath: LayerKeyPath
    /// When true the animated value is added to the underlying value (`isAdditive`).
    public var isAdditive: Bool
    /// When true each repeat builds on the previous one's end (`isCumulative`).
    public var isCumulative: Bool
    /// Maps a scalar animated value to a transform (`valueFunction`); the key path is then a
    /// whole transform property.
    public var valueFunction: CAValueFunctionName?

    /// Creates a target.
    public init(
        keyPath: LayerKeyPath, isAdditive: Bool = false, isCumulative: Bool = false,
        valueFunction: CAValueFunctionName? = nil
    ) {
        self.keyPath = keyPath
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        self.valueFunction = valueFunction
    }

    /// The kind the animation's values must have: the key path's, or the value function's input.
    public var valueKind: AnimationValue.Kind {
        valueFunction?.inputKind ?? keyPath.kind
    }
}
