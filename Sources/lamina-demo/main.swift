import Foundation
import Lamina

// The demo app: builds a small scene of overlapping, rotated, rounded, bordered, translucent and
// clipped layers, commits it, and writes captures to the folder given as the first argument.
//
// `lamina-demo --run-loop` instead shows an app driven by the main run loop: changes made outside
// any explicit transaction are committed by Lamina's run-loop observer at the end of each turn, with
// no flush() call. It prints what the server saw after each turn and exits.
if CommandLine.arguments.dropFirst().first == "--run-loop" {
    runLoopDemo()
}
let outputFolder = CommandLine.arguments.dropFirst().first ?? "demo-output"
try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)

let context: CAContext
do {
    context = try CAContext()
} catch {
    print("lamina-demo: \(error)")
    exit(1)
}

func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
    CGColor(red: r, green: g, blue: b, alpha: a)
}

let root = CALayer()
root.name = "root"
root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
root.backgroundColor = color(0.96, 0.96, 0.94)

let card = CALayer()
card.name = "card"
card.frame = CGRect(x: 80, y: 80, width: 480, height: 320)
card.backgroundColor = color(0.16, 0.42, 0.86)
card.cornerRadius = 32
card.borderWidth = 6
card.borderColor = color(0.08, 0.2, 0.45)
card.masksToBounds = true
root.addSublayer(card)

let stripe = CALayer()
stripe.name = "stripe (clipped by card)"
stripe.frame = CGRect(x: -40, y: 120, width: 560, height: 60)
stripe.backgroundColor = color(1, 0.85, 0.2)
stripe.setAffineTransform(CGAffineTransform(rotationAngle: -.pi / 12))
card.addSublayer(stripe)

let glass = CALayer()
glass.name = "glass"
glass.frame = CGRect(x: 420, y: 260, width: 360, height: 260)
glass.backgroundColor = color(1, 1, 1, 0.5)
glass.cornerRadius = 24
glass.borderWidth = 2
glass.borderColor = color(0.2, 0.2, 0.2, 0.6)
root.addSublayer(glass)

let tilted = CALayer()
tilted.name = "tilted"
tilted.frame = CGRect(x: 860, y: 140, width: 260, height: 260)
tilted.backgroundColor = color(0.9, 0.25, 0.3)
tilted.cornerRadius = 40
tilted.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
root.addSublayer(tilted)

var perspective = CATransform3DIdentity
perspective.m34 = -1 / 600
let stage = CALayer()
stage.name = "stage (perspective)"
stage.frame = CGRect(x: 820, y: 460, width: 360, height: 220)
stage.sublayerTransform = perspective
root.addSublayer(stage)

let panel = CALayer()
panel.name = "panel (rotated about y)"
panel.frame = CGRect(x: 60, y: 20, width: 240, height: 180)
panel.backgroundColor = color(0.3, 0.7, 0.4)
panel.cornerRadius = 16
panel.borderWidth = 4
panel.borderColor = color(0.1, 0.3, 0.15)
panel.transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
stage.addSublayer(panel)

context.layer = root
let first = try context.capture()
try first.writePNG(to: outputFolder + "/scene.png")
print("wrote \(outputFolder)/scene.png")

// Implicit animations: change the model in a 1 s transaction; the server animates on its own clock
// and the captures pass chosen times (no sleeps).
CATransaction.begin()
CATransaction.setAnimationDuration(1)
glass.opacity = 0.4
tilted.transform = CATransform3DMakeRotation(-.pi / 8, 0, 0, 1)
card.cornerRadius = 8
CATransaction.commit()
let implicitStart = glass.animation(forKey: "opacity")?.beginTime ?? CACurrentMediaTime()
for t in [0.0, 0.5, 1.0] {
    let frame = try context.capture(at: implicitStart + t)
    let name = String(format: "implicit-%.2fs.png", t)
    try frame.writePNG(to: outputFolder + "/" + name)
    print("wrote \(outputFolder)/\(name)")
}

