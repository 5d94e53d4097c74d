import LaminaCore

/// Which of a layer's table properties changed since a commit last compared the layer with what it
/// sent, so the next commit compares only those: the property setter marks the one it writes; any
/// other write of the model state (decoding, key-value coding, a class's own bookkeeping) marks
/// every property.
///
/// The marks are valid for a sent record of the layer at version `since` or later: they cover every
/// change made after `since`. A context whose record is older (a tree shown by two contexts, one
/// of which committed the layer since) compares every property, as before the marks.
struct LayerChangeMarks {
    /// Bit n % 64 of word n / 64 is set once the property with wire code n changed (codes below 128,
    /// as `LayerKeyRecord.setProperties`).
    var properties = SIMD2<UInt64>(repeating: 0)
    /// True when a write that names no property changed the state: every property is compared.
    var all = true
    /// The layer's version when the marks were last cleared.
    var since: UInt64 = 0

    /// Marks `property` as changed.
    @inline(__always)
    mutating func mark(_ property: LayerPropertyName) {
        let code = Int(property.rawValue)
        properties[code >> 6] |= 1 << UInt64(code & 63)
    }

    /// The properties a commit must compare for a record sent at `version`: the marked ones, or
    /// every one (all bits set) when the marks do not cover the changes since that version.
    func compared(sinceVersion version: UInt64) -> SIMD2<UInt64> {
        all || version < since ? SIMD2(repeating: .max) : properties
    }

    /// Clears the marks once a commit has compared the layer at `version`.
    mutating func clear(at version: UInt64) {
        properties = SIMD2(repeating: 0)
        all = false
        since = version
    }
}
