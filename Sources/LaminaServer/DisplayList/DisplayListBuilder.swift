import Foundation
import LaminaCore

/// Turns render trees into a display list: walks each tree back to front, composes transforms,
/// multiplies opacity, applies clips, and emits primitives in paint order (App. A: background,
/// sublayers, border), then groups them into order-preserving batches.
///
/// Axis-aligned layers become flat `FillInstance`s (interiors, straight edges with exact fractional
/// coverage) plus small corner pieces; anything rotated, projected or under a rounded clip becomes
/// whole `ShapeInstance`s. The work is split by concern: this file walks the tree,
/// `DisplayListBuilder+Clipping.swift` decides geometry and clips, `DisplayListBuilder+Emission.swift`
/// turns a layer into instances of the draw kinds (`DrawKind`), and `Batcher` orders them.
public struct DisplayListBuilder {
    var list: DisplayList
    var batcher: Batcher
    /// The trees host layers may show, by context id (`DisplayListBuilder+Hosting.swift`).
    var exported: [UInt32: ExportedTree] = [:]
    /// The contexts being drawn, outermost first: a host layer that names one of them draws nothing
    /// (a cycle is cut there).
    var contextStack: [UInt32] = []
    /// Exported trees drawn inside host layers so far in this list (bounded by `maxHostedDraws`).
    var hostedDraws = 0
    /// Layers the tree being drawn has drawn in replicator copies after the first (bounded by
    /// `maxReplicaVisits`, `DisplayListBuilder+Replicator.swift`).
    var replicaVisits = 0
    /// Particles the tree being drawn has drawn (bounded by `maxParticlesPerTree`,
    /// `DisplayListBuilder+Emitter.swift`).
    var particlesDrawn = 0
    /// The shape rasters of `CAShapeLayer`s (`DisplayListBuilder+Shapes.swift`); nil: shapes are not
    /// drawn (a builder without a renderer, as in plain tests).
    var shapes: ShapeRasterCache?
    /// What a retained build records for later patching (`DisplayListBuilder+Retention.swift`); nil
    /// for a build that is not kept.
    var retention: Retention?
    /// The index of the tree being drawn (`TiledLayerView.tree`).
    var treeIndex = 0
    /// Whether this builder only measures what a layer would draw (`drawingOverlaps`): it draws no
    /// offscreen pass (masks and group opacity are left out; the boxes they would cover are the same).
    var measuring = false
    /// The pixels of the offscreen passes drawn so far (bounded: `passPixelBudget`).
    var passPixels = 0
    /// Whether the layer being drawn moves (it or an ancestor is animated): its fills and corners are
    /// then emitted as the same pieces wherever it is, empty where nothing is drawn
    /// (`DisplayListBuilder+Emission.swift`, `emitStableFill`), so that a retained list overwrites
    /// them in place frame after frame.
    var stablePieces = false
    /// The pixel rows drawn so far for pieces of split 3-D faces (bounded: `maxPieceRows`,
    /// `DisplayListBuilder+Transform.swift`).
    var pieceRows = 0
    /// The sublayers being drawn, with their slots in the tree's table, of every layer on the way
    /// down (`drawSublayers`): storage kept from layer to layer.
    var sublayerSlots: [(id: LayerID, slot: Int32)] = []

    /// Builds the list for a `width`×`height` display from `trees`, drawn in the given order, with
    /// every animation evaluated at media time `time`. `contextIds` holds each tree's context id, and
    /// `exported` the trees host layers may show, by context id. Shape layers draw their paths through
    /// `shapes` (none are drawn without it).
    public static func build(
        trees: [RenderTree], display: UInt32, width: Int, height: Int,
        clearColor: SIMD4<Float> = .zero, time: Double = 0, contextIds: [UInt32] = [],
        exported: [UInt32: ExportedTree] = [:], shapes: ShapeRasterCache? = nil
    ) -> DisplayList {
        var builder = DisplayListBuilder(
            list: DisplayList(width: width, height: height, clearColor: clearColor),
            batcher: Batcher(width: width, height: height), exported: exported, shapes: shapes)
        builder.drawTrees(trees, display: display, time: time, contextIds: contextIds)
        builder.list.batches = builder.batcher.finish()
        return builder.list
    }

