import Foundation
import Lamina

/// Adds a progress ring to `root`: a circle inset by `inset` in `frame`, stroked `lineWidth` wide as a
/// grey track under a round-capped arc drawn to `strokeEnd`, turned so the arc starts at 12 o'clock.
/// Returns the arc's layer (whose `strokeEnd` the scenes animate).
func addProgressRing(
    to root: CALayer, frame: CGRect, inset: CGFloat, lineWidth: CGFloat, track trackColor: CGColor,
    arc arcColor: CGColor, strokeEnd: CGFloat, name: String
) -> CAShapeLayer {
    let circle = CGPath(ellipseIn: CGRect(origin: .zero, size: frame.size).insetBy(dx: inset, dy: inset))
    let track = CAShapeLayer()
    track.frame = frame
    track.path = circle
    track.fillColor = nil
    track.strokeColor = trackColor
    track.lineWidth = lineWidth
    root.addSublayer(track)
    let ring = CAShapeLayer()
    ring.name = name
    ring.frame = frame
    ring.path = circle
    ring.fillColor = nil
    ring.strokeColor = arcColor
    ring.lineWidth = lineWidth
    ring.lineCap = .round
    ring.strokeEnd = strokeEnd
    ring.setAffineTransform(CGAffineTransform(rotationAngle: -.pi / 2))
    root.addSublayer(ring)
    return ring
}
