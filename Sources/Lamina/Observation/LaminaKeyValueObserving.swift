import Foundation

/// The types whose properties can be observed with Swift's `observe(_:options:changeHandler:)`:
/// `CALayer` and the animation classes. Lamina's stand-in for Foundation's
/// `_KeyValueCodingAndObserving`, which swift-corelibs Foundation does not have; Apple code never
/// names it, it only calls `observe`.
public protocol LaminaKeyValueObserving: AnyObject {}

extension LaminaKeyValueObserving {
    /// The key a typed key path names: its entry in `table`, or, for a key path the table does not
    /// list, the last component of its description when that is a plain name (a stored property of
    /// a final class). Nil when neither says: the observation then watches every change of the
    /// object (`KeyValueObserverList.anyKey`).
    static func observedKey(_ keyPath: AnyKeyPath, in table: [AnyKeyPath: String]) -> String? {
        if let key = table[keyPath] { return key }
        let text = String(describing: keyPath)
        guard let dot = text.lastIndex(of: "."), !text.contains("<") else { return nil }
        let name = text[text.index(after: dot)...]
        guard let first = name.first, first.isLetter || first == "_",
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        return String(name)
    }
}
