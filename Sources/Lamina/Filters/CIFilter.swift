import Foundation
import LaminaCore

/// The key of a filter's input image (Core Image's `kCIInputImageKey`).
public let kCIInputImageKey = "inputImage"
/// The key of a blend filter's backdrop image (Core Image's `kCIInputBackgroundImageKey`).
public let kCIInputBackgroundImageKey = "inputBackgroundImage"
/// The key of a blur's radius (Core Image's `kCIInputRadiusKey`).
public let kCIInputRadiusKey = "inputRadius"
/// The key of a filter's output image (Core Image's `kCIOutputImageKey`).
public let kCIOutputImageKey = "outputImage"
/// The attribute naming a filter (Core Image's `kCIAttributeFilterName`).
public let kCIAttributeFilterName = "CIAttributeFilterName"
/// The attribute holding an input's default value (Core Image's `kCIAttributeDefault`).
public let kCIAttributeDefault = "CIAttributeDefault"
/// The attribute holding an input's smallest value (Core Image's `kCIAttributeMin`).
public let kCIAttributeMin = "CIAttributeMin"
/// The attribute holding an input's class name (Core Image's `kCIAttributeClass`).
public let kCIAttributeClass = "CIAttributeClass"

/// A Core Image filter as Core Animation uses it: a name and input parameters, given to a layer's
/// `filters`, `backgroundFilters` or `compositingFilter` (Apple's `CIFilter`).
///
/// Lamina applies no filter to images itself: the render server draws the filters a layer names
/// (`CIGaussianBlur` with `inputRadius`, and the separable `CI…BlendMode` filters as a compositing
/// filter). `init?(name:)` knows those by name and sets their inputs to Apple's defaults
/// (`inputRadius` 10); any other name that starts with `CI` makes an inert filter that keeps any
/// value set on it and that a layer ignores (docs/apple-differences.md); other names give nil, as on
/// Apple platforms for a name Core Image does not have.
///
/// Values are stored by key, so key-value coding answers any key. A layer keeps its own copies of the
/// filters it is given: change a filter after attaching it through the layer's key paths
/// (`filters.NAME.inputRadius`), not through the object. Filters copy and archive.
open class CIFilter: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// The values set, by key (`inputRadius`, `enabled`, ...).
    var storage: [String: Any] = [:]
    /// The Core Image name the filter was created with (`CIGaussianBlur`).
    let filterName: String
    /// The filter's name in layer key paths; starts as the Core Image name.
    var storedName: String

    /// The Core Image names Lamina knows, with their input keys: the Gaussian blur and the separable
    /// blend modes.
    static let knownInputKeys: [String: [String]] = {
        var table = [LayerFilter.gaussianBlurName: [kCIInputImageKey, kCIInputRadiusKey]]
        for mode in LayerBlendMode.allCases {
            if let name = mode.filterName { table[name] = [kCIInputImageKey, kCIInputBackgroundImageKey] }
        }
        return table
    }()

    /// Whether `name` makes a filter: a name Lamina knows, or any other `CI…` name (an inert filter).
    static func accepts(_ name: String) -> Bool {
        knownInputKeys[name] != nil || (name.hasPrefix("CI") && name.count > 2)
    }

    /// Creates the filter named `name` with its inputs at their defaults; nil for a name that is not a
    /// Core Image filter name (`CI…`).
    public init?(name: String) {
        guard Self.accepts(name) else { return nil }
        filterName = name
        storedName = name
        super.init()
        setDefaults()
    }

    /// Creates the filter named `name` with its defaults, then `parameters` set by key; nil for a name
    /// that is not a Core Image filter name.
    public convenience init?(name: String, parameters: [String: Any]?) {
        self.init(name: name)
        for (key, value) in parameters ?? [:] { setValue(value, forKey: key) }
    }

    /// Creates a filter from an archive written by `encode(with:)`; nil when it is damaged.
    public required init?(coder: NSCoder) {
        guard let filterName = coder.decodeObject(of: NSString.self, forKey: "lamina.filterName") as String?,
            Self.accepts(filterName)
        else { return nil }
        self.filterName = filterName
        storedName = coder.decodeObject(of: NSString.self, forKey: "name") as String? ?? filterName
        super.init()
        storage = coder.decodeStoredValues(prefix: "lamina.filter")
    }

    /// Filters archive securely.
    public static var supportsSecureCoding: Bool { true }

    /// Writes the filter's Core Image name, its name and its values (numbers, strings, colours and
    /// the other values Lamina boxes).
    public func encode(with coder: NSCoder) {
        coder.encode(NSString(string: filterName), forKey: "lamina.filterName")
        coder.encode(NSString(string: storedName), forKey: "name")
        coder.encodeStoredValues(storage, prefix: "lamina.filter", archiving: { _ in true })
    }

    /// A filter with the same Core Image name, name and values.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = CIFilter(copying: self)
        return copy
    }

    /// A copy of `other`.
    init(copying other: CIFilter) {
        filterName = other.filterName
        storedName = other.storedName
        storage = other.storage
        super.init()
    }

    // MARK: Name and inputs

    /// The filter's name: its Core Image name (`CIGaussianBlur`) until set. Core Animation finds the
    /// filter by it in key paths (`filters.NAME.inputRadius`), as on macOS, where it is settable.
    open var name: String {
        get { storedName }
        set { storedName = newValue }
    }

    /// Whether a layer applies the filter; true by default (Core Animation's `enabled` key on macOS).
    open var isEnabled: Bool {
        get { (value(forKey: "enabled") as? NSNumber)?.boolValue ?? (value(forKey: "enabled") as? Bool) ?? true }
        set { setValue(NSNumber(value: newValue), forKey: "enabled") }
    }

    /// The names of the filter's inputs (`inputImage`, `inputRadius` for `CIGaussianBlur`); empty for
    /// a filter Lamina does not know.
    open var inputKeys: [String] { Self.knownInputKeys[filterName] ?? [] }

    /// The names of the filter's outputs: `outputImage`.
    open var outputKeys: [String] { [kCIOutputImageKey] }

    /// The filter's attributes: its name under `kCIAttributeFilterName`, and for each input with a
    /// default its default under `kCIAttributeDefault` (and the smallest value, 0, of `inputRadius`).
    open var attributes: [String: Any] {
        var out: [String: Any] = [kCIAttributeFilterName: filterName]
        if filterName == LayerFilter.gaussianBlurName {
            out[kCIInputRadiusKey] =
                [
                    kCIAttributeDefault: NSNumber(value: LayerFilter.defaultBlurRadius),
                    kCIAttributeMin: NSNumber(value: 0),
                    kCIAttributeClass: "NSNumber",
                ] as [String: Any]
        }
        return out
    }

    /// Sets every input that has a default to it (`inputRadius` 10 for `CIGaussianBlur`).
    open func setDefaults() {
        if filterName == LayerFilter.gaussianBlurName {
            storage[kCIInputRadiusKey] = NSNumber(value: LayerFilter.defaultBlurRadius)
        }
    }

    /// Stores any value under any key; nil (or `NSNull`) removes it.
    open func setValue(_ value: Any?, forKey key: String) {
        if key == "name", let text = value as? String {
            storedName = text
            return
        }
        storage[key] = value is NSNull ? nil : value
    }

    /// The value stored under `key` (`name` gives the filter's name), or nil.
    open func value(forKey key: String) -> Any? {
        key == "name" ? storedName : storage[key]
    }

    /// A description naming the filter and its values.
    open override var description: String {
        let values = storage.keys.sorted().map { "\($0)=\(storage[$0]!)" }.joined(separator: " ")
        return "<CIFilter \(filterName) name=\(storedName)\(values.isEmpty ? "" : " " + values)>"
    }

    // MARK: What the render server draws

    /// A filter made from the server's form: its Core Image name, name and blur radius.
    convenience init?(layerFilter: LayerFilter) {
        self.init(name: layerFilter.filterName)
        storedName = layerFilter.name
        if layerFilter.isGaussianBlur { storage[kCIInputRadiusKey] = NSNumber(value: layerFilter.radius) }
    }

    /// The blur radius the server draws with: `inputRadius` as a number (0 when it is none).
    var radius: Double { AnimationValue.number(value(forKey: kCIInputRadiusKey) as Any) ?? 0 }

    /// The server's form of the filter.
    var layerFilter: LayerFilter {
        LayerFilter(
            filterName: filterName, name: storedName, radius: filterName == LayerFilter.gaussianBlurName ? radius : 0)
    }
}
