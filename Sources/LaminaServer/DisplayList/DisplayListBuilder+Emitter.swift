import Foundation
import LaminaCore

/// Emitter layers (`CAEmitterLayer`): the live particles of their cells (`ParticleSystem`) at the
/// layer's local time, drawn after the layer's contents and before its sublayers.
///
/// Each particle is its cell's contents (the part `contentsRect` names, `contentsScale` image pixels a
/// point, times the particle's scale) centred on the particle, turned by its rotation, in the layer's
/// coordinate space (under its transform and the clip it draws in) with z dropped, each texel
/// multiplied by the particle's colour. A cell without contents draws nothing, as on Apple platforms.
/// `renderMode` orders them: `oldestFirst` draws the oldest first (the newest on top), `oldestLast`
/// and `additive` the newest first, `backToFront` by z from far to near, `unordered` cell by cell,
/// oldest first. `additive` adds each particle's premultiplied colour to what is under it (the
/// `additiveImage` and `additiveImageShape` kinds), newest first (addition does not care).
///
/// A build that draws an emitter is not patched later (its particles change every frame).
extension DisplayListBuilder {
    /// The most particles one tree draws in one display list, every emitter layer together; past it,
    /// emitters draw nothing more.
    public static let maxParticlesPerTree = 50_000

    /// Whether the layer is an emitter layer with any cells.
    static func emitsParticles(_ state: LayerState) -> Bool {
        state.layerClass == .emitter && !state.emitter.cells.isEmpty
    }

    /// Draws the particles of emitter layer `presented` at its local time. `depth`, for a layer that
    /// preserves depth, is its matrix to the device without flattening: each particle is then placed at
    /// its z too, which the layer's and its ancestors' 3-D transforms project (a perspective makes
    /// nearer particles larger); otherwise particles lie in the layer's plane (`m`).
    mutating func drawParticles(
        _ presented: Presented, radius: CGFloat, opacity: Double, toDevice m: CATransform3D,
        depth: CATransform3D? = nil, clip parentClip: Clip, images: [UInt64: ContentsImage]
    ) {
        if retention != nil { retention!.isPatchable = false }
        let state = presented.state
        guard let clip = Self.ownClip(parentClip, of: state, radius: radius, toDevice: m) else { return }
        var particles = ParticleSystem.particles(
            of: state.emitter, at: presented.time, timeline: presented.emitterTimeline)
        let room = Self.maxParticlesPerTree - particlesDrawn
        guard room > 0 else { return }
        if particles.count > room { particles = Array(particles.suffix(room)) }
        particlesDrawn += particles.count
        switch state.emitter.renderMode {
        case "oldestFirst": particles.sort { ($0.birth, $0.cell) < ($1.birth, $1.cell) }
        case "oldestLast", "additive": particles.sort { ($0.birth, $0.cell) > ($1.birth, $1.cell) }
        case "backToFront": particles.sort { ($0.position.z, $0.birth) < ($1.position.z, $1.birth) }
        default: break
        }
        let layerOpacity = RGBAColor.onEightBitStep(opacity)
        guard layerOpacity > 0 else { return }
        let cells = EmitterCellState.flattened(state.emitter.cells)
        let additive = state.emitter.renderMode == "additive"
        for particle in particles where particle.cell < cells.count {
            let cell = cells[particle.cell]
            guard cell.contents != 0, let image = images[cell.contents], image.width > 0, image.height > 0,
                particle.color.alpha > 0, particle.scale > 0
            else { continue }
            let rect = cell.contentsRect
            let points = particle.scale / max(cell.contentsScale, 1e-6)
            let width = CGFloat(Double(image.width) * abs(Double(rect.width)) * points)
            let height = CGFloat(Double(image.height) * abs(Double(rect.height)) * points)
            guard width > 0, height > 0, width.isFinite, height.isFinite else { continue }
            let place = CATransform3DConcat(
                CATransform3DMakeRotation(CGFloat(particle.rotation), 0, 0, 1),
                CATransform3DMakeTranslation(
                    CGFloat(particle.position.x), CGFloat(particle.position.y),
                    depth == nil ? 0 : CGFloat(particle.position.z)))
            let toDevice = CATransform3DConcat(place, depth ?? m)
            guard Self.isDrawable(toDevice) else { continue }
            let piece = ContentsPiece(
                rect: CGRect(x: -width / 2, y: -height / 2, width: width, height: height), u0: rect.minX,
                v0: rect.minY, u1: rect.maxX, v1: rect.maxY, outer: SIMD4(repeating: 1))
            let c = particle.color
            let tint = SIMD4(Float(c.red * c.alpha), Float(c.green * c.alpha), Float(c.blue * c.alpha), Float(c.alpha))
            let sampling = Self.contentsSampling(
                state, image: image, drawn: piece.rect, toDevice: toDevice)
            emitContents(
                [piece], sampling: sampling, opacity: layerOpacity, tint: tint, toDevice: toDevice, clip: clip,
                additive: additive, video: image.videoCode)
        }
    }
}
