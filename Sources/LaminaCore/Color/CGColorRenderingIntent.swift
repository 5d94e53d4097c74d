import Foundation

/// How colours outside a destination's gamut are mapped into it, with Core Graphics' raw values
/// (`CGColorSpace.h`).
public enum CGColorRenderingIntent: Int32, Sendable, Hashable {
    /// The context's default intent.
    case defaultIntent = 0
    /// Keep in-gamut colours exactly; clip the others.
    case absoluteColorimetric = 1
    /// Keep in-gamut colours relative to the white point; clip the others.
    case relativeColorimetric = 2
    /// Compress the whole gamut, keeping the relations between colours.
    case perceptual = 3
    /// Keep saturation, at the cost of hue and lightness.
    case saturation = 4
}
