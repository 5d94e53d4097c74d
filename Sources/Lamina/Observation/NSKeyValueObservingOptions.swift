import Foundation

/// What a key-value observer is sent (Foundation's `NSKeyValueObservingOptions`, with Apple's raw
/// values; swift-corelibs Foundation does not have it, so Lamina declares it for layers and
/// animations).
public struct NSKeyValueObservingOptions: OptionSet, Hashable, Sendable {
    /// The options' bits.
    public let rawValue: UInt

    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The change carries the new value.
    public static let new = NSKeyValueObservingOptions(rawValue: 0x01)
    /// The change carries the old value.
    public static let old = NSKeyValueObservingOptions(rawValue: 0x02)
    /// The observer is sent one change at once, when it is registered, carrying the current value
    /// as the new value when `.new` is set.
    public static let initial = NSKeyValueObservingOptions(rawValue: 0x04)
    /// The observer is also sent a change before each change (its `isPrior` is true).
    public static let prior = NSKeyValueObservingOptions(rawValue: 0x08)
}
