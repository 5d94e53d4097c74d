import Foundation

/// The properties of a `CAReplicatorLayer`, as plain values with Core Animation's defaults: the
/// storage behind `LayerClassState.replicator`.
///
/// Declared once as rows of `LayerPropertyDescriptor.replicatorRows`. The server draws the layer's
/// sublayers `instanceCount` times; copy *k* (from 0) is drawn with `instanceTransform` applied *k*
/// times about the layer's anchor point, its colours multiplied by `color(ofInstance:)` and its
/// sublayers' time `k × instanceDelay` earlier.
public struct ReplicatorLayerState: Sendable, Hashable {
    /// How many copies of the sublayers are drawn, as the app set it; 1 by default. Below 1 draws
    /// nothing (the sublayers included), as on Apple platforms; above `maxInstanceCount` draws that many.
    public var instanceCount = 1
    /// How much earlier, in seconds, each copy's sublayers are in time than the copy before; 0 by default.
    public var instanceDelay: Double = 0
    /// The transform applied once more to each copy, about the layer's anchor point; the identity by default.
    public var instanceTransform = CATransform3DIdentity
    /// The colour the first copy's colours are multiplied by; opaque white (no change) by default. Nil
    /// multiplies by white.
    public var instanceColor: RGBAColor? = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
    /// Added to the multiplier's red for each further copy; 0 by default.
    public var instanceRedOffset: Float = 0
    /// Added to the multiplier's green for each further copy; 0 by default.
    public var instanceGreenOffset: Float = 0
    /// Added to the multiplier's blue for each further copy; 0 by default.
    public var instanceBlueOffset: Float = 0
    /// Added to the multiplier's alpha for each further copy; 0 by default.
    public var instanceAlphaOffset: Float = 0
    /// Whether the copies keep their depth instead of being flattened into the layer's plane; false by
    /// default. Kept and printed; Lamina draws the copies flattened either way (docs/apple-differences.md).
    public var preservesDepth = false

    /// A replicator layer's properties at their defaults.
    public init() {}

    /// The defaults, read when a layer of another class is asked for a replicator property.
    public static let defaults = ReplicatorLayerState()

    /// The most copies one replicator layer draws, and the most a set-property operation may ask for
    /// (more is refused as an invalid value): a replicator of a billion copies must not stall the
    /// render server. The client sends at most this many.
    public static let maxInstanceCount = 10_000

    /// The number of copies drawn: `instanceCount` limited to 0...`maxInstanceCount`.
    public var drawnInstanceCount: Int { min(max(instanceCount, 0), Self.maxInstanceCount) }

    /// The instance count a table value `value` stands for (an animation's value is fractional): its
    /// whole part, limited to 0...`maxInstanceCount`; 0 when it is not finite.
    public static func instanceCount(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        return Int(min(max(value, 0), Double(maxInstanceCount)).rounded(.towardZero))
    }

    /// The colour copy `k` (from 0) multiplies its colours by: `instanceColor` (white when nil) plus
    /// `k` times each offset, every component clamped to 0...1.
    public func color(ofInstance k: Int) -> RGBAColor {
        let base = instanceColor ?? RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
        let steps = Double(k)
        func clamped(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
        return RGBAColor(
            red: clamped(base.red + steps * Double(instanceRedOffset)),
            green: clamped(base.green + steps * Double(instanceGreenOffset)),
            blue: clamped(base.blue + steps * Double(instanceBlueOffset)),
            alpha: clamped(base.alpha + steps * Double(instanceAlphaOffset)))
    }
}
