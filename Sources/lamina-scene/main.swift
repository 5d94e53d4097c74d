import Foundation
import Lamina

// Commits the known scenes Tools/kms-test compares across outputs, at 1280x800.
//
//   lamina-scene --socket PATH --reference DIR
//       commits the scene and writes its capture to DIR/scene.ppm, then commits the change and writes
//       DIR/change.ppm, and exits (the reference, from an offscreen laminad)
//   lamina-scene --socket PATH --exchange DIR
//       commits the scene and creates DIR/scene-ready; when DIR/step2 appears, commits the change and
//       a running animation and creates DIR/step2-ready; with a second display, when DIR/unplug
//       appears, waits for display 1 to leave the context's display list (its connector unplugged),
//       and when DIR/replug appears, for display 1 to be listed again (the connector plugged in
//       again takes its number back), then creates DIR/replug-ready without committing anything:
//       the second context's tree, still on display 1, shows there again by itself; exits when
//       DIR/finish appears
//
// With a second display (`--output` twice), a second context shows a second scene there, captured
// as DIR/second.ppm.
//
// The scene: flat, rounded, bordered, translucent and rotated layers on an opaque background. The
// change turns the red rectangle yellow. The animation moves a magenta square back and forth in rows
// 620..700, which the comparison of the change masks out (rows 600..720).
var arguments = CommandLine.arguments.dropFirst()
var options: [String: String] = [:]
while let name = arguments.popFirst() {
    guard name.hasPrefix("--"), let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("lamina-scene: bad arguments\n".utf8))
        exit(2)
    }
    options[String(name.dropFirst(2))] = value
}

func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
    CGColor(red: r, green: g, blue: b, alpha: a)
}

func layer(_ name: String, _ frame: CGRect, _ background: CGColor) -> CALayer {
    let layer = CALayer()
    layer.name = name
    layer.frame = frame
    layer.backgroundColor = background
    return layer
}

/// Writes `image` as a binary PPM (RGB, the alpha dropped: the scene is opaque).
func writePPM(_ image: CGImage, to path: String) throws {
    var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
    data.reserveCapacity(data.count + image.width * image.height * 3)
    let rgba = image.premultipliedRGBA
    for index in stride(from: 0, to: rgba.count, by: 4) {
        data.append(contentsOf: rgba[index..<index + 3])
    }
    try data.write(to: URL(fileURLWithPath: path))
}

/// Writes `line` to standard output at once (not buffered): Tools/kms-test reads it while this runs.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func waitForFile(_ path: String) {
    while !FileManager.default.fileExists(atPath: path) { usleep(100_000) }
}

func touch(_ path: String) {
    FileManager.default.createFile(atPath: path, contents: Data())
}

let context: CAContext
do {
    context = try CAContext(socketPath: options["socket"] ?? CAContext.defaultSocketPath(), clientName: "lamina-scene")
} catch {
    say("lamina-scene: \(error)")
    exit(1)
}

let root = layer("root", CGRect(x: 0, y: 0, width: 1280, height: 800), color(0.1, 0.12, 0.16))
let red = layer("red", CGRect(x: 100, y: 100, width: 300, height: 200), color(0.9, 0.2, 0.2))
root.addSublayer(red)
let green = layer("green", CGRect(x: 500, y: 100, width: 300, height: 200), color(0.2, 0.75, 0.35))
green.cornerRadius = 40
root.addSublayer(green)
let blue = layer("blue", CGRect(x: 900, y: 100, width: 280, height: 200), color(0.2, 0.4, 0.9))
blue.borderWidth = 8
blue.borderColor = color(0.95, 0.95, 0.95)
root.addSublayer(blue)
let glass = layer("glass", CGRect(x: 300, y: 250, width: 400, height: 250), color(1, 1, 1, 0.5))
root.addSublayer(glass)
let tilted = layer("tilted", CGRect(x: 1000, y: 380, width: 150, height: 150), color(1, 0.6, 0.1))
tilted.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 6))
root.addSublayer(tilted)

