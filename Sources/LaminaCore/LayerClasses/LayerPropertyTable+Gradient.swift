import Foundation

extension LayerPropertyDescriptor {
    /// `CAGradientLayer`'s rows (codes 49–53), stored in `GradientLayerState`. As in Apple's
    /// `CAGradientLayer.h`, `colors`, `locations`, `startPoint` and `endPoint` animate; `type` does not.
    static let gradientRows: [LayerPropertyDescriptor] = [
        .init(.colors, "colors", .colors, of: .gradient, animation: .basic(code: 31), tree: .unlessDefault("colors")),
        .init(
            .locations, "locations", .numbers, of: .gradient, animation: .basic(code: 32),
            tree: .unlessDefault("locations")),
        .init(
            .startPoint, "startPoint", .point, of: .gradient, animation: .basic(code: 33),
            tree: .unlessDefault("start")),
        .init(
            .endPoint, "endPoint", .point, of: .gradient, animation: .basic(code: 34), tree: .unlessDefault("end")),
        .init(.gradientType, "type", .string, of: .gradient, tree: .unlessDefault("type")),
    ]
}
