import Foundation
import Lamina
import LaminaTesting
import Testing

/// What the TimingExampleTests files share: the swinging-door scene and reading its pixels and values.
extension TimingExampleTests {
    // MARK: Helpers

    /// The swinging-door scene of E59/E61: the root (the container) has m34 = −1/500; the door is
    /// 80×60, hinged on its left edge at the root's centre (100, 50), so it spans x 100…180 flat.
    func makeDoorScene(_ context: CAContext) throws -> (root: CALayer, door: CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = Self.white
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        root.sublayerTransform = perspective
        let door = CALayer()
        door.anchorPoint = CGPoint(x: 0, y: 0.5)
        door.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
        door.position = CGPoint(x: 100, y: 50)
        door.backgroundColor = Self.red
        root.addSublayer(door)
        context.layer = root
        try context.synchronize()
        return (root, door)
    }

    /// The door's projected width on row 50 for a rotation θ about y, derived by hand: a door point
    /// u pt from the hinge goes to (u·cosθ, 0, −u·sinθ) (Apple's row-vector rotation matrix, m13 =
    /// −sinθ), and the container's m34 = −1/500 divides x by w = 1 − z/500 = 1 + u·sinθ/500. For
    /// θ = −π/4: 56.57 / 0.8869 = 63.78 px (wider than the 56.57 of a parallel projection).
    static func doorWidth(_ angle: Double) -> Double {
        80 * cos(angle) / (1 + 80 * sin(angle) / 500)
    }

    /// How many pixels of `row` are more red than white (the door's width, counted by coverage).
    func redWidth(_ image: CGImage, row: Int = 50) -> Int {
        (0..<image.width).filter { green(image, $0, row) < 128 }.count
    }

    func number(_ value: Any?) -> Double? {
        switch value {
        case let v as CGFloat: Double(v)
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        default: nil
        }
    }

    static let defaultCurve = CAMediaTimingFunction(name: .default)
}
