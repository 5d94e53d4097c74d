import LaminaCore

/// Replicator layers (`CAReplicatorLayer`): one sublayer tree, drawn once per copy.
///
/// Copy *k* (from 0) of a replicator's sublayers is drawn with the replicator's `instanceTransform`
/// applied *k* times about its anchor point, before its `sublayerTransform` (the copies move in the
/// replicator's own coordinate space, as Apple's do: a rotation turns them about the layer's centre);
/// with every colour multiplied by `ReplicatorLayerState.color(ofInstance:)` (its alpha joins the
/// inherited opacity, its red, green and blue the context's `instanceTint`, which `drawLayer` applies
/// to each layer's colours and contents); and with the sublayers' time `k × instanceDelay` earlier,
/// so their animations run behind. A replicator inside a copy multiplies: its own copies start from
/// the copy's transform, colour and time.
///
/// With `preservesDepth` the copies are not drawn in instance order but as a transform layer's faces
/// are (`DisplayListBuilder+Transform.swift`): every copy of every sublayer is a face placed by its
/// full 4×4 matrix in the replicator's space, sorted back to front (crossing ones split) and then
/// flattened into the replicator's plane.
///
/// A build that draws a replicator is not patched later (its sublayers are drawn several times, in
/// contexts a patch does not keep): the retained display list builds such frames in full.
extension DisplayListBuilder {
    /// The most layers one tree may draw in replicas (copies after the first) in one display list:
    /// replicators inside replicators multiply, and a client must not stall every display's frames.
    /// Copies past it draw nothing.
    public static let maxReplicaVisits = 200_000

    /// Draws the sublayers of replicator `presented` once per copy, in `base`, what the replicator
    /// hands its sublayers.
    mutating func drawReplicas(of presented: Presented, in base: DrawContext) {
        if retention != nil { retention!.isPatchable = false }
        let replicator = presented.state.replicator
        let count = replicator.drawnInstanceCount
        guard count > 0, !presented.sublayers.isEmpty else { return }
        let anchor = presented.state.anchorInBounds
        let step = CATransform3DConcat(
            CATransform3DConcat(CATransform3DMakeTranslation(-anchor.x, -anchor.y, 0), replicator.instanceTransform),
            CATransform3DMakeTranslation(anchor.x, anchor.y, 0))
        var instance = CATransform3DIdentity
        var faces: [TransformFace] = []
        for k in 0..<count {
            if k > 0 {
                guard replicaVisits < Self.maxReplicaVisits else { break }
                instance = CATransform3DConcat(instance, step)
            }
            let color = replicator.color(ofInstance: k)
            let alpha = base.opacity * color.alpha
            guard alpha > 0 else { continue }
            var context = base
            context.parentSublayerTransform = CATransform3DConcat(instance, base.parentSublayerTransform)
            context.opacity = alpha
            // The copy's alpha fades each drawing on its own, as a layer's opacity without group opacity.
            if color.alpha < 1 { context.opacityFadesGroup = false }
            if color.red != 1 || color.green != 1 || color.blue != 1 || base.instanceTint != nil {
                context.instanceTint =
                    (base.instanceTint ?? SIMD3(repeating: 1)) * SIMD3(color.red, color.green, color.blue)
            }
            let time = presented.time - Double(k) * replicator.instanceDelay
            let (children, order) = Self.presentedSublayers(of: presented, time: time, in: base)
            let visited = list.layersVisited
            for index in order {
                if replicator.preservesDepth {
                    // A face in the replicator's space, placed by its full 4x4 matrix.
                    let child = children[index]
                    let matrix = CATransform3DConcat(child.state.transformToSuperlayer, context.parentSublayerTransform)
                    list.layersVisited += 1
                    guard matrix.isFinite else { continue }
                    if child.state.layerClass == .transform && child.transitions.isEmpty {
                        // A transform layer's faces join the copies' sort.
                        let opacity = context.opacity * Double(child.state.opacity)
                        guard !child.state.isHidden, opacity > 0 else { continue }
                        collectFaces(of: child, toSpace: matrix, opacity: opacity, in: context, into: &faces)
                    } else {
                        faces.append(TransformFace(presented: child, context: context, matrix: matrix))
                    }
                } else {
                    draw(children[index], in: context)
                }
            }
            if k > 0 { replicaVisits += list.layersVisited - visited }
        }
        if replicator.preservesDepth { drawSorted(faces) }
    }
}

extension LayerState {
    /// Multiplies the red, green and blue of every colour the layer draws (background, border,
    /// shadow, a shape's fill and stroke, a gradient's colours, a text layer's foreground) by `tint`:
    /// the colour of the replicator copy the layer is drawn in.
    mutating func multiplyColors(by tint: SIMD3<Double>) {
        func tinted(_ c: RGBAColor) -> RGBAColor {
            RGBAColor(red: c.red * tint.x, green: c.green * tint.y, blue: c.blue * tint.z, alpha: c.alpha)
        }
        func tinted(_ color: RGBAColor?) -> RGBAColor? { color.map(tinted) }
        backgroundColor = tinted(backgroundColor)
        borderColor = tinted(borderColor)
        shadow.color = tinted(shadow.color)
        switch layerClass {
        case .shape:
            shape.fillColor = tinted(shape.fillColor)
            shape.strokeColor = tinted(shape.strokeColor)
        case .gradient:
            gradient.colors = gradient.colors?.map(tinted)
        case .text:
            text.foregroundColor = tinted(text.foregroundColor ?? RGBAColor.black) as RGBAColor
        case .layer, .replicator, .tiled, .emitter, .transform:
            break
        }
    }
}
