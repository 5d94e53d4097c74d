import Foundation

/// A key of the change dictionary given to `NSKeyValueObserving.observeValue(forKeyPath:of:change:context:)`
/// (Foundation's `NSKeyValueChangeKey`, with Apple's raw values).
public struct NSKeyValueChangeKey: RawRepresentable, Hashable, Sendable {
    /// The key's name.
    public let rawValue: String

    /// Wraps a key name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The change's kind: an `NSNumber` holding an `NSKeyValueChange` raw value.
    public static let kindKey = NSKeyValueChangeKey(rawValue: "kind")
    /// The new value (with `.new`; `NSNull` for nil), boxed as `value(forKey:)` returns it.
    public static let newKey = NSKeyValueChangeKey(rawValue: "new")
    /// The old value (with `.old`; `NSNull` for nil), boxed as `value(forKey:)` returns it.
    public static let oldKey = NSKeyValueChangeKey(rawValue: "old")
    /// The indexes of a to-many change (never sent by layers or animations).
    public static let indexesKey = NSKeyValueChangeKey(rawValue: "indexes")
    /// An `NSNumber` true in the change sent before the value changes (with `.prior`).
    public static let notificationIsPriorKey = NSKeyValueChangeKey(rawValue: "notificationIsPrior")
}
