import Foundation

extension LayerPropertyDescriptor {
    /// Every layer property, in wire-code order (row *i* has code *i* + 1). This is the one place
    /// a property is declared; `LayerState` holds its storage and default, `LayerState[_:]` and
    /// `LayerProperty` its typed access, and `CALayer` its accessor.
    public static let table: [LayerPropertyDescriptor] = [
        .init(.bounds, "bounds", .rect, .nonNegative, animation: .basic(code: 1), tree: .always("bounds")),
        .init(.position, "position", .point, animation: .basic(code: 2), tree: .always("position")),
        .init(.anchorPoint, "anchorPoint", .point, animation: .basic(code: 3), tree: .unlessDefault("anchor")),
        .init(.anchorPointZ, "anchorPointZ", .number, animation: .basic(code: 4)),
        .init(.zPosition, "zPosition", .number, animation: .basic(code: 5), tree: .unlessDefault("z")),
        .init(.transform, "transform", .transform, animation: .basic(code: 6), tree: .flag("transform")),
        .init(.sublayerTransform, "sublayerTransform", .transform, animation: .basic(code: 7)),
        .init(.opacity, "opacity", .float, .unitInterval, animation: .basic(code: 8), tree: .unlessDefault("opacity")),
        .init(.hidden, "hidden", .bool, animation: .basic(code: 9), tree: .flag("hidden")),
        .init(
            .backgroundColor, "backgroundColor", .color, animation: .basic(code: 10),
            tree: .unlessDefault("background")),
        .init(
            .cornerRadius, "cornerRadius", .number, .nonNegative, animation: .basic(code: 11),
            tree: .unlessDefault("cornerRadius")),
        .init(.maskedCorners, "maskedCorners", .corners),
        .init(
            .borderWidth, "borderWidth", .number, .nonNegative, animation: .basic(code: 12),
            tree: .unlessDefault("border", then: .borderColor)),
        .init(.borderColor, "borderColor", .color, animation: .basic(code: 13)),
        .init(.masksToBounds, "masksToBounds", .bool, animation: .basic(code: 14), tree: .flag("masksToBounds")),
        .init(.name, "name", .string, tree: .label),
        .init(.beginTime, "beginTime", .number),
        .init(.timeOffset, "timeOffset", .number),
        .init(.speed, "speed", .number),
    ]

    /// The animatable rows, in table order.
    public static let animatable: [LayerPropertyDescriptor] = table.filter(\.isAnimatable)

    /// Rows by Core Animation key.
    static let byKey: [String: LayerPropertyName] = Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.name) })
}
