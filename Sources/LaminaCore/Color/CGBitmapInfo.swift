import Foundation

/// A bitmap's layout: its alpha (`CGImageAlphaInfo` in the low bits), whether components are
/// floating point, and the byte order of its pixels, with Core Graphics' raw values (`CGImage.h`).
/// As on Apple platforms, an alpha is combined by raw value:
/// `CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue)`.
public struct CGBitmapInfo: OptionSet, Sendable, Hashable {
    /// The bits, as Core Graphics defines them.
    public let rawValue: UInt32

    /// A layout from its bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The bits that hold a `CGImageAlphaInfo`.
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    /// The bits that describe floating-point components.
    public static let floatInfoMask = CGBitmapInfo(rawValue: 0xF00)
    /// Components are floating point.
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    /// The bits that hold the byte order.
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    /// The platform's default byte order.
    public static let byteOrderDefault = CGBitmapInfo([])
    /// 16-bit little-endian pixels.
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    /// 32-bit little-endian pixels (with `premultipliedFirst`: BGRA in memory).
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    /// 16-bit big-endian pixels.
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    /// 32-bit big-endian pixels.
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)

    /// The alpha the layout names (nil for bits that name none).
    public var alphaInfo: CGImageAlphaInfo? {
        CGImageAlphaInfo(rawValue: rawValue & CGBitmapInfo.alphaInfoMask.rawValue)
    }
}
