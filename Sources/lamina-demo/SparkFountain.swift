import Foundation
import Lamina

/// Adds the content scene's spark fountain to `root`: a dark panel holding a `CAEmitterLayer` whose one
/// cell throws soft orange sparks up from a short line at its bottom, pulled back down by gravity,
/// shrinking and fading as they age, drawn additively (spec E18). Emission starts at `start` (the
/// layer's `beginTime`); the server simulates the particles from the seed and the time alone.
func addSparkFountain(to root: CALayer, start: CFTimeInterval) -> CAEmitterLayer {
    let panel = CALayer()
    panel.name = "fountain panel"
    panel.frame = CGRect(x: 920, y: 310, width: 300, height: 380)
    panel.backgroundColor = CGColor(red: 0.08, green: 0.08, blue: 0.12, alpha: 1)
    panel.cornerRadius = 16
    panel.masksToBounds = true
    root.addSublayer(panel)

    let fountain = CAEmitterLayer()
    fountain.name = "spark fountain"
    fountain.frame = panel.bounds
    fountain.beginTime = start
    fountain.emitterPosition = CGPoint(x: 150, y: 355)
    fountain.emitterSize = CGSize(width: 30, height: 0)
    fountain.emitterShape = .line
    fountain.renderMode = .additive
    fountain.seed = 2024

    let spark = CAEmitterCell()
    spark.name = "spark"
    spark.contents = softDot(diameter: 16)
    spark.birthRate = 160
    spark.lifetime = 1.8
    spark.lifetimeRange = 0.4
    spark.velocity = 300
    spark.velocityRange = 60
    spark.emissionLongitude = -.pi / 2
    spark.emissionRange = .pi / 5
    spark.yAcceleration = 220
    spark.scale = 0.9
    spark.scaleRange = 0.3
    spark.scaleSpeed = -0.35
    spark.spinRange = 4
    spark.color = CGColor(red: 1, green: 0.62, blue: 0.2, alpha: 0.9)
    spark.redRange = 0.1
    spark.greenRange = 0.2
    spark.greenSpeed = -0.3
    spark.blueSpeed = -0.2
    spark.alphaSpeed = -0.45
    fountain.emitterCells = [spark]
    panel.addSublayer(fountain)
    return fountain
}

/// A white dot `diameter` pixels wide whose alpha falls smoothly from the centre to the edge,
/// premultiplied.
func softDot(diameter: Int) -> CGImage? {
    var pixels: [UInt8] = []
    let radius = Double(diameter) / 2
    for y in 0..<diameter {
        for x in 0..<diameter {
            let d = hypot(Double(x) + 0.5 - radius, Double(y) + 0.5 - radius) / radius
            let alpha = UInt8((max(0, 1 - d * d) * 255).rounded())
            pixels += [alpha, alpha, alpha, alpha]
        }
    }
    return CGImage(width: diameter, height: diameter, premultipliedRGBA: pixels)
}
