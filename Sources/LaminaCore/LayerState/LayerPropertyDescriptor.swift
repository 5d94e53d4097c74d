import Foundation

/// Everything Lamina knows about one layer property, declared once in `LayerPropertyDescriptor.table`:
/// its key, wire code, value kind, default, validation and clamping, whether and how it animates,
/// and how `laminactl tree` prints it.
///
/// The codec, the server's validation, key-value coding, key paths, commit diffing and the tree
/// printer all read these rows; docs/architecture.md ("Adding a layer property") is the recipe.
///
/// A row is a class so that reading one from the table (every set, diff and validation does) costs one
/// reference count, not a copy of its strings.
public final class LayerPropertyDescriptor: Sendable {
    /// How values are checked and clamped, beyond the checks every value of the kind gets (numbers
    /// finite, colour components finite and in 0...1, no unknown corner or edge bits, strings no longer
    /// than the wire allows).
    public enum Constraint: Sendable, Hashable {
        /// The kind's checks only.
        case none
        /// Refused below 0 in a set-property operation (for a rect: its size); clamped to 0 when an
        /// animation or key-value coding writes it.
        case nonNegative
        /// Clamped to 0...1 wherever it is written from outside (the server's apply, animations,
        /// key-value coding), never refused for its range.
        case unitInterval
        /// A dash pattern (`lineDashPattern`): refused when a length is negative, or when the lengths
        /// of a non-empty pattern add up to 0 (a pattern of zeros would dash forever).
        case dashPattern
    }

    /// How a property animates.
    public struct Animation: Sendable, Hashable {
        /// The property's code in an animation's target on the wire (the `u8` property of a key path).
        public let code: UInt8
        /// Whether a change runs the built-in implicit animation when nothing else provides an action
        /// (App. B lists one for the property).
        public let isImplicit: Bool
        /// The action a change runs when nothing else provides one (App. B): a `CABasicAnimation`
        /// from the old value with the transaction's duration and timing function.
        public static func basic(code: UInt8) -> Animation { Animation(code: code, isImplicit: true) }
        /// Animated by explicit animations only: App. B gives the property no default implicit
        /// animation (`doubleSided`) or does not list it (`contentsScale`), so a change runs an action
        /// only when the delegate, `actions`, `style` or `defaultAction(forKey:)` provides one.
        public static func explicit(code: UInt8) -> Animation { Animation(code: code, isImplicit: false) }
    }

    /// How `laminactl tree` prints a property after the layer's id.
    public enum TreeFormat: Sendable, Hashable {
        /// Not printed.
        case omitted
        /// Printed in double quotes right after the id, when present.
        case label
        /// Always printed as `label=value`.
        case always(String)
        /// Printed as `label=value` when it differs from the default; a companion's value, when
        /// present, follows after a space (`border=2 #ff0000ff`).
        case unlessDefault(String, then: LayerPropertyName? = nil)
        /// The bare label, printed when the value differs from the default.
        case flag(String)
    }

    /// The property.
    public let name: LayerPropertyName
    /// Core Animation's key for it (`"hidden"` for `isHidden`).
    public let key: String
    /// The kind of its value, which fixes its wire layout.
    public let kind: LayerValue.Kind
    /// Its validation and clamping.
    public let constraint: Constraint
    /// How it animates, or nil when it does not.
    public let animation: Animation?
    /// How the tree printer shows it.
    public let tree: TreeFormat
    /// The class whose layers have the property: `.layer` for every layer, any other class for its
    /// layers alone (docs/architecture.md, "Adding a layer class").
    public let layerClass: LayerClass
    /// Whether the client keeps the property under its key as a value of its own class (like a custom
    /// key: key-value coding, archiving and client-side animation go through the class), and the row
    /// carries a copy of the model value to the server, which prints it or reads it for drawing.
    /// `LayerPropertyName(key:)` does not find such a row. `CATextLayer`'s text properties, drawn by
    /// the client, are kept so.
    public let isClientKept: Bool

    /// A row of the table.
    public init(
        _ name: LayerPropertyName, _ key: String, _ kind: LayerValue.Kind, _ constraint: Constraint = .none,
        of layerClass: LayerClass = .layer, animation: Animation? = nil, tree: TreeFormat = .omitted,
        clientKept: Bool = false
    ) {
        self.isClientKept = clientKept
        self.name = name
        self.key = key
        self.kind = kind
        self.constraint = constraint
        self.layerClass = layerClass
        self.animation = animation
        self.tree = tree
    }

