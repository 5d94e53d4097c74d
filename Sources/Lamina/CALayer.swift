import Foundation
@_exported import LaminaCore

/// An object that manages image-based content and its geometry, appearance and place in a layer tree.
///
/// Setting a property changes the model value at once and records the layer in the current
/// `CATransaction`; the render server sees the change when that transaction commits. Layers are meant
/// to be used from one thread at a time (normally the main thread), as on Apple platforms.
open class CALayer: NSObject {
    /// The layer's id on the wire, unique in this process.
    let layerID: LayerID
    /// Model values, as the render server will receive them.
    var model = LayerState()
    /// Bumped on every property change, so a commit sends only changed layers.
    var version: UInt64 = 0
    private var storedSublayers: [CALayer] = []
    private weak var storedSuperlayer: CALayer?
    private var storedBackgroundColor: CGColor?
    private var storedBorderColor: CGColor? = CGColor(gray: 0, alpha: 1)

    nonisolated(unsafe) private static var nextID: LayerID = 0
    private static let idLock = NSLock()

    /// Creates a layer with Core Animation's default property values.
    public override init() {
        layerID = Self.idLock.withLock {
            Self.nextID += 1
            return Self.nextID
        }
        super.init()
    }

    /// Creates a layer whose properties are copied from `layer` (Core Animation uses this for shadow
    /// copies such as presentation layers; subclasses override it to copy their own state).
    public convenience init(layer: Any) {
        self.init()
        if let other = layer as? CALayer {
            model = other.model
            storedBackgroundColor = other.storedBackgroundColor
            storedBorderColor = other.storedBorderColor
        }
    }

    func changed() {
        version &+= 1
        CATransaction.treeDidChange()
    }

    // MARK: Geometry

    /// The layer's own coordinate space and size. Animatable.
    open var bounds: CGRect {
        get { model.bounds }
        set { model.bounds = newValue; changed() }
    }

    /// Where the anchor point lies in the superlayer's coordinate space. Animatable.
    open var position: CGPoint {
        get { model.position }
        set { model.position = newValue; changed() }
    }

    /// The pivot of transforms and the reference point of `position`, in unit coordinates. Animatable.
    open var anchorPoint: CGPoint {
        get { model.anchorPoint }
        set { model.anchorPoint = newValue; changed() }
    }

    /// The anchor point's z component. Animatable.
    open var anchorPointZ: CGFloat {
        get { model.anchorPointZ }
        set { model.anchorPointZ = newValue; changed() }
    }

    /// The layer's position on the z axis: the first key of sibling order. Animatable.
    open var zPosition: CGFloat {
        get { model.zPosition }
        set { model.zPosition = newValue; changed() }
    }

    /// The transform applied to the layer and its sublayers, about the anchor point. Animatable.
    open var transform: CATransform3D {
        get { model.transform }
        set { model.transform = newValue; changed() }
    }

    /// The transform applied to the sublayers only, about this layer's anchor point. Animatable.
    open var sublayerTransform: CATransform3D {
        get { model.sublayerTransform }
        set { model.sublayerTransform = newValue; changed() }
    }

    /// The layer's rectangle in its superlayer's coordinates, derived from `bounds`, `position`,
    /// `anchorPoint` and `transform`. Setting it sets `position` and `bounds.size`. Not animatable.
    open var frame: CGRect {
        get { model.frame }
        set {
            model.bounds.size = newValue.size
            model.position = CGPoint(x: newValue.origin.x + model.anchorPoint.x * newValue.width,
                                     y: newValue.origin.y + model.anchorPoint.y * newValue.height)
            changed()
        }
    }

