import Foundation
import LaminaCore

/// A layer that emits particles from its emitter cells: Core Animation's `CAEmitterLayer`.
///
/// The render server simulates and draws the particles (`LayerClass.emitter`) from the layer's
/// properties, its `seed` and its local time alone: particle *k* of a cell is born at *k* / rate
/// seconds of the layer's time (set `beginTime` to start the emission at a moment), moves, turns,
/// grows and changes colour as its cell says, and lives its lifetime; so a frame at a given time shows
/// the same particles every time and the app never ticks. Each particle is drawn as its cell's
/// contents, tinted by its colour, centred on it, in the layer's coordinate space, after the layer's
/// contents and before its sublayers. The multipliers (`birthRate`, `lifetime`, `velocity`, `scale`,
/// `spin`) and the emitter's position, z position, size and depth animate on the server's clock,
/// implicitly too (`CAEmitterLayer.h`). The server draws at most 5,000 live particles of one layer
/// (docs/apple-differences.md).
open class CAEmitterLayer: CALayer {
    /// The cells as the app gave them.
    var storedEmitterCells: [CAEmitterCell]?

    /// Creates an emitter layer with Core Animation's defaults: no cells, every multiplier 1, a point
    /// emitter at the origin, volume mode, unordered rendering, seed 0.
    public override init() {
        super.init()
    }