    /// Draws the root of `display` of each of `trees`, in order, at media time `time`.
    mutating func drawTrees(_ trees: [RenderTree], display: UInt32, time: Double, contextIds: [UInt32]) {
        for (index, tree) in trees.enumerated() {
            if retention != nil { retention!.tree = index }
            treeIndex = index
            guard let root = tree.roots[display], let layer = tree.layers[root] else { continue }
            contextStack = index < contextIds.count ? [contextIds[index]] : []
            replicaVisits = 0
            particlesDrawn = 0
            var presented = Presented(layer, parentTime: time)
            presented.id = root
            draw(presented, in: Self.rootContext(of: tree, width: list.width, height: list.height))
        }
    }

    /// What a tree's root layer is drawn in: the whole display, nothing inherited.
    static func rootContext(of tree: RenderTree, width: Int, height: Int) -> DrawContext {
        DrawContext(
            layers: tree.layers, snapshots: tree.snapshots, parentSublayerTransform: CATransform3DIdentity,
            parentToDevice: CATransform3DIdentity, opacity: 1,
            clip: Clip(deviceRect: CGRect(x: 0, y: 0, width: width, height: height)),
            contentsImages: tree.contentsImages)
    }

    /// Draws a layer and its subtree in what its superlayer hands down (`DrawContext`), noting the
    /// instances the subtree emitted when the build is retained.
    mutating func draw(_ presented: Presented, in context: DrawContext) {
        guard retention != nil else { return drawLayer(presented, in: context) }
        // A subtree's instances are whole groups (every emitter ends its own; these are no-ops then),
        // so that a retained list can place them again apart from their neighbours.
        batcher.endGroup()
        let start = list.emitted.count
        let visit = retention!.enter(presented.id)
        drawLayer(presented, in: context)
        batcher.endGroup()
        retention!.exit(visit, start: start, end: list.emitted.count)
    }

    /// Draws a layer and its subtree (`draw(_:in:)`).
    mutating func drawLayer(_ presented: Presented, in context: DrawContext) {
        list.layersVisited += 1
        // A probe stops once it has seen enough to answer (`drawingOverlaps`).
        if measuring, list.layersVisited > Self.maxProbedLayers || list.emitted.count > Self.maxOverlapPieces {
            return
        }
        if !presented.transitions.isEmpty {
            return drawTransition(presented, in: context)
        }
        // A transform layer draws nothing itself and does not flatten: its faces are sorted in 3-D.
        if presented.state.layerClass == .transform {
            return drawTransformLayer(presented, in: context)
        }
        if rasterizes(presented) { return drawRasterized(presented, in: context) }
        // Inside a replicator's copy, every colour the layer draws is multiplied by the copy's colour.
        // (A copy of the layer only then: a layer's state is large to copy.)
        if let tint = context.instanceTint {
            var tinted = presented
            tinted.state.multiplyColors(by: tint)
            return drawTinted(tinted, in: context)
        }
        drawTinted(presented, in: context)
    }

    /// Draws a layer whose state holds the colours it draws with (`drawLayer`, after a replicator
    /// copy's tint), and its subtree.
    private mutating func drawTinted(_ presented: Presented, in context: DrawContext) {
        drawTinted(presented, state: presented.state, in: context)
    }

