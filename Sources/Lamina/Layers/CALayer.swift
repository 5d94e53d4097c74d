import Foundation

/// An object that manages image-based content and its geometry, appearance and place in a layer tree.
///
/// Setting a property changes the model value at once and records the layer in the current
/// `CATransaction`; the render server sees the change when that transaction commits. Layers are meant
/// to be used from one thread at a time (normally the main thread), as on Apple platforms.
open class CALayer: NSObject, NSSecureCoding {
    /// The layer's id on the wire, unique in this process.
    let layerID: LayerID
    /// The storage of `modelState`, written directly only by the setter (CALayer+ChangeMarks.swift).
    var modelStorage = LayerState()
    /// The properties changed since a commit last diffed the layer.
    var changeMarks = LayerChangeMarks()
    /// Bumped on every change, so a commit sends only changed layers (unless another thread's holds it).
    var version: UInt64 = 0
    var transactionHold: TransactionHold?
    var storedSublayers: [CALayer] = []
    weak var storedSuperlayer: CALayer?
    var storedBackgroundColor: CGColor?
    var storedBorderColor: CGColor? = CGColor(gray: 0, alpha: 1)
    var storedShadowColor: CGColor? = CGColor(gray: 0, alpha: 1)
    /// The object given to `contents`, as given (a `CGImage` is also named by `modelState.contents`).
    var storedContents: Any?
    /// Attached animations, in the order they were added.
    var attachedAnimations: [LayerAnimation] = []
    /// True once a commit has sent the layer to a render server (presentation() is nil before).
    var hasBeenCommitted = false {
        didSet {
            guard committedVersion != version else { return }
            committedVersion = version
            committedModelState = modelState
        }
    }
    /// The model values the last commit sent (and their version): what a basic animation with no
    /// values starts from.
    var committedModelState = LayerState()
    var committedVersion: UInt64 = .max
    /// Values stored with `setValue(_:forKey:)` under keys that are not properties.
    var kvcStorage: [String: Any] = [:]
    /// For a presentation layer: the model layer it shows, the media time it was computed for.
    var presentationSource: CALayer?, presentationTime: Double = 0
    var cachedPresentationSublayers: [CALayer]?
    /// Set while an action runs for a property change: the key and the value before the change,
    /// which an implicit basic animation starts from.
    var pendingActionOldValue: (key: String, value: AnimationValue)?
    /// `CAMediaTiming` values the render server does not need (it uses beginTime, timeOffset, speed).
    var storedTiming = LayerLocalTiming()
    /// Whether the layer waits for `display()`, what part of it, and the image its own drawing
    /// made last (CALayer+Display.swift).
    var displayState = LayerDisplayState()
    /// Layout marks and what the last layout saw (CALayer+Layout.swift).
    var layoutState = LayerLayoutState()
    var storedLayoutManager: (any CALayoutManager)?
    var storedConstraints: [CAConstraint]?
    /// Which keys were given a value (what is archived) and who observes them (CALayer+KeyRecord.swift).
    var keyRecord = LayerKeyRecord()

    /// Creates a layer with Core Animation's default property values, or the values the class's
    /// `defaultValue(forKey:)` gives. Subclasses override it as on Apple platforms (`override init()`).
    public override init() {
        layerID = LayerIDAllocator.next()
        super.init()
        applyClassDefaults()
    }

    /// Creates a shadow copy of `layer`: its model values, colours, timing and values stored under
    /// custom keys (not its sublayers, animations or delegate).
    ///
    /// Core Animation calls it on the layer's own class to make presentation layers, so a subclass
    /// overrides it (`override init(layer: Any)`, calling `super.init(layer:)`) to copy its own stored
    /// properties. A subclass that declares designated initialisers must override it (Apple code that
    /// does not compiles there but stops at the first presentation copy).
    public init(layer: Any) {
        layerID = LayerIDAllocator.next()
        super.init()
        if let other = layer as? CALayer { copyModel(from: other) }
    }

