import Foundation

/// A colour space, mirroring Core Graphics' `CGColorSpace`.
///
/// Lamina draws in sRGB, so every RGB space is treated as sRGB and every gray space as gray with the
/// sRGB transfer curve; the name is kept so that code can ask for it. Other models (CMYK, Lab, indexed)
/// are not available: `init(name:)` returns nil for their names (docs/apple-differences.md).
public final class CGColorSpace: Sendable, Hashable, CustomStringConvertible {
    private let spaceName: String
    /// The colour model: `.rgb` or `.monochrome`.
    public let model: CGColorSpaceModel

    private init(name: String, model: CGColorSpaceModel) {
        self.spaceName = name
        self.model = model
    }

    /// The space called `name`, or nil when Lamina has no space of that name.
    public convenience init?(name: CFString) {
        let key = name as String
        if Self.rgbNames.contains(key) {
            self.init(name: key, model: .rgb)
        } else if Self.grayNames.contains(key) {
            self.init(name: key, model: .monochrome)
        } else {
            return nil
        }
    }

    /// The space's name (`kCGColorSpaceSRGB` and so on).
    public var name: CFString? { spaceName as CFString }

    /// The number of colour components, alpha excluded: 3 for RGB, 1 for gray.
    public var numberOfComponents: Int { model == .rgb ? 3 : 1 }

    /// "<CGColorSpace NAME>".
    public var description: String { "<CGColorSpace \(spaceName)>" }

    /// Spaces are equal when their names are.
    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool {
        lhs.spaceName == rhs.spaceName
    }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(spaceName)
    }

    /// The device-dependent RGB space (drawn as sRGB).
    static let deviceRGB = CGColorSpace(name: "kCGColorSpaceDeviceRGB", model: .rgb)
    /// The device-dependent gray space.
    static let deviceGray = CGColorSpace(name: "kCGColorSpaceDeviceGray", model: .monochrome)

    private static let rgbNames: Set<String> = [
        "kCGColorSpaceSRGB", "kCGColorSpaceExtendedSRGB", "kCGColorSpaceLinearSRGB", "kCGColorSpaceExtendedLinearSRGB",
        "kCGColorSpaceGenericRGB", "kCGColorSpaceGenericRGBLinear", "kCGColorSpaceDisplayP3", "kCGColorSpaceDeviceRGB",
    ]
    private static let grayNames: Set<String> = [
        "kCGColorSpaceGenericGray", "kCGColorSpaceGenericGrayGamma2_2", "kCGColorSpaceLinearGray",
        "kCGColorSpaceExtendedGray", "kCGColorSpaceDeviceGray",
    ]
}

extension CGColorSpace {
    /// The sRGB space (`kCGColorSpaceSRGB`).
    nonisolated(unsafe) public static let sRGB: CFString = "kCGColorSpaceSRGB"
    /// Extended-range sRGB (`kCGColorSpaceExtendedSRGB`).
    nonisolated(unsafe) public static let extendedSRGB: CFString = "kCGColorSpaceExtendedSRGB"
    /// sRGB with a linear transfer curve (`kCGColorSpaceLinearSRGB`).
    nonisolated(unsafe) public static let linearSRGB: CFString = "kCGColorSpaceLinearSRGB"
    /// Extended-range linear sRGB (`kCGColorSpaceExtendedLinearSRGB`).
    nonisolated(unsafe) public static let extendedLinearSRGB: CFString = "kCGColorSpaceExtendedLinearSRGB"
    /// Generic RGB (`kCGColorSpaceGenericRGB`).
    nonisolated(unsafe) public static let genericRGB: CFString = "kCGColorSpaceGenericRGB"
    /// Generic linear RGB (`kCGColorSpaceGenericRGBLinear`).
    nonisolated(unsafe) public static let genericRGBLinear: CFString = "kCGColorSpaceGenericRGBLinear"
    /// Display P3 (`kCGColorSpaceDisplayP3`), drawn as sRGB.
    nonisolated(unsafe) public static let displayP3: CFString = "kCGColorSpaceDisplayP3"
    /// Generic gray (`kCGColorSpaceGenericGray`).
    nonisolated(unsafe) public static let genericGray: CFString = "kCGColorSpaceGenericGray"
    /// Gray with a 2.2 gamma (`kCGColorSpaceGenericGrayGamma2_2`).
    nonisolated(unsafe) public static let genericGrayGamma2_2: CFString = "kCGColorSpaceGenericGrayGamma2_2"
    /// Linear gray (`kCGColorSpaceLinearGray`).
    nonisolated(unsafe) public static let linearGray: CFString = "kCGColorSpaceLinearGray"
    /// Extended-range gray (`kCGColorSpaceExtendedGray`).
    nonisolated(unsafe) public static let extendedGray: CFString = "kCGColorSpaceExtendedGray"
}

/// The device RGB space, as Apple's `CGColorSpaceCreateDeviceRGB()` returns it.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { .deviceRGB }

/// The device gray space, as Apple's `CGColorSpaceCreateDeviceGray()` returns it.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { .deviceGray }
