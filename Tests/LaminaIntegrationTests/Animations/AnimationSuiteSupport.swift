import Foundation
import Lamina
import LaminaTesting
import Testing

/// What the animation suites share: the colours of their scenes, the standard scene of a red box
/// on white, pixel reads, waiting for main-thread callbacks, and the end-of-test check that
/// laminad exits cleanly with no validation messages.
/// An 8-bit colour read back from a capture.
typealias RGB = (r: Int, g: Int, b: Int)

protocol AnimationSuite {
    var server: TestServer { get }
    /// The size of the suite's display: the root that `makeScene(_:_:)` builds covers it.
    static var displaySize: CGSize { get }
}

extension AnimationSuite {
    static var white: CGColor { CGColor(red: 1, green: 1, blue: 1, alpha: 1) }
    static var red: CGColor { CGColor(red: 1, green: 0, blue: 0, alpha: 1) }
    static var blue: CGColor { CGColor(red: 0, green: 0, blue: 1, alpha: 1) }
    static var displaySize: CGSize { CGSize(width: 200, height: 100) }

    /// A white 200×100 root with a red 40×40 box at (20, 30) (centre (40, 50)), committed.
    func makeScene(_ context: CAContext) throws -> (root: CALayer, box: CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = Self.white
        let box = CALayer()
        box.frame = CGRect(x: 20, y: 30, width: 40, height: 40)
        box.backgroundColor = Self.red
        root.addSublayer(box)
        context.layer = root
        try context.synchronize()
        return (root, box)
    }

    /// A white root as large as the display holding `layers`, committed.
    @discardableResult
    func makeScene(_ context: CAContext, _ layers: [CALayer]) throws -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.displaySize)
        root.backgroundColor = Self.white
        for layer in layers { root.addSublayer(layer) }
        context.layer = root
        try context.synchronize()
        return root
    }

    /// A `position.x` animation from `from` to `to` starting at `begin` (for the standard scene
    /// the box's centre moves; its left edge is 20 less).
    static func move(from: Double = 100, to: Double = 150, begin: Double, duration: Double = 1) -> CABasicAnimation {
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = from
        move.toValue = to
        move.duration = duration
        move.beginTime = begin
        return move
    }

    func rgb(_ image: CGImage, _ x: Int, _ y: Int) -> RGB {
        let p = image.pixel(x: x, y: y)
        return (Int(p.red), Int(p.green), Int(p.blue))
    }

    func red(_ image: CGImage, _ x: Int, _ y: Int) -> Int { Int(image.pixel(x: x, y: y).red) }
    func green(_ image: CGImage, _ x: Int, _ y: Int) -> Int { Int(image.pixel(x: x, y: y).green) }
    func blue(_ image: CGImage, _ x: Int, _ y: Int) -> Int { Int(image.pixel(x: x, y: y).blue) }

    /// The first column of `row` that is more red than white (the box's left edge, rounded).
    func leftEdge(_ image: CGImage, row: Int = 50, threshold: Int = 128) -> Int? {
        (0..<image.width).first { green(image, $0, row) < threshold }
    }

    /// The last column of `row` that is more red than white.
    func rightEdge(_ image: CGImage, row: Int = 50, threshold: Int = 128) -> Int? {
        (0..<image.width).last { green(image, $0, row) < threshold }
    }

    /// Runs pending main-thread callbacks until `done` holds or 5 s pass (events need the
    /// server's clock to run, so this is the one place the suites wait).
    func waitFor(_ done: () -> Bool) {
        let deadline = CACurrentMediaTime() + 5
        while !done() && CACurrentMediaTime() < deadline {
            CAContext.dispatchPendingCallbacks()
            usleep(2000)
        }
    }

    /// Stops laminad and expects a clean exit with no validation messages.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        let report = server.stop()
        #expect(
            report.validationMessages.isEmpty, "validation: \(report.validationMessages)",
            sourceLocation: sourceLocation)
        #expect(
            report.exitStatus == 0, "laminad exit status \(report.exitStatus)\n\(report.log)",
            sourceLocation: sourceLocation)
    }
}