    /// The layer's transform as an affine transform.
    open func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(model.transform) }

    /// Sets the layer's transform to an affine transform.
    open func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    // MARK: Appearance

    /// The layer's opacity, 0...1, multiplied into its sublayers. Animatable.
    open var opacity: Float {
        get { model.opacity }
        set { model.opacity = newValue; changed() }
    }

    /// Whether the layer and its subtree are hidden. Animatable.
    open var isHidden: Bool {
        get { model.isHidden }
        set { model.isHidden = newValue; changed() }
    }

    /// The colour filled inside the bounds, shaped by `cornerRadius`. Animatable.
    open var backgroundColor: CGColor? {
        get { storedBackgroundColor }
        set {
            storedBackgroundColor = newValue
            model.backgroundColor = newValue.map { RGBAColor($0) }
            changed()
        }
    }

    /// The radius of the rounded corners of the background and border. Animatable.
    open var cornerRadius: CGFloat {
        get { model.cornerRadius }
        set { model.cornerRadius = newValue; changed() }
    }

    /// Which corners `cornerRadius` rounds; all four by default.
    open var maskedCorners: CACornerMask {
        get { model.maskedCorners }
        set { model.maskedCorners = newValue; changed() }
    }

    /// The width of the border drawn inside the bounds, above the sublayers. Animatable.
    open var borderWidth: CGFloat {
        get { model.borderWidth }
        set { model.borderWidth = newValue; changed() }
    }

    /// The border's colour; opaque black by default. Animatable.
    open var borderColor: CGColor? {
        get { storedBorderColor }
        set {
            storedBorderColor = newValue
            model.borderColor = newValue.map { RGBAColor($0) }
            changed()
        }
    }

    /// Whether sublayers are clipped to the bounds (rounded by `cornerRadius`). Animatable.
    open var masksToBounds: Bool {
        get { model.masksToBounds }
        set { model.masksToBounds = newValue; changed() }
    }

    /// The layer's name, shown by `laminactl tree`.
    open var name: String? {
        get { model.name }
        set { model.name = newValue; changed() }
    }

    // MARK: Hierarchy

    /// The layer whose `sublayers` contains this one.
    open var superlayer: CALayer? { storedSuperlayer }

    /// The sublayers, back to front (before `zPosition` ordering). Setting replaces them all.
    open var sublayers: [CALayer]? {
        get { storedSublayers.isEmpty ? nil : storedSublayers }
        set {
            let incoming = newValue ?? []
            // Refuse the whole assignment, changing nothing, if any layer would enter its own subtree.
            if let bad = incoming.first(where: { isInSubtree(of: $0) }) {
                print("Lamina: refusing to add layer \(bad.layerID) to its own subtree (layer \(layerID))")
                return
            }
            for layer in storedSublayers { layer.storedSuperlayer = nil }
            storedSublayers = []
            for layer in incoming { insertSublayer(layer, at: UInt32(storedSublayers.count)) }
            changed()
        }
    }

    /// Appends `layer` to the sublayers, removing it from its current superlayer first.
    open func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(storedSublayers.count))
    }

    /// Inserts `layer` at index `idx` of the sublayers (clamped to the end).
    ///
    /// Adding a layer to its own subtree (itself or one of its ancestors) is refused: the call logs the
    /// mistake and changes nothing, where Apple platforms raise an exception.
    open func insertSublayer(_ layer: CALayer, at idx: UInt32) {
        guard !isInSubtree(of: layer) else {
            print("Lamina: refusing to add layer \(layer.layerID) to its own subtree (layer \(layerID))")
            return
        }
        if layer.storedSuperlayer === self, let old = storedSublayers.firstIndex(of: layer) {
            storedSublayers.remove(at: old)
        } else {
            layer.removeFromSuperlayer()
        }
        let index = min(Int(idx), storedSublayers.count)
        storedSublayers.insert(layer, at: index)
        layer.storedSuperlayer = self
        changed()
    }

    /// Inserts `layer` just above `sibling` (or at the top when `sibling` is not a sublayer).
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        let index = sibling.flatMap { storedSublayers.firstIndex(of: $0) }.map { $0 + 1 } ?? storedSublayers.count
        insertAdjusting(layer, index)
    }

    /// Inserts `layer` just below `sibling` (or at the bottom when `sibling` is not a sublayer).
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        let index = sibling.flatMap { storedSublayers.firstIndex(of: $0) } ?? 0
        insertAdjusting(layer, index)
    }

    private func insertAdjusting(_ layer: CALayer, _ index: Int) {
        var target = index
        if layer.storedSuperlayer === self, let old = storedSublayers.firstIndex(of: layer), old < index { target -= 1 }
        insertSublayer(layer, at: UInt32(max(target, 0)))
    }

    /// Detaches the layer from its superlayer.
    open func removeFromSuperlayer() {
        guard let parent = storedSuperlayer else { return }
        parent.storedSublayers.removeAll { $0 === self }
        storedSuperlayer = nil
        parent.changed()
        changed()
    }

    /// Replaces the sublayer `oldLayer` with `newLayer`, which leaves its own superlayer first.
    open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard oldLayer !== newLayer, let index = storedSublayers.firstIndex(of: oldLayer) else { return }
        guard !isInSubtree(of: newLayer) else {
            print("Lamina: refusing to add layer \(newLayer.layerID) to its own subtree (layer \(layerID))")
            return
        }
        oldLayer.removeFromSuperlayer()
        insertSublayer(newLayer, at: UInt32(index))
    }

    /// True when `self` is `layer` or one of its descendants.
    func isInSubtree(of layer: CALayer) -> Bool {
        var current: CALayer? = self
        while let c = current {
            if c === layer { return true }
            current = c.storedSuperlayer
        }
        return false
    }

    /// The sublayers without the optional (for the commit walk).
    var sublayerList: [CALayer] { storedSublayers }
}

extension RGBAColor {
    /// The colour of a `CGColor` (gray colours expanded).
    init(_ color: CGColor) {
        let c = color.rgba
        self.init(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    }
}