// Explicit animations: a full turn through the virtual key path, a bounce along a Bézier path and a
// spring, all starting together at t0.
// They start once the implicit animations above have ended, so every frame is the same on every run.
let t0 = max(CACurrentMediaTime() + 0.1, implicitStart + 1)
let turn = CABasicAnimation(keyPath: "transform.rotation.z")
turn.byValue = 2 * Double.pi
turn.duration = 2
turn.beginTime = t0
tilted.add(turn, forKey: "turn")
let bounce = CAKeyframeAnimation(keyPath: "position")
let path = CGMutablePath()
path.move(to: card.position)
path.addCurve(
    to: CGPoint(x: card.position.x + 120, y: card.position.y),
    control1: CGPoint(x: card.position.x, y: card.position.y - 120),
    control2: CGPoint(x: card.position.x + 120, y: card.position.y - 120))
bounce.path = path
bounce.duration = 2
bounce.beginTime = t0
bounce.autoreverses = true
card.add(bounce, forKey: "bounce")
let spring = CASpringAnimation(keyPath: "transform.scale")
spring.fromValue = 0.5
spring.toValue = 1.0
spring.duration = spring.settlingDuration
spring.beginTime = t0
panel.add(spring, forKey: "spring")
CATransaction.flush()
for t in [0.0, 0.5, 1.0, 1.5] {
    let frame = try context.capture(at: t0 + t)
    let name = String(format: "explicit-%.2fs.png", t)
    try frame.writePNG(to: outputFolder + "/" + name)
    print("wrote \(outputFolder)/\(name)")
}

// A transition: the card's new look (green, a red stripe) pushes the old one out to the left. The
// server draws both from its snapshot of the card before this transaction and the card now.
let t1 = t0 + 5
let push = CATransition()
push.type = .push
push.subtype = .fromRight
push.duration = 1
push.beginTime = t1
push.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
CATransaction.begin()
CATransaction.setDisableActions(true)
card.add(push, forKey: kCATransition)
card.backgroundColor = color(0.2, 0.62, 0.36)
stripe.backgroundColor = color(0.86, 0.2, 0.24)
CATransaction.commit()
for t in [0.25, 0.5] {
    let frame = try context.capture(at: t1 + t)
    let name = String(format: "transition-%.2fs.png", t)
    try frame.writePNG(to: outputFolder + "/" + name)
    print("wrote \(outputFolder)/\(name)")
}
try runContentScene(on: context, outputFolder: outputFolder)
try runShapeScene(on: context, outputFolder: outputFolder)
try runTextScene(on: context, outputFolder: outputFolder)
try runCubeScene(on: context, outputFolder: outputFolder)
try runEffectsScene(on: context, outputFolder: outputFolder)
try runVideoScene(on: context, outputFolder: outputFolder)
try runVulkanScene(on: context, outputFolder: outputFolder)
print(try context.describeTree(), terminator: "")

func runLoopDemo() -> Never {
    let context: CAContext
    do {
        context = try CAContext()
    } catch {
        print("lamina-demo: \(error)")
        exit(1)
    }
    let demo = RunLoopDemo(context: context)
    let timer = Timer(timeInterval: 0.05, repeats: true) { _ in demo.tick() }
    RunLoop.main.add(timer, forMode: .default)
    RunLoop.main.run()
    exit(0)
}

/// The `--run-loop` demo's state, touched only on the main thread (by the timer).
final class RunLoopDemo: @unchecked Sendable {
    let context: CAContext
    let root = CALayer()
    var step = 0

    init(context: CAContext) {
        self.context = context
        root.name = "run-loop root"
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.layer = root  // no flush: the run loop commits at the end of this turn
    }

    func report(_ label: String) {
        let tree = (try? context.describeTree()) ?? ""
        let line = tree.split(separator: "\n").first { $0.contains("run-loop root") } ?? "(root not on the server)"
        print("\(label): \(line.trimmingCharacters(in: .whitespaces))")
    }

    func tick() {
        step += 1
        switch step {
        case 1:
            report("after the first turn")
            root.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            report("during the second turn")
        case 2:
            report("after the second turn")
        default:
            exit(0)
        }
    }
}
