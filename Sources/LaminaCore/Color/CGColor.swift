import Foundation

/// An immutable colour, mirroring Core Graphics' `CGColor`.
///
/// Lamina works in sRGB only, so a colour is either an sRGB colour (components red, green, blue,
/// alpha) or a gray colour (components gray, alpha). Components are stored exactly as given: they
/// are not clamped and may even be NaN (clients validate before sending). Two colours are equal
/// when they have the same colour model and the same components (NaN compares equal to NaN so that
/// equality stays reflexive); an sRGB colour is never equal to a gray one, as on Apple platforms.
public final class CGColor: Sendable, Hashable, CustomStringConvertible {
    /// The colour model of a colour: which components it carries.
    private enum Model: Sendable, Hashable {
        /// Red, green, blue, alpha.
        case rgb
        /// Gray, alpha.
        case gray
    }

    private let model: Model
    private let storage: [CGFloat]

    private init(model: Model, components: [CGFloat]) {
        self.model = model
        self.storage = components
    }

    /// Creates an sRGB colour from red, green, blue and alpha components (nominally 0…1).
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(model: .rgb, components: [red, green, blue, alpha])
    }

    /// Creates an sRGB colour; identical to `init(red:green:blue:alpha:)`, since Lamina is all sRGB.
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(model: .rgb, components: [red, green, blue, alpha])
    }

    /// Creates a gray colour from a gray level and alpha (nominally 0…1).
    ///
    /// Its `components` are `[gray, alpha]`.
    public convenience init(gray: CGFloat, alpha: CGFloat) {
        self.init(model: .gray, components: [gray, alpha])
    }

    /// Creates an sRGB colour from non-premultiplied components (project convenience).
    ///
    /// Equivalent to `init(red:green:blue:alpha:)`; the components are stored unclamped.
    public convenience init(rgba: (red: Double, green: Double, blue: Double, alpha: Double)) {
        self.init(
            model: .rgb,
            components: [CGFloat(rgba.red), CGFloat(rgba.green), CGFloat(rgba.blue), CGFloat(rgba.alpha)])
    }

    /// Opaque black: gray 0, alpha 1.
    public static let black = CGColor(gray: 0, alpha: 1)

    /// Opaque white: gray 1, alpha 1.
    public static let white = CGColor(gray: 1, alpha: 1)

    /// Fully transparent: gray 0, alpha 0.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// The components, colour components first and alpha last.
    ///
    /// `[red, green, blue, alpha]` for sRGB colours and `[gray, alpha]` for gray colours, as on Apple
    /// platforms. Never nil in Lamina; optional only to match Apple's API.
    public var components: [CGFloat]? {
        storage
    }

    /// The number of components including alpha: 4 for sRGB colours, 2 for gray colours.
    public var numberOfComponents: Int {
        storage.count
    }

    /// The alpha component, as stored (unclamped).
    public var alpha: CGFloat {
        storage[storage.count - 1]
    }

    /// Returns a colour with the same colour model and colour components but the given alpha.
    ///
    /// Never nil in Lamina; optional only to match Apple's API.
    public func copy(alpha: CGFloat) -> CGColor? {
        var components = storage
        components[components.count - 1] = alpha
        return CGColor(model: model, components: components)
    }

    /// The colour as non-premultiplied sRGB components, each clamped to 0…1 (project convenience).
    ///
    /// Gray colours expand to `red = green = blue = gray`. NaN components are passed through
    /// unchanged (clamping cannot fix them; clients validate before sending).
    public var rgba: (red: Double, green: Double, blue: Double, alpha: Double) {
        func clamp(_ value: CGFloat) -> Double {
            let v = Double(value)
            return v.isNaN ? v : Swift.min(Swift.max(v, 0), 1)
        }
        switch model {
        case .rgb:
            return (clamp(storage[0]), clamp(storage[1]), clamp(storage[2]), clamp(storage[3]))
        case .gray:
            let g = clamp(storage[0])
            return (g, g, g, clamp(storage[1]))
        }
    }

    /// A readable description such as `CGColor(rgb: 1 0.5 0 1)` or `CGColor(gray: 0 1)`.
    public var description: String {
        let name = model == .rgb ? "rgb" : "gray"
        return "CGColor(\(name): \(storage.map { "\($0)" }.joined(separator: " ")))"
    }

    /// Returns whether two colours have the same colour model and the same components.
    ///
    /// A NaN component equals a NaN component in the same position.
    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        if lhs === rhs { return true }
        guard lhs.model == rhs.model, lhs.storage.count == rhs.storage.count else { return false }
        return zip(lhs.storage, rhs.storage).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
    }

    /// Hashes the colour model and components, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(model)
        for component in storage {
            if component.isNaN {
                hasher.combine(true)
            } else {
                hasher.combine(false)
                hasher.combine(component)
            }
        }
    }
}
