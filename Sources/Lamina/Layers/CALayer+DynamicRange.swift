import Foundation

extension CALayer {
    /// How a layer's content may use a display's extended dynamic range (Apple's
    /// `CALayer.DynamicRange`).
    public struct DynamicRange: RawRepresentable, Hashable, Sendable {
        /// The name, as Core Animation spells it.
        public let rawValue: String
        /// Wraps a raw name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The system decides.
        public static let automatic = DynamicRange(rawValue: "automatic")
        /// Standard dynamic range only (the default).
        public static let standard = DynamicRange(rawValue: "standard")
        /// Extended range, limited to sit well beside other content.
        public static let constrainedHigh = DynamicRange(rawValue: "constrainedHigh")
        /// The display's whole extended range.
        public static let high = DynamicRange(rawValue: "high")

        /// The range itself when Apple defines its name; nil otherwise.
        var known: DynamicRange? { [.automatic, .standard, .constrainedHigh, .high].contains(self) ? self : nil }
    }

    /// Whether a layer's extended-range content is tone mapped (Apple's `CALayer.ToneMapMode`).
    public struct ToneMapMode: RawRepresentable, Hashable, Sendable {
        /// The name, as Core Animation spells it.
        public let rawValue: String
        /// Wraps a raw name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The system decides (the default).
        public static let automatic = ToneMapMode(rawValue: "automatic")
        /// Never tone mapped.
        public static let never = ToneMapMode(rawValue: "never")
        /// Tone mapped where the display supports it.
        public static let ifSupported = ToneMapMode(rawValue: "ifSupported")

        /// The mode itself when Apple defines its name; nil otherwise.
        var known: ToneMapMode? { [.automatic, .never, .ifSupported].contains(self) ? self : nil }
    }

    /// The pixel format of the layer's backing store; `.RGBA8Uint` by default, and what a name Apple
    /// does not define becomes, as on Apple platforms. Stored only: Lamina draws every layer in 8-bit
    /// RGBA, so it has no effect yet. Not sent to the render server.
    public var contentsFormat: CALayerContentsFormat {
        get {
            (kvcStorage["contentsFormat"] as? String).map(CALayerContentsFormat.init(rawValue:))?.known ?? .RGBA8Uint
        }
        set { settingKey("contentsFormat") { kvcStorage["contentsFormat"] = (newValue.known ?? .RGBA8Uint).rawValue } }
    }

    /// The dynamic range the layer's content would like; `.standard` by default, and what a name Apple
    /// does not define becomes, as on Apple platforms. Stored only: Lamina renders standard dynamic
    /// range, so it has no effect yet. Not sent to the render server.
    public var preferredDynamicRange: DynamicRange {
        get { (kvcStorage["preferredDynamicRange"] as? String).map(DynamicRange.init(rawValue:))?.known ?? .standard }
        set {
            settingKey("preferredDynamicRange") {
                kvcStorage["preferredDynamicRange"] = (newValue.known ?? .standard).rawValue
            }
        }
    }

    /// Whether extended-range content is tone mapped; `.automatic` by default, and what a name Apple
    /// does not define becomes. Stored only: no effect yet. Not sent to the render server.
    public var toneMapMode: ToneMapMode {
        get { (kvcStorage["toneMapMode"] as? String).map(ToneMapMode.init(rawValue:))?.known ?? .automatic }
        set { settingKey("toneMapMode") { kvcStorage["toneMapMode"] = (newValue.known ?? .automatic).rawValue } }
    }

    /// The headroom of the layer's contents above standard white; 0 (unknown) by default. Stored only:
    /// no effect yet. Not sent to the render server.
    public var contentsHeadroom: CGFloat {
        get { CGFloat((kvcStorage["contentsHeadroom"] as? NSNumber)?.doubleValue ?? 0) }
        set { settingKey("contentsHeadroom") { kvcStorage["contentsHeadroom"] = NSNumber(value: Double(newValue)) } }
    }

    /// Whether the layer's contents may use extended dynamic range; false by default. Stored only: no
    /// effect yet. Not sent to the render server.
    public var wantsExtendedDynamicRangeContent: Bool {
        get { (kvcStorage["wantsExtendedDynamicRangeContent"] as? NSNumber)?.boolValue ?? false }
        set {
            settingKey("wantsExtendedDynamicRangeContent") {
                kvcStorage["wantsExtendedDynamicRangeContent"] = NSNumber(value: newValue)
            }
        }
    }

    /// Whether the layer's contents are redrawn at the scale they are shown at (Apple's iOS 17
    /// property); false by default, with no class default, and never archived, as on Apple
    /// platforms. Stored only: no effect. Not sent to the render server.
    public var wantsDynamicContentScaling: Bool {
        get { (kvcStorage["wantsDynamicContentScaling"] as? NSNumber)?.boolValue ?? false }
        set {
            settingKey("wantsDynamicContentScaling") {
                kvcStorage["wantsDynamicContentScaling"] = NSNumber(value: newValue)
            }
        }
    }

    /// The defaults of the dynamic-range keys, as key-value coding returns them; nil for other keys.
    static func dynamicRangeDefault(forKey key: String) -> Any? {
        switch key {
        case "contentsFormat": CALayerContentsFormat.RGBA8Uint.rawValue
        case "preferredDynamicRange": DynamicRange.standard.rawValue
        case "toneMapMode": ToneMapMode.automatic.rawValue
        case "contentsHeadroom": NSNumber(value: Double(0))
        case "wantsExtendedDynamicRangeContent": NSNumber(value: false)
        default: nil
        }
    }
}
