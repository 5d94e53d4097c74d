import LaminaGraphics

let context = CGContext(
    data: nil, width: 200, height: 100, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
    bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
context.setFillColor(CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 1))
context.fillEllipse(in: CGRect(x: 20, y: 10, width: 160, height: 80))
try context.makeImage()!.writePNG(to: "ellipse.png")