    /// Creates a shadow copy of `layer` (a presentation copy), its cells included.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAEmitterLayer { storedEmitterCells = other.storedEmitterCells }
    }

    /// Creates an emitter layer from an archive written by `encode(with:)`; nil when it is damaged.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        if let cells = coder.decodeArray(of: CAEmitterCell.self, forKey: "emitterCells") {
            emitterCells = cells
        }
        // Decoded under its key as a custom value; the server's copy follows.
        if (kvcStorage["preservesDepth"] as? NSNumber)?.boolValue == true { preservesDepth = true }
    }

    /// Archives the layer as `CALayer` does, and its cells.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        if let cells = storedEmitterCells, shouldArchiveValue(forKey: "emitterCells") {
            coder.encode(NSArray(array: cells), forKey: "emitterCells")
        }
    }

    /// The value of `key`; `emitterCells` answers the cells.
    open override func value(forKey key: String) -> Any? {
        key == "emitterCells" ? emitterCells : super.value(forKey: key)
    }

    /// Sets `key`; `emitterCells` takes an array of cells (or nil).
    open override func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case "emitterCells": setEmitterCells(fromKeyValue: value)
        case "preservesDepth": preservesDepth = (value as? NSNumber)?.boolValue ?? (value as? Bool) ?? false
        default: super.setValue(value, forKey: key)
        }
    }

    /// The value at `keyPath`; `emitterCells.NAME.KEY` reads the value of the cell named NAME.
    open override func value(forKeyPath keyPath: String) -> Any? {
        guard let (cell, key) = cell(at: keyPath) else { return super.value(forKeyPath: keyPath) }
        return cell.value(forKey: key)
    }

    /// Sets the value at `keyPath`; `emitterCells.NAME.KEY` sets the value of the cell named NAME, sent
    /// with the next commit.
    open override func setValue(_ value: Any?, forKeyPath keyPath: String) {
        guard let (cell, key) = cell(at: keyPath) else { return super.setValue(value, forKeyPath: keyPath) }
        setCellValue(value, cell: cell, key: key, keyPath: keyPath)
    }

    /// Core Animation's default for `key`: the class's own properties answer their defaults (boxed as
    /// key-value coding returns them), `preservesDepth` false, every other key as `CALayer` answers it.
    open override class func defaultValue(forKey key: String) -> Any? {
        if let own = ownDefault(forKey: key, of: .emitter) { return own }
        if key == "preservesDepth" { return NSNumber(value: false) }
        return super.defaultValue(forKey: key)
    }

    /// The cells that emit particles, copied when set (change a cell later through
    /// `setValue(_:forKeyPath:)` with `emitterCells.NAME.KEY`); nil by default. At most 64 cells in
    /// all, nested at most 4 deep: the server refuses more.
    open var emitterCells: [CAEmitterCell]? {
        get { storedEmitterCells }
        set {
            settingKey("emitterCells") {
                storedEmitterCells = newValue
                syncEmitterCells()
            }
        }
    }

    /// Copies the cells' values into the model, for the next commit.
    func syncEmitterCells() {
        let cells = (storedEmitterCells ?? []).map(\.serverState)
        guard cells != modelState.emitter.cells else { return }
        modelState.emitter.cells = cells
        changed()
    }

    /// Multiplies every cell's birth rate; 1 by default. Animatable.
    open var birthRate: Float {
        get { modelState.emitter.birthRate }
        set { update(.emitterBirthRate, \.emitter.birthRate, newValue) }
    }

    /// Multiplies every cell's lifetime; 1 by default. Animatable.
    open var lifetime: Float {
        get { modelState.emitter.lifetime }
        set { update(.emitterLifetime, \.emitter.lifetime, newValue) }
    }

    /// Multiplies every cell's velocity; 1 by default. Animatable.
    open var velocity: Float {
        get { modelState.emitter.velocity }
        set { update(.emitterVelocity, \.emitter.velocity, newValue) }
    }

    /// Multiplies every cell's scale; 1 by default. Animatable.
    open var scale: Float {
        get { modelState.emitter.scale }
        set { update(.emitterScale, \.emitter.scale, newValue) }
    }

    /// Multiplies every cell's spin; 1 by default. Animatable.
    open var spin: Float {
        get { modelState.emitter.spin }
        set { update(.emitterSpin, \.emitter.spin, newValue) }
    }

    /// The centre of the emission shape in the layer's coordinates; the origin by default. Animatable.
    open var emitterPosition: CGPoint {
        get { modelState.emitter.emitterPosition }
        set { update(.emitterPosition, \.emitter.emitterPosition, newValue) }
    }

    /// The z of the centre of the emission shape; 0 by default. Animatable.
    open var emitterZPosition: CGFloat {
        get { CGFloat(modelState.emitter.emitterZPosition) }
        set { update(.emitterZPosition, \.emitter.emitterZPosition, Double(newValue)) }
    }

    /// The size of the emission shape; zero by default. Animatable.
    open var emitterSize: CGSize {
        get { modelState.emitter.emitterSize }
        set { update(.emitterSize, \.emitter.emitterSize, newValue) }
    }

    /// The depth of the emission shape (cuboids, spheres); 0 by default. Animatable.
    open var emitterDepth: CGFloat {
        get { CGFloat(modelState.emitter.emitterDepth) }
        set { update(.emitterDepth, \.emitter.emitterDepth, Double(newValue)) }
    }

    /// The shape particles are born in; `.point` by default.
    open var emitterShape: CAEmitterLayerEmitterShape {
        get { CAEmitterLayerEmitterShape(modelState.emitter.emitterShape) }
        set { update(.emitterShape, \.emitter.emitterShape, newValue.rawValue) }
    }

    /// Where in the shape particles are born; `.volume` by default.
    open var emitterMode: CAEmitterLayerEmitterMode {
        get { CAEmitterLayerEmitterMode(modelState.emitter.emitterMode) }
        set { update(.emitterMode, \.emitter.emitterMode, newValue.rawValue) }
    }

    /// The order particles are drawn in; `.unordered` by default.
    open var renderMode: CAEmitterLayerRenderMode {
        get { CAEmitterLayerRenderMode(modelState.emitter.renderMode) }
        set { update(.renderMode, \.emitter.renderMode, newValue.rawValue) }
    }

    /// Whether particles keep their depth instead of being flattened into the layer's plane (Apple's
    /// `CAEmitterLayer.h`: "Defines whether or not the layer flattens the particles into its plane");
    /// false by default. With it, a particle at depth z (`emitterZPosition`, `emitterDepth`,
    /// `zAcceleration`) is placed at that z and projected by the layer's and its ancestors' 3-D
    /// transforms (a superlayer's perspective makes nearer particles larger), drawn in the layer's
    /// `renderMode` order. Kept under its key by the client, sent as row 93.
    open var preservesDepth: Bool {
        get { (kvcValue(forKey: "preservesDepth") as? NSNumber)?.boolValue ?? false }
        set {
            // Recorded as set (archiving) under the key, with one change notice from the row's update.
            keyRecord.noteSet("preservesDepth")
            update(
                .emitterPreservesDepth, \.emitter.preservesDepth, newValue,
                alongside: { self.kvcStorage["preservesDepth"] = NSNumber(value: newValue) })
        }
    }

    /// The seed of every random draw of the particles; 0 by default. The same seed and time give the
    /// same particles.
    open var seed: UInt32 {
        get { modelState.emitter.seedBits }
        set { update(.emitterSeed, \.emitter.seed, Double(newValue)) }
    }
}
