import Foundation

@testable import LaminaGraphics

extension CGContext {
    /// A `width` × `height` context with RGBA bytes in memory (`premultipliedLast`, default byte order).
    static func rgba(width: Int, height: Int) -> CGContext {
        CGContext(
            data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
    }

    /// The bytes of the pixel in column `x` of memory row `row` (row 0 is the first row of `data`).
    func bytes(x: Int, row: Int) -> [UInt8] {
        let size = bitsPerPixel / 8
        let p = data!.assumingMemoryBound(to: UInt8.self) + row * bytesPerRow + x * size
        return (0..<size).map { p[$0] }
    }

    /// The alpha (last byte, in an RGBA context) of the pixel in column `x` of memory row `row`.
    func alpha(x: Int, row: Int) -> UInt8 {
        bytes(x: x, row: row).last!
    }

    /// Every pixel's bytes, memory row by memory row.
    var allBytes: [[UInt8]] {
        (0..<height).flatMap { row in (0..<width).map { bytes(x: $0, row: row) } }
    }
}