    /// Creates a layer from an archive written by `encode(with:)`: every archived property, the
    /// sublayers and the animations; what was not archived keeps the class's default. Nil when the
    /// archive is damaged.
    public required init?(coder: NSCoder) {
        layerID = LayerIDAllocator.next()
        super.init()
        applyClassDefaults()
        guard decodeLayer(from: coder) else { return nil }
    }

    /// Runs `init(layer:)` on the dynamic class of `self` (Lamina's way to make presentation copies,
    /// which Apple's runtime does without it).
    ///
    /// Not for use: a subclass has it when it overrides all of `init()`, `init(layer:)` and
    /// `init?(coder:)`, or none of them. A compiler error naming it means the subclass must
    /// override `init(layer:)`.
    public required convenience init(_presentationCopyOf layer: CALayer) {
        self.init(layer: layer)
    }

    // MARK: Overridable entry points (declared here, as Swift cannot override extension members)

    /// Attaches a copy of `anim`, replacing an animation under the same key; a nil key is allowed.
    ///
    /// The animation starts at the commit of the current transaction (or at its `beginTime`, when
    /// set; 0 means the commit). A value of the wrong type for the key path, or a key path Lamina
    /// cannot animate, is reported to `LaminaDiagnostics` and the animation is not added (Apple raises
    /// an exception).
    open func add(_ anim: CAAnimation, forKey key: String?) { attachAnimation(anim, forKey: key) }

    /// The animation attached under `key` (the attached copy), or nil.
    open func animation(forKey key: String) -> CAAnimation? { attachedAnimation(forKey: key) }

    /// The keys of the attached animations in the order they were added, or nil when there are none.
    /// Animations added with a nil key have no key and are not listed.
    open func animationKeys() -> [String]? { attachedAnimationKeys() }

    /// Removes the animation under `key`; the layer shows its model value from the next commit,
    /// and the animation's delegate hears `animationDidStop(_:finished: false)`.
    open func removeAnimation(forKey key: String) { detachAnimation(forKey: key) }

    /// Removes every attached animation.
    open func removeAllAnimations() { detachAllAnimations() }

    /// A copy of the layer showing what is on screen now: the model values of the last commit (not
    /// changes of the transaction still open) with the committed animations applied at
    /// `CACurrentMediaTime()`, computed by the same LaminaCore code as the render server's frames.
    /// Nil before the layer's first commit. Its `sublayers` and
    /// `superlayer` are presentation layers for the same time; `hitTest(_:)` on it hits where
    /// layers are drawn now.
    open func presentation() -> Self? {
        presentation(at: CACurrentMediaTime()).map { unsafeDowncast($0, to: Self.self) }
    }

    /// The model layer of a presentation layer; the layer itself otherwise.
    open func model() -> Self {
        guard let source = presentationSource else { return self }
        return unsafeDowncast(source, to: Self.self)
    }

    /// The action for `event`, searched in Core Animation's order: the delegate's
    /// `action(for:forKey:)`, the `actions` dictionary, the `style` dictionary's `actions`
    /// (following nested `style` dictionaries), the class's `defaultAction(forKey:)`, then the
    /// built-in implicit animation of an animatable property (a basic animation with the
    /// transaction's duration and timing function). `NSNull` anywhere stops the search: no action.
    open func action(forKey event: String) -> (any CAAction)? { searchAction(forKey: event) }

    /// Whether `p`, in the layer's own coordinates, lies inside `bounds` (half-open: min edges in,
    /// max edges out).
    open func contains(_ p: CGPoint) -> Bool { containsPoint(p) }

    /// The farthest descendant (or the layer itself) under `p`, given in the superlayer's
    /// coordinates; hidden and transparent layers are skipped and `masksToBounds` cuts sublayers
    /// off. On a presentation layer it hits where layers are drawn now.
    open func hitTest(_ p: CGPoint) -> CALayer? { hitTestPoint(p) }

    // MARK: Layout (implementations in CALayer+Layout.swift)

    /// Lays out the sublayers. Subclasses override it to set their sublayers' frames themselves; an
    /// override that does not call super gets no autoresizing and no layout manager.
    /// The default is `layoutSublayersByDefault()`: autoresizing, then the delegate or layout manager.
    /// Core Animation calls it during the commit of a transaction, or from `layoutIfNeeded()`, when
    /// the layer is marked for layout; it is rarely called directly.
    open func layoutSublayers() { layoutSublayersByDefault() }

