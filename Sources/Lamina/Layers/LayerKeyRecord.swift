import Foundation

/// Which of a layer's keys were given a value (what `shouldArchiveValue(forKey:)` answers from, as
/// Apple's layers archive only what was set), and the key-value observers registered on the layer.
struct LayerKeyRecord {
    /// Bit n is set once the table property with wire code n was given a value.
    var setProperties: UInt64 = 0
    /// The other keys given a value: timing, custom keys, dynamic range, `autoresizingMask`,
    /// `sublayers`, `constraints`, `animations`.
    var setKeys: Set<String> = []
    /// The observers, once one was registered.
    var observers: KeyValueObserverList?

    /// Records that `property` was given a value.
    @inline(__always)
    mutating func noteSet(_ property: LayerPropertyName) {
        setProperties |= 1 << UInt64(property.rawValue)
    }

    /// Records that `key` was given a value.
    mutating func noteSet(_ key: String) {
        if let property = LayerPropertyName(key: key) { noteSet(property) } else { setKeys.insert(key) }
    }

    /// Whether `key` was given a value.
    func wasSet(_ key: String) -> Bool {
        if let property = LayerPropertyName(key: key) { return setProperties & (1 << UInt64(property.rawValue)) != 0 }
        return setKeys.contains(key)
    }
}
