import Foundation
import Lamina

/// A video-like sequence: a `CAVideoLayer` fed NV12 frames of colour bars that move from frame to
/// frame (BT.709, video range), queued at media times 1/30 s
/// apart, beside a turned, translucent P010 still (10-bit, full range). laminad samples the planes in
/// place and converts them in its `video` draw kind; the captures pick frames by media time.
func runVideoScene(on context: CAContext, outputFolder: String) throws {
    let root = CALayer()
    root.name = "video root"
    root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
    root.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.12, alpha: 1)

    let video = CAVideoLayer()
    video.name = "video (NV12 frames)"
    video.frame = CGRect(x: 80, y: 120, width: 640, height: 360)
    video.cornerRadius = 24
    video.masksToBounds = true
    root.addSublayer(video)

    let still = CALayer()
    still.name = "still (P010, turned, 0.8)"
    still.frame = CGRect(x: 820, y: 200, width: 320, height: 180)
    still.opacity = 0.8
    still.setAffineTransform(CGAffineTransform(rotationAngle: -.pi / 16))
    still.contents = makeBarsFrame(width: 320, height: 180, offset: 0, tenBit: true)
    root.addSublayer(still)

    context.layer = root
    let frames = (0..<8).compactMap { makeBarsFrame(width: 640, height: 360, offset: $0 * 24, tenBit: false) }
    let t0 = CACurrentMediaTime() + 0.5
    for (index, frame) in frames.enumerated() { try video.enqueue(frame, at: t0 + Double(index) / 30) }
    CATransaction.flush()
    for index in [0, 3, 7] {
        let capture = try context.capture(at: t0 + (Double(index) + 0.5) / 30)
        let name = "video-frame\(index).png"
        try capture.writePNG(to: outputFolder + "/" + name)
        print("wrote \(outputFolder)/\(name)")
    }
}

/// One frame of seven colour bars (white, yellow, cyan, green, magenta, red, blue at 75%) over a
/// luma ramp in the bottom quarter, shifted `offset` pixels to the left, as YCbCr written straight
/// into the planes: NV12 ('420v', BT.709, video range) or P010 ('xf20', BT.709, full range).
func makeBarsFrame(width: Int, height: Int, offset: Int, tenBit: Bool) -> IOSurface? {
    // 0x34323076 '420v' (kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange) or 0x78663230 'xf20'
    // (kCVPixelFormatType_420YpCbCr10BiPlanarFullRange).
    let format: UInt32 = tenBit ? 0x7866_3230 : 0x3432_3076
    guard
        let surface = IOSurface(properties: [
            .width: width, .height: height, .pixelFormat: format, .yCbCrMatrix: IOSurface.yCbCrMatrixITU_R_709_2,
        ]), let luma = surface.baseAddressOfPlane(at: 0), let chroma = surface.baseAddressOfPlane(at: 1)
    else { return nil }
    let bars: [(Double, Double, Double)] = [
        (0.75, 0.75, 0.75), (0.75, 0.75, 0), (0, 0.75, 0.75), (0, 0.75, 0), (0.75, 0, 0.75), (0.75, 0, 0),
        (0, 0, 0.75),
    ]
    // BT.709 RGB to Y' and the colour differences (−0.5...0.5).
    func yCbCr(_ rgb: (Double, Double, Double)) -> (Double, Double, Double) {
        let y = 0.2126 * rgb.0 + 0.7152 * rgb.1 + 0.0722 * rgb.2
        return (y, (rgb.2 - y) / 1.8556, (rgb.0 - y) / 1.5748)
    }
    // To code values: video range at 8 bits, full range at 10 bits.
    func lumaCode(_ y: Double) -> Int { tenBit ? Int((y * 1023).rounded()) : Int((16 + y * 219).rounded()) }
    func chromaCode(_ c: Double) -> Int { tenBit ? Int((512 + c * 1023).rounded()) : Int((128 + c * 224).rounded()) }
    func colour(x: Int, y: Int) -> (Double, Double, Double) {
        if y >= height * 3 / 4 {
            let ramp = Double((x + offset) % width) / Double(width - 1)
            return (ramp, 0, 0)
        }
        return yCbCr(bars[((x + offset) % width) * bars.count / width])
    }
    func store(_ plane: UnsafeMutableRawPointer, _ at: Int, _ code: Int) {
        if tenBit {
            plane.storeBytes(of: UInt16(max(0, min(1023, code)) << 6).littleEndian, toByteOffset: at, as: UInt16.self)
        } else {
            plane.storeBytes(of: UInt8(max(0, min(255, code))), toByteOffset: at, as: UInt8.self)
        }
    }
    let sample = tenBit ? 2 : 1
    surface.lock(options: [], seed: nil)
    for y in 0..<height {
        for x in 0..<width {
            store(luma, y * surface.bytesPerRowOfPlane(at: 0) + x * sample, lumaCode(colour(x: x, y: y).0))
        }
    }
    for cy in 0..<surface.heightOfPlane(at: 1) {
        for cx in 0..<surface.widthOfPlane(at: 1) {
            let c = colour(x: cx * 2, y: cy * 2)
            let at = cy * surface.bytesPerRowOfPlane(at: 1) + cx * 2 * sample
            store(chroma, at, chromaCode(c.1))
            store(chroma, at + sample, chromaCode(c.2))
        }
    }
    surface.unlock(options: [], seed: nil)
    return surface
}
