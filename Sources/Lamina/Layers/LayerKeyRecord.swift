import Foundation

/// Which of a layer's keys were given a value (what `shouldArchiveValue(forKey:)` answers from, as
/// Apple's layers archive only what was set), and the key-value observers registered on the layer.
struct LayerKeyRecord {
    /// Bit n % 64 of word n / 64 is set once the table property with wire code n was given a value
    /// (codes below 128, as the table's packed columns).
    var setProperties = SIMD2<UInt64>(repeating: 0)
    /// The other keys given a value: timing, custom keys, dynamic range, `autoresizingMask`,
    /// `sublayers`, `constraints`, `animations`.
    var setKeys: Set<String> = []
    /// The observers, once one was registered.
    var observers: KeyValueObserverList?

    /// Records that `property` was given a value.
    @inline(__always)
    mutating func noteSet(_ property: LayerPropertyName) {
        let code = Int(property.rawValue)
        setProperties[code >> 6] |= 1 << UInt64(code & 63)
    }

    /// Records that `key` was given a value.
    mutating func noteSet(_ key: String) {
        if let property = LayerPropertyName(key: key) { noteSet(property) } else { setKeys.insert(key) }
    }

    /// Whether `key` was given a value.
    func wasSet(_ key: String) -> Bool {
        if let property = LayerPropertyName(key: key) {
            let code = Int(property.rawValue)
            return setProperties[code >> 6] & (1 << UInt64(code & 63)) != 0
        }
        return setKeys.contains(key)
    }
}
