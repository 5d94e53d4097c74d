import Foundation
import Lamina

/// The demo's second scene: layer contents. Photo-like cards (images drawn with `CGContext`, shown
/// with `contentsGravity` and rounded clips, one turned in perspective), a nine-part button stretched
/// with `contentsCenter`, a chart that a delegate draws into the layer's backing store, and a spark
/// fountain (an emitter layer). Writes `content.png`, a capture half-way through a contents
/// cross-fade, and the fountain 1.5 s after it started.
func runContentScene(on context: CAContext, outputFolder: String) throws {
    let root = CALayer()
    root.name = "content root"
    root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    root.backgroundColor = CGColor(red: 0.93, green: 0.93, blue: 0.9, alpha: 1)

    let photos = (0..<3).map { makePhoto(variant: $0) }
    var cards: [CALayer] = []
    for (index, photo) in photos.enumerated() {
        let card = CALayer()
        card.name = "photo \(index)"
        card.frame = CGRect(x: 60 + CGFloat(index) * 330, y: 60, width: 300, height: 210)
        card.contents = photo
        card.contentsGravity = .resizeAspectFill
        card.cornerRadius = 18
        card.masksToBounds = true
        card.borderWidth = 4
        card.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        root.addSublayer(card)
        cards.append(card)
    }
    cards[1].transform = CATransform3DMakeRotation(-.pi / 40, 0, 0, 1)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1 / 700
    cards[2].transform = CATransform3DRotate(perspective, .pi / 7, 0, 1, 0)

    // A 48×48 button image whose 16-pixel corners stay sharp however far the middle stretches.
    let button = makeButtonImage()
    for (index, size) in [
        CGSize(width: 48, height: 48), CGSize(width: 260, height: 64), CGSize(width: 380, height: 96),
    ]
    .enumerated() {
        let layer = CALayer()
        layer.name = "nine-part button \(index)"
        layer.frame = CGRect(origin: CGPoint(x: 60 + CGFloat(index) * 80 + (index == 2 ? 300 : 0), y: 340), size: size)
        layer.contents = button
        layer.contentsCenter = CGRect(x: 16.0 / 48, y: 16.0 / 48, width: 16.0 / 48, height: 16.0 / 48)
        root.addSublayer(layer)
    }

    let chartDelegate = ChartDelegate()
    let chart = CALayer()
    chart.name = "chart (drawn by its delegate)"
    chart.frame = CGRect(x: 60, y: 470, width: 700, height: 220)
    chart.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    chart.cornerRadius = 12
    chart.delegate = chartDelegate
    chart.setNeedsDisplay()
    root.addSublayer(chart)
    let fountainStart = CACurrentMediaTime()
    _ = addSparkFountain(to: root, start: fountainStart)

    context.layer = root
    try context.capture().writePNG(to: outputFolder + "/content.png")
    print("wrote \(outputFolder)/content.png")

    // New contents cross-fade (E52): the first card changes to the third photo over one second.
    CATransaction.begin()
    CATransaction.setAnimationDuration(1)
    CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
    cards[0].contents = photos[2]
    CATransaction.commit()
    let start = cards[0].animation(forKey: "contents")?.beginTime ?? CACurrentMediaTime()
    try context.capture(at: start + 0.5).writePNG(to: outputFolder + "/content-fade-0.50s.png")
    print("wrote \(outputFolder)/content-fade-0.50s.png")
    // The fountain is a function of its time: 1.5 s after it started, at any wall-clock moment.
    try context.capture(at: fountainStart + 1.5).writePNG(to: outputFolder + "/content-sparks-1.50s.png")
    print("wrote \(outputFolder)/content-sparks-1.50s.png")
    withExtendedLifetime(chartDelegate) {}
}