    /// Whether a layer of class `owner` has this property: every layer has the rows of `.layer`.
    @inline(__always)
    public func belongs(to owner: LayerClass) -> Bool { layerClass == .layer || layerClass == owner }

    /// The most elements a path value may have (`CAShapeLayer.path`; also the wire's bound).
    public static let maxPathElements = 8192
    /// The most entries a list value may have (`lineDashPattern`, `colors`, `locations`).
    public static let maxListElements = 1024

    /// The code of a set-property operation for this property.
    public var code: UInt8 { name.rawValue }

    /// Whether the property animates (implicitly when changed, and under explicit animations).
    public var isAnimatable: Bool { animation != nil }

    /// The value of a new layer (Core Animation's default): the initial value of the `LayerState` field,
    /// or for a class's row of its field in the class's storage (`ShapeLayerState`, ...).
    public var defaultValue: LayerValue { LayerState.defaults[name] }

    /// `value` clamped by the constraint (`unitInterval` into 0...1, `nonNegative` up to 0).
    /// Values that are not finite are returned unchanged.
    @inline(__always)
    public func clamped(_ value: LayerValue) -> LayerValue { Self.clamped(value, by: constraint) }

    /// Why `value` cannot be set, or nil when it is valid: the kind's checks, then the constraint.
    /// `maxStringBytes` bounds strings (the wire's limit).
    public func invalidReason(_ value: LayerValue, maxStringBytes: Int) -> String? {
        switch value {
        case .rect(let r):
            if !(r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite) {
                return "\(key) has a NaN or infinite component"
            }
            if constraint == .nonNegative && (r.size.width < 0 || r.size.height < 0) {
                return "\(key) has a negative size"
            }
        case .point(let p):
            if !(p.x.isFinite && p.y.isFinite) { return "\(key) has a NaN or infinite component" }
        case .size(let s):
            if !(s.width.isFinite && s.height.isFinite) { return "\(key) has a NaN or infinite component" }
        case .number(let v):
            if !v.isFinite { return "\(key) is NaN or infinite" }
            if constraint == .nonNegative && v < 0 { return "\(key) is negative" }
            if name == .instanceCount && v > Double(ReplicatorLayerState.maxInstanceCount) {
                return "\(key) is above \(ReplicatorLayerState.maxInstanceCount)"
            }
            if name == .compositingFilter && LayerBlendMode(code: v) == nil {
                return "\(key) has an unknown blend mode code \(v)"
            }
        case .float(let v):
            if !v.isFinite { return "\(key) is NaN or infinite" }
            if constraint == .nonNegative && v < 0 { return "\(key) is negative" }
        case .transform(let t):
            if !t.isFinite { return "\(key) has a NaN or infinite entry" }
        case .color(let c):
            if let c, !c.isValid { return "\(key) has a component outside 0...1 or not finite" }
        case .corners(let m):
            if m.rawValue & ~CACornerMask.all.rawValue != 0 { return "\(key) has unknown bits" }
        case .edges(let m):
            if m.rawValue & ~CAEdgeAntialiasingMask.all.rawValue != 0 { return "\(key) has unknown bits" }
        case .string(let s):
            if let s, s.utf8.count > maxStringBytes { return "\(key) is longer than \(maxStringBytes) bytes" }
        case .path(let p):
            guard let p else { break }
            if p.elementCount > Self.maxPathElements {
                return "\(key) has \(p.elementCount) elements, more than \(Self.maxPathElements)"
            }
            if !p.hasOnlyFinitePoints { return "\(key) has a NaN or infinite point" }
        case .numbers(let list):
            guard let list else { break }
            if list.count > Self.maxListElements {
                return "\(key) has \(list.count) entries, more than \(Self.maxListElements)"
            }
            if !list.allSatisfy(\.isFinite) { return "\(key) has a NaN or infinite entry" }
            if constraint == .dashPattern {
                if list.contains(where: { $0 < 0 }) { return "\(key) has a negative length" }
                if !list.isEmpty && list.reduce(0, +) <= 0 { return "\(key) has no length above 0" }
            }
        case .colors(let list):
            guard let list else { break }
            if list.count > Self.maxListElements {
                return "\(key) has \(list.count) colours, more than \(Self.maxListElements)"
            }
            if !list.allSatisfy(\.isValid) { return "\(key) has a component outside 0...1 or not finite" }
        case .filters(let list):
            return LayerFilter.invalidReason(list, key: key)
        case .bool, .image:
            break
        }
        return nil
    }
}
