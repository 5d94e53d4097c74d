import Foundation

/// Archiving what was set: the answer of the default `shouldArchiveValue(forKey:)`, and the setters
/// of the keys the record follows outside the property table.
extension CALayer {
    /// Keys Apple's layers archive from the start, whether set or not: the two it takes from the
    /// application bundle, and the corner curve and contents format (GNUstep's QuartzCore tests run on
    /// macOS, issue 24).
    static let keysArchivedAlways: Set<String> = [
        "allowsEdgeAntialiasing", "allowsGroupOpacity", "cornerCurve", "contentsFormat",
    ]

    /// Keys Apple's layers never archive: the empty key, the derived `frame`, the `superlayer`, and
    /// dynamic content scaling.
    static let keysArchivedNever: Set<String> = ["", "frame", "superlayer", "wantsDynamicContentScaling"]

    /// Whether `encode(with:)` archives `key`, as Apple's layers answer `shouldArchiveValueForKey:`
    /// (GNUstep's QuartzCore tests run on macOS, issue 24): a key is archived once it was given a
    /// value (through its setter, `setValue(_:forKey:)`, `frame`, adding sublayers or animations, or
    /// an archive), except the keys of `keysArchivedNever`; the keys of `keysArchivedAlways` are
    /// archived from the start. A key never set (an unknown key among them) is not archived. The
    /// implementation behind `shouldArchiveValue(forKey:)`.
    func archivesValue(forKey key: String) -> Bool {
        if Self.keysArchivedNever.contains(key) { return false }
        if Self.keysArchivedAlways.contains(key) { return true }
        return keyRecord.wasSet(key)
    }

    /// Sets `autoresizingMask`, telling its observers and recording that it was set.
    func setAutoresizingMask(_ mask: CAAutoresizingMask) {
        settingKey("autoresizingMask") { layoutState.autoresizingMask = mask }
    }

    /// Copies which keys `other` was given (what `init(layer:)` copies with the values).
    func copySetKeys(from other: CALayer) {
        keyRecord.setProperties = other.keyRecord.setProperties
        keyRecord.setKeys = other.keyRecord.setKeys
    }
}