    /// Marks the layer for layout at the next commit (or `layoutIfNeeded()`), and tells the layout
    /// manager (`invalidateLayout(of:)`). A change of the bounds size, sublayers joining or leaving and
    /// a new layout manager mark the layer themselves.
    open func setNeedsLayout() { markNeedsLayout() }

    /// Lays out now what is marked: from the topmost ancestor that is marked (with no marked
    /// superlayer above it), every marked layer of that subtree, each before its sublayers.
    open func layoutIfNeeded() { layoutFromTopmostMarkedAncestor() }

    /// Whether the layer is marked for layout.
    open func needsLayout() -> Bool { layoutState.needsLayout }

    /// The layer's preferred size in its superlayer's coordinate space: the layout manager's
    /// `preferredSize(of:)` (the bounds size for a manager that does not implement it) or the bounds
    /// size, mapped through the plane part of `transform`.
    open func preferredFrameSize() -> CGSize { preferredFrameSizeByDefault() }

    /// The object that lays out the sublayers when the delegate does not; nil by default. Held
    /// strongly, as on Apple platforms. Setting it marks the layer for layout.
    open var layoutManager: (any CALayoutManager)? {
        get { storedLayoutManager }
        set { setLayoutManager(newValue) }
    }

    /// How the layer follows changes of its superlayer's size, applied as soon as the superlayer's
    /// `bounds` or `frame` changes size; empty (`kCALayerNotSizable`) by default. See `CAAutoresizingMask`.
    open var autoresizingMask: CAAutoresizingMask {
        get { layoutState.autoresizingMask }
        set { setAutoresizingMask(newValue) }
    }

    /// Applies `autoresizingMask` for the superlayer's size having been `size`, by Apple's rule:
    /// the size takes a third of the change when a margin is flexible too, the margins share the rest.
    open func resize(withOldSuperlayerSize size: CGSize) { autoresize(withOldSuperlayerSize: size) }

    /// Calls `resize(withOldSuperlayerSize:)` on every sublayer; `size` is this layer's previous size.
    open func resizeSublayers(withOldSize size: CGSize) {
        for sublayer in storedSublayers { sublayer.resize(withOldSuperlayerSize: size) }
    }

    /// The constraints a `CAConstraintLayoutManager` on the superlayer applies to this layer; nil by
    /// default. Setting them marks the superlayer for layout.
    open var constraints: [CAConstraint]? {
        get { storedConstraints }
        set { setConstraints(newValue) }
    }

    /// Appends `c` to `constraints` and marks the superlayer for layout.
    open func addConstraint(_ c: CAConstraint) { setConstraints((storedConstraints ?? []) + [c]) }

    /// The action a layer class provides for `event`; nil here. Subclasses override it.
    open class func defaultAction(forKey event: String) -> (any CAAction)? { nil }

    /// The value a key has when it was never set: Core Animation's default for every built-in key
    /// (`anchorPoint` (0.5, 0.5), `opacity` 1, `speed` 1, `duration` infinite, ...), boxed as
    /// key-value coding returns it; nil for other keys. Subclasses override it; a value returned for
    /// a layer property becomes that property's initial value.
    open class func defaultValue(forKey key: String) -> Any? { builtInDefaultValue(forKey: key) }

    /// Whether the class decodes safely from a secure archive: true for layers.
    open class var supportsSecureCoding: Bool { true }

    /// Archives every model property, the timing, the autoresizing mask and constraints, values stored
    /// under custom keys, the sublayers and the animations by key, leaving out each key for which
    /// `shouldArchiveValue(forKey:)` is false. The delegate, the layout manager, `actions` and `style`
    /// are not archived.
    open func encode(with coder: NSCoder) { encodeLayer(to: coder) }

    /// Whether `encode(with:)` archives the value for `key`: true once the key was given a value, as
    /// on Apple platforms (`archivesValue(forKey:)` has the rules). A subclass may leave a key out.
    open func shouldArchiveValue(forKey key: String) -> Bool { archivesValue(forKey: key) }