    /// `drawTinted(_:in:)` with the layer's state, `presented.state`, handed in as a parameter: it is
    /// read where `presented` holds it, not copied (a layer's state is large).
    private mutating func drawTinted(_ presented: Presented, state: LayerState, in context: DrawContext) {
        let moving = context.moving || presented.isAnimated
        stablePieces = moving
        let parentClip = context.clip
        let image = context.image
        guard !state.isHidden else { return }
        let opacity = context.opacity * Double(state.opacity) * image.opacity
        guard opacity > 0 else { return }
        let toParent = CATransform3DConcat(state.transformToSuperlayer, context.parentSublayerTransform)
        var toDevice = CATransform3DConcat(Self.flattened(toParent), context.parentToDevice)
        if image.offset != .zero {
            toDevice = CATransform3DConcat(CATransform3DMakeTranslation(image.offset.x, image.offset.y, 0), toDevice)
        }
        guard Self.isDrawable(toDevice) else { return }
        // A single-sided layer turned away from the viewer is not drawn, nor is its subtree (E28).
        guard state.isDoubleSided || Self.facesViewer(toDevice, bounds: state.bounds, flipped: context.flipped)
        else { return }
        if drawsBlended(state) { return drawBlended(presented, opacity: opacity, in: context) }
        if let sigma = filterBlurSigma(state, toDevice: toDevice) {
            return drawFilterBlur(presented, sigma: sigma, opacity: opacity, in: context)
        }
        if needsPass(presented, toDevice: toDevice, in: context) {
            return drawInPass(presented, toDevice: toDevice, opacity: opacity, in: context)
        }
        if state.layerClass == .tiled { noteTiledView(presented, toDevice: toDevice, clip: parentClip) }
        let radius = min(state.cornerRadius, min(state.bounds.width, state.bounds.height) / 2)
        drawShadow(presented, radius: radius, opacity: opacity, toDevice: toDevice, clip: parentClip, in: context)
        drawBackgroundFilters(presented, radius: radius, opacity: opacity, toDevice: toDevice, clip: parentClip)

        // Colours start on 8-bit steps, so that every kind draws them with the same bytes.
        let fill = state.backgroundColor.flatMap {
            $0.alpha > 0 ? $0.premultipliedOnEightBitSteps(opacity: opacity) : nil
        }
        let border = Self.borderColor(state, opacity: opacity)
        let hasContents = Self.showsContents(state, images: context.contentsImages)
        let hasShape = state.layerClass == .shape
        if hasShape, retention != nil { retention!.isPatchable = false }
        let hasGradient = state.layerClass == .gradient
        let hasParticles = Self.emitsParticles(state)
        if presented.sublayers.isEmpty && !hasContents && !hasShape && !hasGradient && !hasParticles
            && presented.host == nil
        {
            // A leaf: nothing is drawn between background and border, so they may share corner pieces,
            // and be faded as one (`GroupFade`) by the opacity that fades groups; the rest (without
            // group opacity, a replicator copy's alpha) fades each of the two apart.
            if !state.bounds.isEmpty, fill != nil || border != nil {
                var fade: GroupFade?
                if fill != nil, border != nil, let background = state.backgroundColor {
                    let inherited = context.opacity * image.opacity
                    let own = Double(state.opacity)
                    let apart = (state.allowsGroupOpacity ? 1 : own) * (context.opacityFadesGroup ? 1 : inherited)
                    let group = (state.allowsGroupOpacity ? own : 1) * (context.opacityFadesGroup ? inherited : 1)
                    fade = GroupFade(
                        fill: background.premultipliedOnEightBitSteps(opacity: apart),
                        border: Self.borderColor(state, opacity: apart) ?? .zero, opacity: group)
                }
                emitShape(
                    bounds: state.bounds, radius: radius, corners: state.maskedCorners,
                    continuous: Self.isContinuous(state),
                    borderWidth: Self.borderWidth(state), fill: fill, border: border, toDevice: toDevice,
                    clip: parentClip, hardEdges: Self.hardEdges(state), fade: fade)
            }
            return
        }
        if let fill, !state.bounds.isEmpty {
            emitShape(
                bounds: state.bounds, radius: radius, corners: state.maskedCorners,
                continuous: Self.isContinuous(state), borderWidth: 0,
                fill: fill, border: nil, toDevice: toDevice, clip: parentClip, hardEdges: Self.hardEdges(state))
        }
        if hasGradient {
            drawGradient(state, radius: radius, opacity: opacity, toDevice: toDevice, clip: parentClip)
        }
        if hasContents {
            drawContents(
                state, radius: radius, opacity: opacity, toDevice: toDevice, clip: parentClip,
                flipped: context.flipped, images: context.contentsImages, instanceTint: context.instanceTint)
        }
        if hasShape {
            drawShape(state, radius: radius, opacity: opacity, toDevice: toDevice, clip: parentClip)
        }
        if hasParticles {
            // With preservesDepth the particles keep their z through the layer's unflattened matrix.
            let depth =
                state.emitter.preservesDepth
                ? CATransform3DConcat(
                    CATransform3DConcat(CATransform3DMakeTranslation(image.offset.x, image.offset.y, 0), toParent),
                    context.parentToDevice) : nil
            drawParticles(
                presented, radius: radius, opacity: opacity, toDevice: toDevice, depth: depth, clip: parentClip,
                images: context.contentsImages)
        }

        if !presented.sublayers.isEmpty || presented.host != nil {
            var clip = parentClip
            if state.masksToBounds {
                guard
                    let narrowed = Self.narrow(
                        parentClip, by: state.bounds, radius: radius, continuous: Self.isContinuous(state),
                        toDevice: toDevice)
                else {
                    return drawBorder(state, radius: radius, opacity: opacity, toDevice: toDevice, clip: parentClip)
                }
                clip = narrowed
            }
            let sublayerTransform = state.transformForSublayers
            let childContext = DrawContext(
                layers: context.layers, snapshots: context.snapshots,
                parentSublayerTransform: sublayerTransform, parentToDevice: toDevice,
                opacity: opacity, clip: clip, contentsImages: context.contentsImages,
                flipped: context.flipped != state.isGeometryFlipped, instanceTint: context.instanceTint,
                opacityFadesGroup: (context.opacityFadesGroup || context.opacity * image.opacity >= 1)
                    && (state.allowsGroupOpacity || state.opacity >= 1), moving: moving)
            if retention != nil { retention!.noteChildContext(presented.id, childContext) }
            if state.layerClass == .replicator {
                drawReplicas(of: presented, in: childContext)
            } else {
                drawSublayers(of: presented, in: context, childContext: childContext)
            }
            if let host = presented.host { drawHosted(host, time: presented.time, in: childContext) }
        }
        stablePieces = moving
        drawBorder(state, radius: radius, opacity: opacity, toDevice: toDevice, clip: parentClip)
    }

