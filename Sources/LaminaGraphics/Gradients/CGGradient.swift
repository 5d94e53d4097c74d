import Foundation

/// A smooth transition between colours at locations 0…1, drawn by `CGContext.drawLinearGradient`
/// and `drawRadialGradient`.
///
/// Mirrors Apple's `CGGradient`. Colours are interpolated component by component between stops.
public final class CGGradient: @unchecked Sendable {
    /// A colour stop: location 0…1 and non-premultiplied RGBA.
    struct Stop: Equatable {
        var location: Double
        var red: Double
        var green: Double
        var blue: Double
        var alpha: Double
    }

    /// The stops in increasing location.
    let stops: [Stop]

    private init?(stops: [Stop]) {
        guard !stops.isEmpty else { return nil }
        self.stops = stops.sorted { $0.location < $1.location }
    }

    /// Makes a gradient of `colors` at `locations`; Apple's initialiser, taking a `CFArray` of `CGColor`s.
    ///
    /// `locations` holds one value 0…1 per colour; nil spaces the colours evenly, the first at 0 and
    /// the last at 1. Nil when the array is empty or holds something other than colours.
    /// `colorsSpace` is accepted for Apple compatibility; colours keep their own components.
    public convenience init?(colorsSpace space: CGColorSpace?, colors: CFArray, locations: UnsafePointer<CGFloat>?) {
        var list: [CGColor] = []
        for element in colors {
            guard let color = element as? CGColor else { return nil }
            list.append(color)
        }
        let places = locations.map { Array(UnsafeBufferPointer(start: $0, count: list.count)) }
        self.init(colorsSpace: space, colors: list, locations: places)
    }

    /// Makes a gradient of `colors` at `locations`: the Swift-array spelling of Apple's `CFArray` initialiser.
    ///
    /// `locations` holds one value 0…1 per colour (extra values are ignored; too few return nil);
    /// nil spaces the colours evenly, the first at 0 and the last at 1.
    public convenience init?(colorsSpace space: CGColorSpace?, colors: [CGColor], locations: [CGFloat]?) {
        guard !colors.isEmpty else { return nil }
        if let locations, locations.count < colors.count { return nil }
        let stops = colors.enumerated().map { index, color in
            let c = color.rgba
            let location =
                locations.map { Double($0[index]) }
                ?? (colors.count == 1 ? 0 : Double(index) / Double(colors.count - 1))
            return Stop(
                location: min(1, max(0, location)), red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
        }
        self.init(stops: stops)
    }

    /// Makes a gradient from `count` colours given as packed components in `space` (its
    /// component count plus alpha each), at `locations` (nil spaces them evenly).
    ///
    /// Nil for a count below 1 or a colour space other than RGB or grey.
    public convenience init?(
        colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>,
        locations: UnsafePointer<CGFloat>?, count: Int
    ) {
        guard count > 0, space.model == .rgb || space.model == .monochrome else { return nil }
        let n = space.numberOfComponents + 1
        var colors: [CGColor] = []
        for index in 0..<count {
            let c = components + index * n
            colors.append(
                n == 4 ? CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3]) : CGColor(gray: c[0], alpha: c[1]))
        }
        let places = locations.map { Array(UnsafeBufferPointer(start: $0, count: count)) }
        self.init(colorsSpace: space, colors: colors, locations: places)
    }
}
