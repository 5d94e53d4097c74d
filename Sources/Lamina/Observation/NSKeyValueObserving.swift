import Foundation

/// An object that receives key-value changes registered with `addObserver(_:forKeyPath:options:context:)`
/// on a layer or an animation.
///
/// On Apple platforms every `NSObject` has `observeValue(forKeyPath:of:change:context:)` and an
/// observer overrides it. swift-corelibs Foundation has no key-value observing, and Swift cannot
/// override a method added to `NSObject` by an extension, so on Linux the observer conforms to this
/// protocol and implements the same method without `override` (docs/apple-differences.md). The method
/// is called synchronously on the thread that set the value, after the value is stored.
public protocol NSKeyValueObserving: AnyObject {
    /// Called when the value at `keyPath` of `object` changed: `change` holds the kind and, as the
    /// registration's options asked, the old and new values; `context` is the one given when the
    /// observer was registered.
    func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?)
}
