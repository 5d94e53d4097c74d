import Foundation
import Lamina

/// Adds the shape scene's two replicator layers to `root`: an activity spinner (12 bars turned by
/// 30° about its centre, `instanceDelay` 0.1 s, so one opacity animation on the bar runs around the
/// ring) and a badge with its reflection (spec E16: `instanceCount` 2, translate by the height + 2
/// then mirror, `instanceAlphaOffset` −0.6). Returns the spinner's bar, which the scene animates, and
/// the badge's replicator.
func addReplicators(to root: CALayer) -> (bar: CALayer, reflection: CAReplicatorLayer) {
    let spinner = CAReplicatorLayer()
    spinner.name = "spinner"
    spinner.frame = CGRect(x: 1135, y: 340, width: 110, height: 110)
    spinner.instanceCount = 12
    spinner.instanceTransform = CATransform3DMakeRotation(2 * .pi / 12, 0, 0, 1)
    spinner.instanceDelay = 1.2 / 12
    let bar = CALayer()
    bar.name = "spinner bar"
    bar.frame = CGRect(x: 51, y: 6, width: 8, height: 28)
    bar.cornerRadius = 4
    bar.backgroundColor = color(0.25, 0.27, 0.32)
    spinner.addSublayer(bar)
    root.addSublayer(spinner)

    let reflection = CAReplicatorLayer()
    reflection.name = "badge reflection"
    reflection.frame = CGRect(x: 1120, y: 470, width: 140, height: 36)
    reflection.instanceCount = 2
    reflection.instanceTransform = CATransform3DScale(
        CATransform3DMakeTranslation(0, reflection.bounds.height + 2, 0), 1, -1, 0)
    reflection.instanceAlphaOffset = -0.6
    let badge = CAGradientLayer()
    badge.name = "badge"
    badge.frame = reflection.bounds
    badge.colors = [color(1, 0.55, 0.1), color(0.55, 0.1, 0.9)]
    badge.startPoint = CGPoint(x: 0, y: 0)
    badge.endPoint = CGPoint(x: 1, y: 1)
    badge.cornerRadius = 10
    let stripe = CALayer()
    stripe.frame = CGRect(x: 14, y: 8, width: 70, height: 8)
    stripe.cornerRadius = 4
    stripe.backgroundColor = color(1, 1, 1, 0.9)
    badge.addSublayer(stripe)
    reflection.addSublayer(badge)
    root.addSublayer(reflection)
    return (bar, reflection)
}
