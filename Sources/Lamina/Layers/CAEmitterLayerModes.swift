import Foundation

/// The shape an emitter layer's particles are born in (`CAEmitterLayer.emitterShape`), as Core
/// Animation names it.
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable {
    /// The shape's name, as Core Animation spells it.
    public let rawValue: String
    /// Wraps a shape name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a shape name without an argument label.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// A single point at `emitterPosition` (the default), `"point"`.
    public static let point = CAEmitterLayerEmitterShape("point")
    /// A line along x, `emitterSize.width` long, centred on the position, `"line"`.
    public static let line = CAEmitterLayerEmitterShape("line")
    /// A rectangle of `emitterSize` centred on the position, `"rectangle"`.
    public static let rectangle = CAEmitterLayerEmitterShape("rectangle")
    /// A box of `emitterSize` and `emitterDepth`, `"cuboid"`.
    public static let cuboid = CAEmitterLayerEmitterShape("cuboid")
    /// A circle of diameter `emitterSize.width` in the x–y plane, `"circle"`.
    public static let circle = CAEmitterLayerEmitterShape("circle")
    /// A sphere of diameter `emitterSize.width`, `"sphere"`.
    public static let sphere = CAEmitterLayerEmitterShape("sphere")
}

/// Where in its shape an emitter layer's particles are born (`CAEmitterLayer.emitterMode`).
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name, as Core Animation spells it.
    public let rawValue: String
    /// Wraps a mode name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a mode name without an argument label.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// At the shape's vertices (a circle's or sphere's centre), `"points"`.
    public static let points = CAEmitterLayerEmitterMode("points")
    /// On the shape's outline (edges), `"outline"`.
    public static let outline = CAEmitterLayerEmitterMode("outline")
    /// On the shape's surface, `"surface"`.
    public static let surface = CAEmitterLayerEmitterMode("surface")
    /// Anywhere inside the shape (the default), `"volume"`.
    public static let volume = CAEmitterLayerEmitterMode("volume")
}

/// The order an emitter layer's particles are drawn in (`CAEmitterLayer.renderMode`).
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name, as Core Animation spells it.
    public let rawValue: String
    /// Wraps a mode name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a mode name without an argument label.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// In no particular order (the default; Lamina draws cell by cell, oldest first), `"unordered"`.
    public static let unordered = CAEmitterLayerRenderMode("unordered")
    /// The oldest particles first, so the newest are on top, `"oldestFirst"`.
    public static let oldestFirst = CAEmitterLayerRenderMode("oldestFirst")
    /// The oldest particles last, on top, `"oldestLast"`.
    public static let oldestLast = CAEmitterLayerRenderMode("oldestLast")
    /// Far particles first, by z, `"backToFront"`.
    public static let backToFront = CAEmitterLayerRenderMode("backToFront")
    /// Particles added together (Lamina: drawn as `oldestLast`, blended source-over), `"additive"`.
    public static let additive = CAEmitterLayerRenderMode("additive")
}