    /// The value of a property key, or of any key stored with `setValue(_:forKey:)`. Numbers come
    /// back as the property's Swift type (`Float` for opacity, `CGFloat` otherwise).
    open func value(forKey key: String) -> Any? { kvcValue(forKey: key) }

    /// Sets a property by key (through its setter, so actions run), or stores any value under any
    /// other key (custom properties; their actions are looked up too).
    open func setValue(_ value: Any?, forKey key: String) { kvcSetValue(value, forKey: key) }

    /// The value at a key path: a property, a structure field (`position.x`, `bounds.size.width`)
    /// or a virtual transform component (`transform.rotation.z`, `transform.scale`, ...).
    open func value(forKeyPath keyPath: String) -> Any? { valueThroughSublayers(forKeyPath: keyPath) }

    /// Sets the value at a key path through the property's setter. A value of the wrong type is
    /// reported to `LaminaDiagnostics` and changes nothing (Apple raises an exception).
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        setValueThroughSublayers(value, forKeyPath: keyPath)
    }

    // MARK: Display (the work is in CALayer+Display.swift)

    /// Reloads the layer's contents; Core Animation calls it when the layer needs display, at the
    /// next commit (`displayIfNeeded()`), and subclasses override it to set `contents` themselves.
    /// The default asks the delegate's `display(_:)`, else draws a backing store (`displayContents()`).
    open func display() { displayContents() }

    /// Draws the layer's contents into `ctx`; the default `display()` calls it with a context over
    /// a new backing store whose user space is the layer's bounds in points, origin at the top left,
    /// y down (clipped to the dirty part for `setNeedsDisplay(_:)`). The default calls the delegate's
    /// `draw(_:in:)`; subclasses override it to draw.
    open func draw(in ctx: CGContext) { drawWithDelegate(in: ctx) }

    /// Draws the layer and its sublayers into `ctx` at their model values, in the layer's coordinate
    /// space (its bounds in `ctx`'s user space), in this process with Core Graphics: any layer, in a
    /// context's tree or not, with no server needed. How: `LayerTreeRenderer`.
    open func render(in ctx: CGContext) { LayerTreeRenderer.render(self, in: ctx) }

    /// Marks the whole layer as needing display: `display()` runs at the next commit of the context
    /// showing it (or at `displayIfNeeded()`). The cached contents stay on screen until then.
    open func setNeedsDisplay() { markNeedsDisplay(in: nil) }

    /// Marks the part `r` of the layer (in its own coordinates) as needing display. The next
    /// `display()` keeps the rest of the backing store and redraws only `r` (the drawing is clipped
    /// to it). An empty rectangle marks nothing.
    open func setNeedsDisplay(_ r: CGRect) { markNeedsDisplay(in: r) }

    /// Calls `display()` now if the layer needs display; the mark is cleared first.
    open func displayIfNeeded() { displayNowIfNeeded() }

    /// Whether the layer has been marked for display and not displayed since.
    open func needsDisplay() -> Bool { displayState.needsDisplay }

    /// Whether a change of `key` marks the layer as needing display; false here. A subclass returns
    /// true for the keys its drawing depends on, built-in ones or its own (custom properties stored
    /// with `setValue(_:forKey:)`). While an animation of such a key runs, the layer's presentation
    /// copy is redrawn at every frame.
    open class func needsDisplay(forKey key: String) -> Bool { false }

    /// Whether a change of `bounds` marks the layer as needing display; false by default, so the
    /// cached contents are stretched to new bounds (spec §10.1).
    open var needsDisplayOnBoundsChange = false

    /// Whether drawing may happen on a background thread; false by default. Lamina accepts it and
    /// always draws on the thread that commits (normally the main thread).
    open var drawsAsynchronously = false

    /// The layer's delegate, asked first for actions. Held weakly, as on Apple platforms.
    open weak var delegate: (any CALayerDelegate)?
    /// Actions by key, searched after the delegate.
    open var actions: [String: any CAAction]?
    /// Fallback values; its `actions` dictionary is searched for actions (nested `style` entries too).
    open var style: [AnyHashable: Any]?

    // MARK: Geometry

    /// The layer's own coordinate space and size. Animatable.
    open var bounds: CGRect {
        get { modelState.bounds }
        set { update(.bounds, \.bounds, newValue) }
    }

    /// Where the anchor point lies in the superlayer's coordinate space. Animatable.
    open var position: CGPoint {
        get { modelState.position }
        set { update(.position, \.position, newValue) }
    }

    /// The pivot of transforms and the reference point of `position`, in unit coordinates. Animatable.
    open var anchorPoint: CGPoint {
        get { modelState.anchorPoint }
        set { update(.anchorPoint, \.anchorPoint, newValue) }
    }

    /// The anchor point's z component. Animatable.
    open var anchorPointZ: CGFloat {
        get { modelState.anchorPointZ }
        set { update(.anchorPointZ, \.anchorPointZ, newValue) }
    }

    /// The layer's position on the z axis: the first key of sibling order. Animatable.
    open var zPosition: CGFloat {
        get { modelState.zPosition }
        set { update(.zPosition, \.zPosition, newValue) }
    }

    /// The transform applied to the layer and its sublayers, about the anchor point. Animatable.
    open var transform: CATransform3D {
        get { modelState.transform }
        set { update(.transform, \.transform, newValue) }
    }

    /// The transform applied to the sublayers only, about this layer's anchor point. Animatable.
    open var sublayerTransform: CATransform3D {
        get { modelState.sublayerTransform }
        set { update(.sublayerTransform, \.sublayerTransform, newValue) }
    }

    /// The layer's rectangle in its superlayer's coordinates, derived from `bounds`, `position`,
    /// `anchorPoint` and `transform`. Setting it sets `position` and `bounds.size`, solved through the
    /// transform (see `setFrameThroughTransform`). Not animatable.
    open var frame: CGRect {
        get { modelState.frame }
        set { setFrameThroughTransform(newValue) }
    }

    /// The layer's transform as an affine transform; the identity when `transform` is not affine (it
    /// has a z or perspective part), as on Apple platforms.
    open func affineTransform() -> CGAffineTransform { modelState.transform.affinePartOrIdentity }

    /// Sets the layer's transform to an affine transform.
    open func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    /// Whether the sublayers' coordinate system is flipped vertically: their `position` and `frame` y
    /// is measured up from the bottom of this layer's bounds (y ↦ `2 × bounds.midY − y`), for drawing,
    /// `convert` and `hitTest`; the flip is inherited by the whole subtree. False by default. Not
    /// animatable.
    open var isGeometryFlipped: Bool {
        get { modelState.isGeometryFlipped }
        set { update(.geometryFlipped, \.isGeometryFlipped, newValue) }
    }

    /// Whether the layer's contents are flipped when drawn: true when an odd number of this layer and
    /// its ancestors have `isGeometryFlipped` set, as on Apple platforms.
    open func contentsAreFlipped() -> Bool { oddNumberOfFlippedAncestors() }

    // MARK: Appearance

    /// The layer's opacity, 0...1, multiplied into its sublayers. Animatable.
    open var opacity: Float {
        get { modelState.opacity }
        set { update(.opacity, \.opacity, newValue) }
    }

    /// Whether the layer and its subtree are hidden. Animatable.
    open var isHidden: Bool {
        get { modelState.isHidden }
        set { update(.hidden, \.isHidden, newValue) }
    }

    /// The colour filled inside the bounds, shaped by `cornerRadius`. Animatable.
    open var backgroundColor: CGColor? {
        get { color(stored: storedBackgroundColor, model: modelState.backgroundColor) }
        set { setBackgroundColor(newValue) }
    }

    /// The radius of the rounded corners of the background and border. Animatable.
    open var cornerRadius: CGFloat {
        get { modelState.cornerRadius }
        set { update(.cornerRadius, \.cornerRadius, newValue) }
    }

    /// Which corners `cornerRadius` rounds; all four by default. Only the four corner bits are kept, as
    /// on Apple platforms (setting raw value 255 reads back 15).
    open var maskedCorners: CACornerMask {
        get { modelState.maskedCorners }
        set { update(.maskedCorners, \.maskedCorners, newValue.intersection(.all)) }
    }

    /// The curve of the rounded corners of the background, border and `masksToBounds` clip: `.circular`
    /// (the default; what an unknown name becomes) or `.continuous`, with smoothly rising curvature.
    open var cornerCurve: CALayerCornerCurve {
        get { modelState.cornerCurve }
        set { update(.cornerCurve, \.cornerCurve, newValue == .continuous ? newValue : .circular) }
    }

    /// How far along each edge a corner of the given curve reaches, as a multiple of `cornerRadius`:
    /// 1 for `.circular`, 1.528665 for `.continuous` (Apple's values).
    open class func cornerCurveExpansionFactor(_ curve: CALayerCornerCurve) -> CGFloat {
        curve.expansionFactor
    }

    /// The width of the border drawn inside the bounds, above the sublayers. Animatable.
    open var borderWidth: CGFloat {
        get { modelState.borderWidth }
        set { update(.borderWidth, \.borderWidth, newValue) }
    }

    /// The border's colour; opaque black by default. Animatable.
    open var borderColor: CGColor? {
        get { color(stored: storedBorderColor, model: modelState.borderColor) }
        set { setBorderColor(newValue) }
    }

    /// Whether sublayers are clipped to the bounds (rounded by `cornerRadius`). Animatable.
    open var masksToBounds: Bool {
        get { modelState.masksToBounds }
        set { update(.masksToBounds, \.masksToBounds, newValue) }
    }

    /// The layer's name, shown by `laminactl tree`.
    open var name: String? {
        get { modelState.name }
        set { update(.name, \.name, newValue) }
    }

    // MARK: Contents and rendering hints

    /// The layer's image: a `CGImage`, drawn in the bounds as `contentsGravity` places it. nil by
    /// default. Any other value is kept and returned but draws nothing, as Apple ignores it.
    /// Animatable: an animation between two images cross-fades them. On a presentation layer, the
    /// image shown at its time (the one fading in while a cross-fade runs).
    open var contents: Any? {
        get { contentsObject }
        set { setContents(newValue) }
    }

    /// The part of the contents drawn, in unit coordinates of the contents; the unit rectangle (all of
    /// them) by default. Animatable.
    open var contentsRect: CGRect {
        get { modelState.contentsRect }
        set { update(.contentsRect, \.contentsRect, newValue) }
    }

    /// The part of the contents, in unit coordinates, that stretches when the contents are scaled
    /// (the rest keeps its size, as a nine-part image); the unit rectangle by default. Animatable.
    open var contentsCenter: CGRect {
        get { modelState.contentsCenter }
        set { update(.contentsCenter, \.contentsCenter, newValue) }
    }

    /// How many pixels of the contents make one point of the layer; 1 by default. Animatable.
    open var contentsScale: CGFloat {
        get { modelState.contentsScale }
        set { update(.contentsScale, \.contentsScale, newValue) }
    }

    /// How the contents are placed in the bounds when their sizes differ; `.resize` (stretched to fill)
    /// by default. A name Apple does not define becomes `.center`, as on Apple platforms.
    open var contentsGravity: CALayerContentsGravity {
        get { modelState.contentsGravity }
        set { update(.contentsGravity, \.contentsGravity, newValue.isKnown ? newValue : .center) }
    }

    /// Whether the edges named by `edgeAntialiasingMask` are anti-aliased; true by default here (on iOS
    /// the default comes from the app's Info.plist and is false).
    open var allowsEdgeAntialiasing: Bool {
        get { modelState.allowsEdgeAntialiasing }
        set { update(.allowsEdgeAntialiasing, \.allowsEdgeAntialiasing, newValue) }
    }

    /// Whether `opacity` applies to the layer and its subtree as one composited group (overlapping
    /// sublayers do not show through each other); true by default.
    /// Stored and sent; the render server does not draw with it yet (issue 11 / group opacity).
    open var allowsGroupOpacity: Bool {
        get { modelState.allowsGroupOpacity }
        set { update(.allowsGroupOpacity, \.allowsGroupOpacity, newValue) }
    }

    /// The edges anti-aliased when `allowsEdgeAntialiasing` is on; all four by default. Only the four
    /// edge bits are kept.
    open var edgeAntialiasingMask: CAEdgeAntialiasingMask {
        get { modelState.edgeAntialiasingMask }
        set { update(.edgeAntialiasingMask, \.edgeAntialiasingMask, newValue.intersection(.all)) }
    }

    /// The filter that samples the contents when they are drawn smaller than their pixel size;
    /// `.linear` by default.
    open var minificationFilter: CALayerContentsFilter {
        get { modelState.minificationFilter }
        set { update(.minificationFilter, \.minificationFilter, newValue) }
    }

    /// The filter that samples the contents when they are drawn larger than their pixel size;
    /// `.linear` by default.
    open var magnificationFilter: CALayerContentsFilter {
        get { modelState.magnificationFilter }
        set { update(.magnificationFilter, \.magnificationFilter, newValue) }
    }

    /// The bias added to the mipmap level chosen when minifying with `.trilinear`; 0 by default.
    /// Animatable.
    open var minificationFilterBias: Float {
        get { modelState.minificationFilterBias }
        set { update(.minificationFilterBias, \.minificationFilterBias, newValue) }
    }

    /// Whether the layer promises that its contents cover its bounds opaquely, so what lies beneath
    /// need not be drawn; false by default.
    open var isOpaque: Bool {
        get { modelState.isOpaque }
        set { update(.opaque, \.isOpaque, newValue) }
    }

    /// Whether the layer is drawn when it faces away from the viewer; true by default. Animatable.
    open var isDoubleSided: Bool {
        get { modelState.isDoubleSided }
        set { update(.doubleSided, \.isDoubleSided, newValue) }
    }

    /// Whether the layer and its subtree are drawn once into an image that is reused while nothing in
    /// them changes; false by default. Animatable.
    open var shouldRasterize: Bool {
        get { modelState.shouldRasterize }
        set { update(.shouldRasterize, \.shouldRasterize, newValue) }
    }

    /// How many pixels per point the image drawn for `shouldRasterize` has; 1 by default. Animatable.
    open var rasterizationScale: CGFloat {
        get { modelState.rasterizationScale }
        set { update(.rasterizationScale, \.rasterizationScale, newValue) }
    }

    // MARK: Hierarchy

    /// The layer whose `sublayers` contains this one.
    open var superlayer: CALayer? {
        if let source = presentationSource { return source.superlayer?.presentation(at: presentationTime) }
        return storedSuperlayer
    }

    /// The sublayers, back to front (before `zPosition` ordering). Setting replaces them all.
    open var sublayers: [CALayer]? {
        get { sublayerList.isEmpty ? nil : sublayerList }
        set { replaceAllSublayers(with: newValue ?? []) }
    }

    /// Appends `layer` to the sublayers, removing it from its current superlayer first.
    open func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(storedSublayers.count))
    }

    /// Inserts `layer` at index `idx` of the sublayers (clamped to the end).
    ///
    /// Adding a layer to its own subtree (itself or one of its ancestors) is refused: the call logs the
    /// mistake and changes nothing, where Apple platforms raise an exception.
    open func insertSublayer(_ layer: CALayer, at idx: UInt32) { insertSublayerNow(layer, at: Int(idx)) }

    /// Inserts `layer` just above `sibling` (or at the top when `sibling` is not a sublayer).
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        let index = sibling.flatMap { storedSublayers.firstIndex(of: $0) }.map { $0 + 1 } ?? storedSublayers.count
        insertAdjusting(layer, index)
    }

    /// Inserts `layer` just below `sibling` (or at the bottom when `sibling` is not a sublayer).
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        insertAdjusting(layer, sibling.flatMap { storedSublayers.firstIndex(of: $0) } ?? 0)
    }

    /// Detaches the layer from its superlayer.
    open func removeFromSuperlayer() { detachFromSuperlayer() }

    /// Replaces the sublayer `oldLayer` with `newLayer`, which leaves its own superlayer first.
    open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) { replace(oldLayer, with: newLayer) }
}