/// A landscape drawn with Core Graphics: a sky gradient, a sun, two rows of hills and a lake.
/// Bitmap contexts have Core Graphics' bottom-left origin, so the sky is drawn at the top by high y.
func makePhoto(variant: Int) -> CGImage {
    let width = 480
    let height = 320
    let space = CGColorSpaceCreateDeviceRGB()
    let context = CGContext(
        data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: space,
        bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
    let skies: [(CGColor, CGColor)] = [
        (CGColor(red: 0.16, green: 0.38, blue: 0.78, alpha: 1), CGColor(red: 0.75, green: 0.87, blue: 0.98, alpha: 1)),
        (CGColor(red: 0.42, green: 0.2, blue: 0.5, alpha: 1), CGColor(red: 0.98, green: 0.62, blue: 0.35, alpha: 1)),
        (CGColor(red: 0.05, green: 0.1, blue: 0.25, alpha: 1), CGColor(red: 0.35, green: 0.55, blue: 0.7, alpha: 1)),
    ]
    let sky = CGGradient(
        colorsSpace: space, colors: [skies[variant].0, skies[variant].1] as CFArray, locations: [0, 1])!
    context.drawLinearGradient(
        sky, start: CGPoint(x: 0, y: CGFloat(height)), end: CGPoint(x: 0, y: 120), options: [.drawsAfterEndLocation])

    let sunCentre = CGPoint(x: 120 + CGFloat(variant) * 110, y: 230 - CGFloat(variant) * 40)
    let sun = CGGradient(
        colorsSpace: space,
        colors: [CGColor(red: 1, green: 0.95, blue: 0.7, alpha: 1), CGColor(red: 1, green: 0.8, blue: 0.4, alpha: 0)]
            as CFArray, locations: [0.4, 1])!
    context.drawRadialGradient(
        sun, startCenter: sunCentre, startRadius: 0, endCenter: sunCentre, endRadius: 60, options: [])

    let hills: [(CGFloat, CGColor)] = [
        (150, CGColor(red: 0.3, green: 0.5, blue: 0.35, alpha: 1)),
        (110, CGColor(red: 0.18, green: 0.36, blue: 0.22, alpha: 1)),
    ]
    for (row, (top, colour)) in hills.enumerated() {
        context.beginPath()
        context.move(to: CGPoint(x: 0, y: 0))
        context.addLine(to: CGPoint(x: 0, y: top - 30))
        var x: CGFloat = 0
        var up = row == 0
        while x < CGFloat(width) {
            let next = x + 120
            context.addQuadCurve(
                to: CGPoint(x: next, y: top - 30), control: CGPoint(x: x + 60, y: top + (up ? 50 : 10)))
            up.toggle()
            x = next
        }
        context.addLine(to: CGPoint(x: CGFloat(width), y: 0))
        context.closePath()
        context.setFillColor(colour)
        context.fillPath()
    }
    let lake = CGGradient(
        colorsSpace: space,
        colors: [
            CGColor(red: 0.3, green: 0.55, blue: 0.8, alpha: 1), CGColor(red: 0.1, green: 0.25, blue: 0.45, alpha: 1),
        ]
            as CFArray, locations: [0, 1])!
    context.saveGState()
    context.addEllipse(in: CGRect(x: 140, y: 10, width: 260, height: 60))
    context.clip()
    context.drawLinearGradient(lake, start: CGPoint(x: 0, y: 70), end: CGPoint(x: 0, y: 10), options: [])
    context.restoreGState()
    return context.makeImage()!
}

/// A 48×48 rounded button: a vertical gradient inside a 16-pixel radius and a darker outline.
func makeButtonImage() -> CGImage {
    let space = CGColorSpaceCreateDeviceRGB()
    let context = CGContext(
        data: nil, width: 48, height: 48, bitsPerComponent: 8, bytesPerRow: 0, space: space,
        bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
    let shape = CGPath(
        roundedRect: CGRect(x: 1.5, y: 1.5, width: 45, height: 45), cornerWidth: 14, cornerHeight: 14, transform: nil)
    context.saveGState()
    context.addPath(shape)
    context.clip()
    let fill = CGGradient(
        colorsSpace: space,
        colors: [
            CGColor(red: 0.38, green: 0.68, blue: 1, alpha: 1), CGColor(red: 0.1, green: 0.4, blue: 0.85, alpha: 1),
        ]
            as CFArray, locations: [0, 1])!
    context.drawLinearGradient(fill, start: CGPoint(x: 0, y: 48), end: CGPoint(x: 0, y: 0), options: [])
    context.restoreGState()
    context.addPath(shape)
    context.setStrokeColor(CGColor(red: 0.05, green: 0.22, blue: 0.5, alpha: 1))
    context.setLineWidth(3)
    context.strokePath()
    return context.makeImage()!
}

/// Draws a bar chart with a dashed trend line into its layer's backing store (`draw(_:in:)`); the
/// context is flipped, so y grows downward from the layer's top-left, as on iOS.
final class ChartDelegate: CALayerDelegate {
    let values: [CGFloat] = [0.35, 0.62, 0.48, 0.8, 0.71, 0.92, 0.58, 0.84]

    func draw(_ layer: CALayer, in ctx: CGContext) {
        let bounds = layer.bounds
        let plot = bounds.insetBy(dx: 30, dy: 24)
        ctx.setStrokeColor(CGColor(red: 0.35, green: 0.35, blue: 0.35, alpha: 1))
        ctx.setLineWidth(2)
        ctx.strokeLineSegments(between: [
            CGPoint(x: plot.minX, y: plot.minY), CGPoint(x: plot.minX, y: plot.maxY),
            CGPoint(x: plot.minX, y: plot.maxY), CGPoint(x: plot.maxX, y: plot.maxY),
        ])
        let slot = plot.width / CGFloat(values.count)
        var points: [CGPoint] = []
        for (index, value) in values.enumerated() {
            let bar = CGRect(
                x: plot.minX + CGFloat(index) * slot + slot * 0.2, y: plot.maxY - value * plot.height,
                width: slot * 0.6, height: value * plot.height)
            let hue = CGFloat(index) / CGFloat(values.count)
            ctx.setFillColor(red: 0.2 + 0.6 * hue, green: 0.5, blue: 0.9 - 0.6 * hue, alpha: 1)
            ctx.fill(bar)
            points.append(CGPoint(x: bar.midX, y: bar.minY - 10))
        }
        ctx.setStrokeColor(CGColor(red: 0.85, green: 0.2, blue: 0.25, alpha: 1))
        ctx.setLineWidth(3)
        ctx.setLineDash(phase: 0, lengths: [10, 6])
        ctx.addLines(between: points)
        ctx.strokePath()
        ctx.setFillColor(CGColor(red: 0.85, green: 0.2, blue: 0.25, alpha: 1))
        for point in points {
            ctx.fillEllipse(in: CGRect(x: point.x - 5, y: point.y - 5, width: 10, height: 10))
        }
    }
}
