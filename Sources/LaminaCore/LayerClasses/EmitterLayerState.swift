import Foundation

/// The properties of a `CAEmitterLayer`, as plain values with Core Animation's defaults
/// (`CAEmitterLayer.h`): every multiplier 1, the emitter a point at the origin, unordered drawing,
/// seed 0, no cells.
///
/// The shape, mode and render mode are Apple's string constants (`"point"`, `"volume"`,
/// `"unordered"`, ...); an unknown string draws as the default. `cells` is set by one transaction
/// operation (`setEmitterCells`), not by a property row.
public struct EmitterLayerState: Sendable, Hashable {
    /// Multiplies every cell's `birthRate`; 1 by default.
    public var birthRate: Float = 1
    /// Multiplies every cell's `lifetime`; 1 by default.
    public var lifetime: Float = 1
    /// Multiplies every cell's `velocity` and `velocityRange`; 1 by default.
    public var velocity: Float = 1
    /// Multiplies every cell's `scale` and `scaleRange`; 1 by default.
    public var scale: Float = 1
    /// Multiplies every cell's `spin` and `spinRange`; 1 by default.
    public var spin: Float = 1
    /// The centre of the emission shape in the layer's coordinates; the origin by default.
    public var emitterPosition: CGPoint = .zero
    /// The z of the centre of the emission shape; 0 by default.
    public var emitterZPosition: Double = 0
    /// The size of the emission shape; zero by default.
    public var emitterSize: CGSize = .zero
    /// The depth of the emission shape (cuboids and spheres); 0 by default.
    public var emitterDepth: Double = 0
    /// The shape particles are born in (`"point"`, `"line"`, `"rectangle"`, `"cuboid"`, `"circle"`,
    /// `"sphere"`); `"point"` by default.
    public var emitterShape = "point"
    /// Where in the shape particles are born (`"points"`, `"outline"`, `"surface"`, `"volume"`);
    /// `"volume"` by default.
    public var emitterMode = "volume"
    /// The order particles are drawn in (`"unordered"`, `"oldestFirst"`, `"oldestLast"`,
    /// `"backToFront"`, `"additive"`); `"unordered"` by default.
    public var renderMode = "unordered"
    /// The seed of every random draw; 0 by default. Travels as a number; its whole part modulo 2³² is
    /// used.
    public var seed: Double = 0
    /// Whether particles keep their depth (`preservesDepth`): placed at their z and projected by the
    /// layer's and its ancestors' 3-D transforms instead of flattened into the layer's plane; false by
    /// default.
    public var preservesDepth = false
    /// The emitter cells, in order: what `setEmitterCells` last set.
    public var cells: [EmitterCellState] = []

    /// An emitter layer's properties at their defaults.
    public init() {}

    /// The defaults, read when a layer of another class is asked for an emitter property.
    public static let defaults = EmitterLayerState()

    /// The shapes Apple documents (`kCAEmitterLayerPoint` ...), which `emitterShape` may name.
    public static let shapes: Set<String> = ["point", "line", "rectangle", "cuboid", "circle", "sphere"]
    /// The modes Apple documents (`kCAEmitterLayerPoints` ...), which `emitterMode` may name.
    public static let modes: Set<String> = ["points", "outline", "surface", "volume"]
    /// The render modes Apple documents (`kCAEmitterLayerUnordered` ...), which `renderMode` may name.
    public static let renderModes: Set<String> = ["unordered", "oldestFirst", "oldestLast", "backToFront", "additive"]

    /// The seed as the 32-bit value the random draws start from.
    public var seedBits: UInt32 {
        guard seed.isFinite else { return 0 }
        let whole = seed.rounded(.towardZero).truncatingRemainder(dividingBy: 4_294_967_296)
        return UInt32(whole < 0 ? whole + 4_294_967_296 : whole)
    }
}
