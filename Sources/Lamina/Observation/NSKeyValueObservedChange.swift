import Foundation

/// A change of a value observed with `observe(_:options:changeHandler:)` (Foundation's
/// `NSKeyValueObservedChange`), typed by the observed key path.
public struct NSKeyValueObservedChange<Value> {
    /// The kind of change; `.setting` for layers and animations.
    public let kind: NSKeyValueChange
    /// The value after the change, when the options included `.new` (and this is not a prior change).
    public let newValue: Value?
    /// The value before the change, when the options included `.old`.
    public let oldValue: Value?
    /// The indexes of a to-many change; nil for layers and animations.
    public let indexes: IndexSet?
    /// True for the change sent before the value changes (with `.prior`).
    public let isPrior: Bool
}