    /// Draws a layer with a transition in progress: its latest transition's before-image (the
    /// snapshot taken when the transition was added) and after-image (the live layer, with any
    /// earlier transitions still applied), each moved and faded as the transition says. Either image
    /// may be hidden or empty; the other is still drawn.
    mutating func drawTransition(_ presented: Presented, in context: DrawContext) {
        if retention != nil { retention!.isPatchable = false }
        var after = presented
        let transition = after.transitions.removeLast()
        let images = transition.images(size: presented.state.bounds.size)
        var afterContext = context
        afterContext.image = images.after.within(context.image)
        var before: (layer: Presented, context: DrawContext)?
        if let snapshot = context.snapshots[transition.id], let root = snapshot.layers[snapshot.root] {
            // The snapshot's layers keep running their own animations, in the same parent time.
            var layer = Presented(root, parentTime: presented.parentTime)
            layer.transitions = []
            var beforeContext = context
            beforeContext.layers = snapshot.layers
            beforeContext.snapshots = [:]
            beforeContext.image = images.before.within(context.image)
            before = (layer, beforeContext)
        }
        // A fade dissolves the two images as one (`drawDissolve`); where the passes are spent, or
        // nothing fades, each image is drawn on its own.
        let fades = [images.before.opacity, images.after.opacity].contains { $0 > 0 && $0 < 1 }
        if fades, let before, dissolveFits(parts: 2) {
            func unfaded(_ c: DrawContext, _ image: TransitionImage) -> DrawContext {
                var c = c
                c.opacity = 1
                c.image = TransitionImage(offset: image.within(context.image).offset, opacity: 1)
                return c
            }
            let parts = [
                DissolvePart(weight: images.before.opacity) { [c = unfaded(before.context, images.before)] in
                    $0.draw(before.layer, in: c)
                },
                DissolvePart(weight: images.after.opacity) { [c = unfaded(afterContext, images.after)] in
                    $0.draw(after, in: c)
                },
            ]
            return drawDissolve(
                images.beforeOnTop ? parts.reversed() : parts, opacity: context.opacity * context.image.opacity,
                clip: context.clip.deviceRect)
        }
        if images.beforeOnTop { draw(after, in: afterContext) }
        if let before { draw(before.layer, in: before.context) }
        if !images.beforeOnTop { draw(after, in: afterContext) }
    }

    /// Draws the sublayers of `presented` in `childContext`, in the order `presentedSublayers` gives,
    /// each presented only as it is drawn: no array of presented layers, and each sublayer's render
    /// layer read in place in the tree's table, not copied (a layer's state is large).
    mutating func drawSublayers(of presented: Presented, in context: DrawContext, childContext: DrawContext) {
        // Animations that drive sublayers by name go to the first sublayer of each name in array
        // order; an animation that may move a sublayer in z orders it by its presented zPosition. Both
        // need every sublayer presented first.
        guard presented.drivers.isEmpty else {
            return drawPresentedFirst(presented, in: context, childContext: childContext)
        }
        let layers = context.layers
        // Each sublayer's slot is looked up once, onto a stack the builder keeps (the sublayers' own
        // sublayers go above this range while they are drawn, and are gone again after).
        let base = sublayerSlots.count
        var z: CGFloat?
        var zDiffers = false
        for id in presented.sublayers {
            guard let slot = layers.slot(of: id) else { continue }
            if layers[slot: slot].animationTraits.mayAnimateZPosition {
                sublayerSlots.removeSubrange(base...)
                return drawPresentedFirst(presented, in: context, childContext: childContext)
            }
            let position = layers[slot: slot].state.zPosition
            if let first = z, first != position { zDiffers = true }
            z = position
            sublayerSlots.append((id, slot))
        }
        let end = sublayerSlots.count
        if zDiffers {
            // Stable: zPosition first, array order breaks ties (as `presentedSublayers`).
            var keyed = (base..<end).map { (z: layers[slot: sublayerSlots[$0].slot].state.zPosition, index: $0) }
            keyed.sort { ($0.z, $0.index) < ($1.z, $1.index) }
            let sorted = keyed.map { sublayerSlots[$0.index] }
            sublayerSlots.replaceSubrange(base..<end, with: sorted)
        }
        for k in base..<end {
            let (id, slot) = sublayerSlots[k]
            draw(Presented(id: id, at: layers.address(ofSlot: slot), parentTime: presented.time), in: childContext)
        }
        sublayerSlots.removeSubrange(base...)
    }

