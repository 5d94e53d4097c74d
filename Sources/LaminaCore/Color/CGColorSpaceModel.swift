/// The colour model of a colour space, with Core Graphics' raw values (`CGColorSpace.h`).
public enum CGColorSpaceModel: Int32, Sendable {
    /// An unknown model.
    case unknown = -1
    /// Gray levels.
    case monochrome = 0
    /// Red, green, blue.
    case rgb = 1
    /// Cyan, magenta, yellow, black.
    case cmyk = 2
    /// CIE L*a*b*.
    case lab = 3
    /// Any number of inks.
    case deviceN = 4
    /// Indices into a colour table.
    case indexed = 5
    /// Patterns.
    case pattern = 6
    /// CIE XYZ.
    case XYZ = 7
}
