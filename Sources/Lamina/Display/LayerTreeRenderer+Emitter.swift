import Foundation
import LaminaCore

/// `render(in:)` of emitter layers: the particles of the layer's cells at its current local time, from
/// the simulation the render server runs (`ParticleSystem`), so the picture is the one a capture at
/// that time shows, up to the context's rasterising.
///
/// Each particle is its cell's contents (the part `contentsRect` names, `contentsScale` image pixels a
/// point, times its scale) centred on it and turned by its rotation, after the layer's contents and
/// before its sublayers, z dropped; its colour multiplies the image (a transparency layer: the image,
/// then the colour with the multiply blend mode inside the image's alpha), the whole at the
/// particle's alpha. The render modes order them as the server does; `additive` composites each with
/// `plusLighter`. The layer's model values are used, as `render(in:)` uses everywhere; its time is
/// `convertTime(CACurrentMediaTime(), from: nil)` (Apple's `renderInContext:` leaves particles out:
/// docs/apple-differences.md).
extension LayerTreeRenderer {
    /// Draws the particles of `emitter` at its current local time into `ctx` (the layer's space),
    /// each at `alpha` times its own.
    static func drawParticles(of emitter: CAEmitterLayer, in ctx: CGContext, alpha: CGFloat) {
        drawParticles(of: emitter, at: emitter.convertTime(CACurrentMediaTime(), from: nil), in: ctx, alpha: alpha)
    }

    /// Draws the particles of `emitter` at local time `time`.
    static func drawParticles(of emitter: CAEmitterLayer, at time: CFTimeInterval, in ctx: CGContext, alpha: CGFloat) {
        let cells = emitter.emitterCells ?? []
        guard !cells.isEmpty, alpha > 0 else { return }
        var state = emitter.modelState.emitter
        state.cells = cells.map(\.serverState)
        let objects = flattened(cells)
        let flat = EmitterCellState.flattened(state.cells)
        var particles = ParticleSystem.particles(of: state, at: Double(time))
        switch state.renderMode {
        case "oldestFirst": particles.sort { ($0.birth, $0.cell) < ($1.birth, $1.cell) }
        case "oldestLast", "additive": particles.sort { ($0.birth, $0.cell) > ($1.birth, $1.cell) }
        case "backToFront": particles.sort { ($0.position.z, $0.birth) < ($1.position.z, $1.birth) }
        default: break
        }
        let additive = state.renderMode == "additive"
        for particle in particles where particle.cell < flat.count && particle.cell < objects.count {
            guard let image = objects[particle.cell].contents as? CGImage, image.width > 0, image.height > 0,
                particle.color.alpha > 0, particle.scale > 0
            else { continue }
            let cell = flat[particle.cell]
            let rect = cell.contentsRect
            let points = particle.scale / max(cell.contentsScale, 1e-6)
            let width = CGFloat(Double(image.width) * abs(Double(rect.width)) * points)
            let height = CGFloat(Double(image.height) * abs(Double(rect.height)) * points)
            guard width > 0, height > 0, width.isFinite, height.isFinite, rect.width != 0, rect.height != 0 else {
                continue
            }
            let box = CGRect(x: -width / 2, y: -height / 2, width: width, height: height)
            let c = particle.color
            ctx.saveGState()
            ctx.translateBy(x: CGFloat(particle.position.x), y: CGFloat(particle.position.y))
            ctx.rotate(by: CGFloat(particle.rotation))
            ctx.setAlpha(alpha * CGFloat(c.alpha))
            if additive { ctx.setBlendMode(.plusLighter) }
            ctx.beginTransparencyLayer(auxiliaryInfo: nil)
            ctx.clip(to: box)
            // The unit square Core Graphics draws an image in (first row at y = 1), mapped so that
            // texture coordinate (u, v) of the contents rectangle lands in the box.
            let a = box.width / rect.width
            let d = -box.height / rect.height
            let toBox = CGAffineTransform(
                a: a, b: 0, c: 0, d: d, tx: box.minX - rect.minX * a, ty: box.minY - (1 - rect.minY) * d)
            func drawImage() {
                ctx.saveGState()
                ctx.concatenate(toBox)
                ctx.draw(image, in: CGRect(x: 0, y: 0, width: 1, height: 1))
                ctx.restoreGState()
            }
            drawImage()
            if c.red < 1 || c.green < 1 || c.blue < 1 {
                ctx.setBlendMode(.multiply)
                ctx.setFillColor(CGColor(red: c.red, green: c.green, blue: c.blue, alpha: 1))
                ctx.fill(box)
                // Only where the image is: its alpha kept (destination-in of the tinted pixels).
                ctx.setBlendMode(.destinationIn)
                drawImage()
            }
            ctx.endTransparencyLayer()
            ctx.restoreGState()
        }
    }

    /// The cells of the tree `cells`, depth first, as the simulation numbers them.
    private static func flattened(_ cells: [CAEmitterCell]) -> [CAEmitterCell] {
        cells.flatMap { [$0] + flattened($0.emitterCells ?? []) }
    }
}
