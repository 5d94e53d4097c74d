import Foundation

extension LayerPropertyDescriptor {
    /// The Core Image filter rows every layer has (codes 90–92), stored in `LayerFilterState`. The
    /// client keeps the `CIFilter` objects under Core Animation's keys (`isClientKept`) and these rows
    /// carry what the server draws. A blur's radius animates through `filters.NAME.inputRadius`
    /// (animation code 58) and `backgroundFilters.NAME.inputRadius` (59), as on macOS; the lists
    /// themselves and `compositingFilter` are not animated (docs/apple-differences.md).
    static let filterRows: [LayerPropertyDescriptor] = [
        .init(
            .filters, "filters", .filters, animation: .explicit(code: 58), tree: .unlessDefault("filters"),
            clientKept: true),
        .init(
            .backgroundFilters, "backgroundFilters", .filters, animation: .explicit(code: 59),
            tree: .unlessDefault("backgroundFilters"), clientKept: true),
        .init(
            .compositingFilter, "compositingFilter", .number, tree: .unlessDefault("compositingFilter"),
            clientKept: true),
    ]
}