// A second display, when the server has one, shows its own scene from a second context: a frame
// inset by 40 pixels with a white bar, on the display's own size.
/// The second scene, on a display of `size`.
func secondScene(size: CGSize) -> CALayer {
    let backdrop = layer("second root", CGRect(origin: .zero, size: size), color(0.1, 0.45, 0.5))
    let inset = layer(
        "inset", CGRect(x: 40, y: 40, width: size.width - 80, height: size.height - 80), color(0.95, 0.9, 0.8))
    inset.borderWidth = 12
    inset.borderColor = color(0.3, 0.2, 0.1)
    backdrop.addSublayer(inset)
    inset.addSublayer(layer("bar", CGRect(x: 60, y: 60, width: 200, height: 40), color(1, 1, 1)))
    return backdrop
}

var second: CAContext?
var secondRoot: CALayer?
if context.displays.count > 1 {
    let info = context.displays[1]
    second = try CAContext(socketPath: context.socketPath, clientName: "lamina-scene (display 1)", display: 1)
    secondRoot = secondScene(size: CGSize(width: CGFloat(info.width), height: CGFloat(info.height)))
}

CATransaction.begin()
CATransaction.setDisableActions(true)
context.layer = root
second?.layer = secondRoot
CATransaction.commit()
CATransaction.flush()
_ = try context.describeTree()  // a round trip: the scene is applied
_ = try second?.describeTree()
say("scene committed" + (second == nil ? "" : " on displays 0 and 1"))

let reference = options["reference"]
let exchange = options["exchange"]
if let reference {
    try writePPM(try context.capture(), to: reference + "/scene.ppm")
    if let second { try writePPM(try second.capture(display: 1), to: reference + "/second.ppm") }
}
if let exchange {
    touch(exchange + "/scene-ready")
    waitForFile(exchange + "/step2")
}

CATransaction.begin()
CATransaction.setDisableActions(true)
red.backgroundColor = color(0.95, 0.85, 0.15)
let mover = layer("mover", CGRect(x: 100, y: 620, width: 80, height: 80), color(0.9, 0.2, 0.8))
root.addSublayer(mover)
CATransaction.commit()
let slide = CABasicAnimation(keyPath: "position.x")
slide.fromValue = 140
slide.toValue = 1140
slide.duration = 2
slide.autoreverses = true
slide.repeatCount = .infinity
mover.add(slide, forKey: "slide")
CATransaction.flush()
_ = try context.describeTree()
say("change and animation committed")

if let reference { try writePPM(try context.capture(), to: reference + "/change.ppm") }

/// Waits until display `id` is listed in `context.displays` (`listed`) or is not; returns whether
/// it saw that within `seconds`.
func waitForDisplay(_ id: UInt32, listed: Bool, seconds: Double = 60) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while context.displays.contains(where: { $0.id == id }) != listed {
        guard Date() < deadline else { return false }
        usleep(100_000)
    }
    return true
}

if let exchange {
    touch(exchange + "/step2-ready")
    if second != nil {
        // The server announces each change in `displaysChanged`, which the context's display list
        // follows. Nothing is committed from here on: the second context's root stays on display 1.
        waitForFile(exchange + "/unplug")
        guard waitForDisplay(1, listed: false) else {
            say("lamina-scene: display 1 is still listed after its connector was unplugged")
            exit(1)
        }
        say("display 1 left the display list")
        waitForFile(exchange + "/replug")
        guard waitForDisplay(1, listed: true) else {
            say("lamina-scene: display 1 did not come back: \(context.displays.map(\.id))")
            exit(1)
        }
        say("display 1 is back, listed as \(context.displays.map(\.id)); its scene was not committed again")
        touch(exchange + "/replug-ready")
    }
    waitForFile(exchange + "/finish")
}
