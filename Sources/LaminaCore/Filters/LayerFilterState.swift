import Foundation

/// A layer's Core Image filters as the render server draws them: the storage behind
/// `LayerState.filterState`, declared as the rows of `LayerPropertyDescriptor.filterRows`.
///
/// All empty by default, as Apple's `filters`, `backgroundFilters` and `compositingFilter` are nil.
public struct LayerFilterState: Sendable, Hashable {
    /// The filters of the layer's own drawing (`filters`), in order.
    public var filters: [LayerFilter] = []
    /// The filters of what lies behind the layer (`backgroundFilters`), in order.
    public var backgroundFilters: [LayerFilter] = []
    /// The blend mode of the layer's `compositingFilter`; `normal` when it has none.
    public var blendMode: LayerBlendMode = .normal

    /// No filters.
    public init() {}

    /// Whether any filter is set.
    public var isEmpty: Bool { filters.isEmpty && backgroundFilters.isEmpty && blendMode == .normal }
}
