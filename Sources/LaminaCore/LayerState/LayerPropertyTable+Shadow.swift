import Foundation

extension LayerPropertyDescriptor {
    /// The shadow's rows (codes 54–58), which every layer has, stored in `LayerShadowState`. All five
    /// animate with a `CABasicAnimation` by default (App. B). They follow the class blocks, so that
    /// adding them moved no earlier code.
    static let shadowRows: [LayerPropertyDescriptor] = [
        .init(.shadowColor, "shadowColor", .color, animation: .basic(code: 35), tree: .unlessDefault("shadowColor")),
        .init(
            .shadowOpacity, "shadowOpacity", .float, .unitInterval, animation: .basic(code: 36),
            tree: .unlessDefault("shadowOpacity")),
        .init(
            .shadowRadius, "shadowRadius", .number, .nonNegative, animation: .basic(code: 37),
            tree: .unlessDefault("shadowRadius")),
        .init(.shadowOffset, "shadowOffset", .size, animation: .basic(code: 38), tree: .unlessDefault("shadowOffset")),
        .init(.shadowPath, "shadowPath", .path, animation: .basic(code: 39), tree: .unlessDefault("shadowPath")),
    ]
}
