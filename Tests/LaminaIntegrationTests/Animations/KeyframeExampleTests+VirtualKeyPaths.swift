import Foundation
import Lamina
import LaminaTesting
import Testing

/// KeyframeExampleTests E41: a full turn with a virtual key path.
extension KeyframeExampleTests {
    // MARK: - E41: a full turn with a virtual key path

    /// E41: `transform.rotation` by 2π over 2 s turns a layer once: π/2 at 0.5 s (m11 = 0,
    /// m12 = 1), π at 1 s, 3π/2 at 1.5 s. The 80×80 blue dial at (120,80) has a red 20×20 corner
    /// at its top left, centred (−30,−30) from the dial's centre (160,120), i.e. at (130,90) at
    /// rest. Turning by θ maps (x,y) to (x cos θ − y sin θ, x sin θ + y cos θ): π/2 puts the
    /// corner at (+30,−30) → (190,90) (clockwise, top right), π at (190,150), 3π/2 at (130,150).
    /// Then the same with `transform` matrices from identity to a 2π rotation: nothing moves.
    @Test func fullTurnVirtualKeyPathE41() throws {
        let context = try server.connect()
        let dial = Self.box(CGRect(x: 120, y: 80, width: 80, height: 80), Self.blue)
        dial.addSublayer(Self.box(CGRect(x: 0, y: 0, width: 20, height: 20), Self.red))
        try makeScene(context, [dial])
        let t0 = CACurrentMediaTime() + 10
        let turn = CABasicAnimation(keyPath: "transform.rotation")
        turn.byValue = 2 * Double.pi
        turn.duration = 2.0
        turn.beginTime = t0
        dial.add(turn, forKey: "spin")
        try context.synchronize()

        // (time, cos, sin, where the red corner is)
        let quarters: [(Double, Double, Double, (Int, Int))] = [
            (0, 1, 0, (130, 90)), (0.5, 0, 1, (190, 90)), (1, -1, 0, (190, 150)), (1.5, 0, -1, (130, 150)),
        ]
        let corners = [(130, 90), (190, 90), (190, 150), (130, 150)]
        for (time, c, s, corner) in quarters {
            let t = try #require(dial.presentation(at: t0 + time)).transform
            #expect(
                abs(Double(t.m11) - c) < 1e-7 && abs(Double(t.m12) - s) < 1e-7,
                "at \(time) s: m11 \(t.m11), m12 \(t.m12), expected \(c), \(s)")
            #expect(abs(Double(t.m21) + s) < 1e-7 && abs(Double(t.m22) - c) < 1e-7)
            let image = try context.capture(at: t0 + time)
            for other in corners {
                expectPixel(image, other.0, other.1, other == corner ? (255, 0, 0) : (0, 0, 255))
            }
            expectPixel(image, 160, 120, (0, 0, 255))
        }
        // 0.25 s: π/4, the corner's centre on the vertical through the dial's centre:
        // (−30·cos45° + 30·sin45°, −30·sin45° − 30·cos45°) = (0, −42.43) → (160, 77.6), which is
        // outside the unturned dial (top edge 80).
        let eighth = try #require(dial.presentation(at: t0 + 0.25)).transform
        #expect(abs(Self.zAngle(eighth) - Double.pi / 4) < 1e-7)
        expectPixel(try context.capture(at: t0 + 0.25), 160, 77, (255, 0, 0))
        // After the turn: the model (unturned).
        #expect(Self.isIdentity(try #require(dial.presentation(at: t0 + 3)).transform))

        // The same turn with whole matrices: identity → rotation(2π) interpolates between two
        // (numerically) identical matrices, so nothing moves.
        let matrices = CABasicAnimation(keyPath: "transform")
        matrices.fromValue = CATransform3DIdentity
        matrices.toValue = CATransform3DMakeRotation(2 * .pi, 0, 0, 1)
        matrices.duration = 2.0
        matrices.beginTime = t0
        dial.add(matrices, forKey: "spin")
        try context.synchronize()
        #expect(dial.animationKeys() == ["spin"])
        for time in [0.5, 1.0, 1.5] {
            let t = try #require(dial.presentation(at: t0 + time)).transform
            #expect(Self.isIdentity(t, tolerance: 1e-6), "at \(time) s: \(t)")
            let image = try context.capture(at: t0 + time)
            expectPixel(image, 130, 90, (255, 0, 0))
            expectPixel(image, 190, 150, (0, 0, 255))
        }
        finish()
    }
}