    /// Draws the sublayers of `presented` in `childContext` with every one presented before any is
    /// drawn (`presentedSublayers`).
    private mutating func drawPresentedFirst(
        _ presented: Presented, in context: DrawContext, childContext: DrawContext
    ) {
        let (children, order) = Self.presentedSublayers(of: presented, time: presented.time, in: context)
        for index in order { draw(children[index], in: childContext) }
    }

    /// The sublayers of `presented` at their superlayer's local time `time`, with the order they are
    /// drawn in (indices into them): `zPosition` first, array order breaking ties.
    static func presentedSublayers(
        of presented: Presented, time: Double, in context: DrawContext
    ) -> (children: [Presented], order: [Int]) {
        var children: [Presented] = []
        children.reserveCapacity(presented.sublayers.count)
        // Animations that drive named sublayers go down to the first sublayer of each name.
        var named = Set<String>()
        for id in presented.sublayers {
            guard let child = context.layers[id] else { continue }
            var inherited: [InheritedAnimation] = []
            if !presented.drivers.isEmpty, let name = child.state.name, named.insert(name).inserted {
                inherited = presented.drivers.compactMap { $0.handedDown(to: name) }
            }
            var presentedChild = Presented(child, parentTime: time, inherited: inherited)
            presentedChild.id = id
            children.append(presentedChild)
        }
        // Stable sort: zPosition first, array order breaks ties. Only indices move, and only when
        // the zPositions differ.
        var order = Array(children.indices)
        if let z = children.first?.state.zPosition, children.contains(where: { $0.state.zPosition != z }) {
            order.sort { (children[$0].state.zPosition, $0) < (children[$1].state.zPosition, $1) }
        }
        return (children, order)
    }

    /// An animation of an ancestor (or of the layer itself) that drives a layer by sublayer names
    /// (`"sublayers.dot.opacity"`), on its way down the tree.
    struct InheritedAnimation {
        /// The animation, as attached to its layer.
        let animation: AttachedAnimation
        /// The local time of the layer the animation is attached to.
        let time: Double
        /// The sublayer names from that layer to the one this is handed to.
        let path: [String]

        /// This animation as handed to the sublayer named `name`, or nil when it drives nothing there
        /// or below.
        func handedDown(to name: String) -> InheritedAnimation? {
            let next = path + [name]
            guard animation.record.drivesSublayers(startingWith: next) else { return nil }
            return InheritedAnimation(animation: animation, time: time, path: next)
        }
    }

    /// A render-tree layer with its presentation state at one time.
    struct Presented {
        /// The layer's id in its tree (0 where it does not matter: no retained build records it).
        var id: LayerID = 0
        /// The layer's sublayer ids (the render layer itself is not kept: it is large to copy).
        let sublayers: [LayerID]
        /// The presentation values: the model with the layer's animations applied.
        var state: LayerState
        /// The layer's local time: the parent time of its sublayers.
        let time: Double
        /// Transitions in progress on the layer.
        var transitions: [TransitionProgress] = []

        /// The superlayer's local time.
        let parentTime: Double
        /// The animations of this layer and its ancestors that drive its named sublayers.
        var drivers: [InheritedAnimation] = []
        /// The exported tree the layer shows above its sublayers, when it is a host layer.
        var host: HostedContext?
        /// The layer's mask layer (`CALayer.mask`), if any.
        var mask: LayerID?
        /// Whether an offscreen pass is drawing this layer (so it draws its content, not another pass).
        var inPass = false
        /// An emitter layer's values through time, when its own animations change its emitter.
        var emitterTimeline: EmitterTimeline?
        /// Whether animations (its own, or its ancestors' by sublayer name) drive the layer.
        var isAnimated = false

