import Foundation

/// Whether and where a bitmap's pixels hold alpha, and whether colours are premultiplied by it, with
/// Core Graphics' raw values (`CGImage.h`).
public enum CGImageAlphaInfo: UInt32, Sendable, Hashable {
    /// No alpha.
    case none = 0
    /// Alpha last (RGBA), colours premultiplied.
    case premultipliedLast = 1
    /// Alpha first (ARGB), colours premultiplied.
    case premultipliedFirst = 2
    /// Alpha last (RGBA), colours not premultiplied.
    case last = 3
    /// Alpha first (ARGB), colours not premultiplied.
    case first = 4
    /// A last byte that is ignored (RGBX).
    case noneSkipLast = 5
    /// A first byte that is ignored (XRGB).
    case noneSkipFirst = 6
    /// Alpha only, no colour.
    case alphaOnly = 7
}
