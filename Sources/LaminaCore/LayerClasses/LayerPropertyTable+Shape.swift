import Foundation

extension LayerPropertyDescriptor {
    /// `CAShapeLayer`'s rows (codes 37–48), stored in `ShapeLayerState`. Defaults, animatability and
    /// implicit animations follow Apple's `CAShapeLayer.h`: every property but `fillRule`, `lineCap`,
    /// `lineJoin` and `lineDashPattern` animates; `path` only explicitly ("no implicit animation").
    static let shapeRows: [LayerPropertyDescriptor] = [
        .init(.path, "path", .path, of: .shape, animation: .explicit(code: 23), tree: .unlessDefault("path")),
        .init(.fillColor, "fillColor", .color, of: .shape, animation: .basic(code: 24), tree: .unlessDefault("fill")),
        .init(.fillRule, "fillRule", .string, of: .shape, tree: .unlessDefault("fillRule")),
        .init(
            .strokeColor, "strokeColor", .color, of: .shape, animation: .basic(code: 25),
            tree: .unlessDefault("stroke")),
        .init(
            .lineWidth, "lineWidth", .number, .nonNegative, of: .shape, animation: .basic(code: 26),
            tree: .unlessDefault("lineWidth")),
        .init(
            .miterLimit, "miterLimit", .number, .nonNegative, of: .shape, animation: .basic(code: 27),
            tree: .unlessDefault("miterLimit")),
        .init(.lineCap, "lineCap", .string, of: .shape, tree: .unlessDefault("lineCap")),
        .init(.lineJoin, "lineJoin", .string, of: .shape, tree: .unlessDefault("lineJoin")),
        .init(.lineDashPattern, "lineDashPattern", .numbers, .dashPattern, of: .shape, tree: .unlessDefault("dash")),
        .init(
            .lineDashPhase, "lineDashPhase", .number, of: .shape, animation: .basic(code: 28),
            tree: .unlessDefault("dashPhase")),
        .init(
            .strokeStart, "strokeStart", .number, .unitInterval, of: .shape, animation: .basic(code: 29),
            tree: .unlessDefault("strokeStart")),
        .init(
            .strokeEnd, "strokeEnd", .number, .unitInterval, of: .shape, animation: .basic(code: 30),
            tree: .unlessDefault("strokeEnd")),
    ]
}