        /// Layer `id` of `layers` at its superlayer's local time `parentTime`, with its animations
        /// applied; nil when the table has no such layer. The render layer is read where the table
        /// holds it.
        init?(id: LayerID, in layers: LayerTable, parentTime: Double) {
            guard let slot = layers.slot(of: id) else { return nil }
            self.init(id: id, slot: slot, in: layers, parentTime: parentTime)
        }

        /// Layer `id`, in slot `slot` of `layers` (`LayerTable.slot(of:)`), at its superlayer's local
        /// time `parentTime`, with its animations applied.
        init(id: LayerID, slot: Int32, in layers: LayerTable, parentTime: Double) {
            self.init(id: id, at: layers.address(ofSlot: slot), parentTime: parentTime)
        }

        /// The layer at its superlayer's local time `parentTime`, with its own animations and then
        /// `inherited`, its ancestors' animations that drive it by name, applied.
        init(_ layer: borrowing RenderLayer, parentTime: Double, inherited: [InheritedAnimation] = []) {
            self = withUnsafePointer(to: layer) { Presented(at: $0, parentTime: parentTime, inherited: inherited) }
        }

        /// `init(_:parentTime:inherited:)` with the layer read at its address, field by field: the
        /// render layer is not copied whole (a sublayer is presented this way straight from its
        /// tree's table, `LayerTable.address(ofSlot:)`), with its id.
        init(
            id: LayerID = 0, at layer: UnsafePointer<RenderLayer>, parentTime: Double,
            inherited: [InheritedAnimation] = []
        ) {
            self.id = id
            sublayers = layer.pointee.sublayers
            host = layer.pointee.host
            mask = layer.pointee.mask
            self.parentTime = parentTime
            time = layer.pointee.state.localTime(fromParent: parentTime)
            isAnimated = !layer.pointee.animations.isEmpty || !inherited.isEmpty
            if layer.pointee.animations.isEmpty {
                state = layer.pointee.state
            } else {
                state = LayerAnimator.presentation(
                    of: layer.pointee.state, animations: layer.pointee.animations,
                    layerTime: time, transitions: &transitions)
                if layer.pointee.state.layerClass == .emitter {
                    emitterTimeline = EmitterTimeline(
                        model: layer.pointee.state, animations: layer.pointee.animations)
                }
                if layer.pointee.animationTraits.drivesSublayers {
                    for animation in layer.pointee.animations
                    where animation.record.drivesSublayers(startingWith: []) {
                        drivers.append(InheritedAnimation(animation: animation, time: time, path: []))
                    }
                }
            }
            guard !inherited.isEmpty else { return }
            var ignored: [TransitionProgress] = []
            for driver in inherited {
                driver.animation.record.apply(
                    to: &state, parentTime: driver.time, id: driver.animation.id, transitions: &ignored,
                    sublayerPath: driver.path)
            }
            drivers += inherited
        }
    }

    mutating func drawBorder(
        _ state: LayerState, radius: CGFloat, opacity: Double, toDevice: CATransform3D,
        clip: Clip
    ) {
        guard let border = Self.borderColor(state, opacity: opacity), !state.bounds.isEmpty else { return }
        emitShape(
            bounds: state.bounds, radius: radius, corners: state.maskedCorners, continuous: Self.isContinuous(state),
            borderWidth: Self.borderWidth(state),
            fill: nil, border: border, toDevice: toDevice, clip: clip, hardEdges: Self.hardEdges(state))
    }

    /// The premultiplied border colour, or nil when no border is drawn.
    static func borderColor(_ state: LayerState, opacity: Double) -> SIMD4<Float>? {
        guard state.borderWidth > 0, let color = state.borderColor, color.alpha > 0 else { return nil }
        return color.premultipliedOnEightBitSteps(opacity: opacity)
    }

    /// Whether the layer's rounded corners follow the continuous curve (`cornerCurve == .continuous`;
    /// other names draw circular corners).
    static func isContinuous(_ state: LayerState) -> Bool {
        state.cornerCurve == .continuous
    }

    /// The border width, limited to half the smaller side as the ring cannot be wider.
    static func borderWidth(_ state: LayerState) -> CGFloat {
        min(state.borderWidth, min(state.bounds.width, state.bounds.height) / 2)
    }

    /// Drops the z output of a child-to-parent matrix (its third column): a standard layer flattens
}
