import Foundation

/// An animatable layer property, or a field or virtual component of one, named by a Core Animation
/// key path such as `"opacity"`, `"position.x"`, `"bounds.size.width"` or `"transform.rotation.z"`.
///
/// Key paths are parsed once, on the client; the render server receives the parsed form. Reading
/// and writing go through `value(in:)` and `set(_:in:)`, the one place that knows how each path
/// maps onto `LayerState`, so `CALayer.value(forKeyPath:)`, presentation layers and the server's
/// frames agree.
public struct LayerKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// The layer property at the root of the key path: one row of `LayerPropertyDescriptor.table`.
    /// Only animatable properties are parsed from strings.
    public typealias Property = LayerPropertyName

    /// A field of a structure-valued property (§8.5–§8.7) or a virtual transform component (§8.4).
    public enum Component: Sendable, Hashable {
        /// `x` or `y` of a point.
        case pointX, pointY
        /// `width` or `height` of a size.
        case width, height
        /// Fields of a rect: `origin` (a point), `origin.x`, `origin.y`, `size` (a size),
        /// `size.width`, `size.height`.
        case origin, originX, originY, size, sizeWidth, sizeHeight
        /// A virtual component of a transform (`rotation.z`, `scale`, `translation.x`, ...).
        case transform(TransformComponent)
        /// `translation` of a transform: x and y as a `CGSize`.
        case translation
        /// `NAME.inputRadius` of a filter list (`filters.blur.inputRadius`): the radius of the filter
        /// named NAME. On the wire its code is followed by the name (docs/protocol.md §8).
        case filterRadius(String)

        /// The key-path suffix naming the component.
        public var path: String {
            switch self {
            case .pointX: "x"
            case .pointY: "y"
            case .width: "width"
            case .height: "height"
            case .origin: "origin"
            case .originX: "origin.x"
            case .originY: "origin.y"
            case .size: "size"
            case .sizeWidth: "size.width"
            case .sizeHeight: "size.height"
            case .translation: "translation"
            case .transform(let c): c.keyPath
            case .filterRadius(let name): "\(name).\(LayerKeyPath.inputRadiusKey)"
            }
        }

        /// The kind of the component's value.
        public var kind: AnimationValue.Kind {
            switch self {
            case .origin: .point
            case .size, .translation: .size
            default: .number
            }
        }

        /// A stable number for the wire.
        public var code: UInt8 {
            switch self {
            case .pointX: 1
            case .pointY: 2
            case .width: 3
            case .height: 4
            case .origin: 5
            case .originX: 6
            case .originY: 7
            case .size: 8
            case .sizeWidth: 9
            case .sizeHeight: 10
            case .translation: 11
            case .filterRadius: Self.filterRadiusCode
            case .transform(let c): 32 + c.rawValue
            }
        }

        /// The wire number of `filterRadius`, whose name follows it.
        public static let filterRadiusCode: UInt8 = 16

        /// The component with wire number `code`, or nil (`filterRadiusCode` too: its name travels apart).
        public init?(code: UInt8) {
            switch code {
            case 1: self = .pointX
            case 2: self = .pointY
            case 3: self = .width
            case 4: self = .height
            case 5: self = .origin
            case 6: self = .originX
            case 7: self = .originY
            case 8: self = .size
            case 9: self = .sizeWidth
            case 10: self = .sizeHeight
            case 11: self = .translation
            case 33...255:
                guard let c = TransformComponent(rawValue: code - 32) else { return nil }
                self = .transform(c)
            default: return nil
            }
        }

        /// The components a property of `kind` has, by suffix.
        static func parse(_ suffix: String, of kind: AnimationValue.Kind) -> Component? {
            let candidates: [Component]
            switch kind {
            case .point: candidates = [.pointX, .pointY]
            case .size: candidates = [.width, .height]
            case .rect: candidates = [.origin, .originX, .originY, .size, .sizeWidth, .sizeHeight]
            case .transform:
                candidates = [.translation] + TransformComponent.allCases.map { .transform($0) }
            default: candidates = []
            }
            if let c = candidates.first(where: { $0.path == suffix }) { return c }
            // `transform.rotation` means rotation about z (§8.4).
            if kind == .transform && suffix == "rotation" { return .transform(.rotationZ) }
            return nil
        }
    }

    /// The property at the root of the path.
    public let property: Property
    /// The field or component below it, or nil for the whole property.
    public let component: Component?

    /// A key path for a whole property or one of its components.
    public init(_ property: Property, _ component: Component? = nil) {
        self.property = property
        self.component = component
    }

    /// Parses a Core Animation key path; nil when Lamina has no animatable property there.
    public init?(_ string: String) {
        // A string without a "." byte has no "." character either: a whole property (the key of
        // every property change's action), found without the character search below. No filter
        // path has fewer than two dots, so none is looked for.
        guard string.utf8.contains(UInt8(ascii: ".")), let dot = string.firstIndex(of: ".") else {
            guard let property = Property(key: string), property.descriptor.isAnimatable else { return nil }
            self.property = property
            component = nil
            return
        }
        if let (property, name) = Self.filterRadiusPath(string) {
            self.property = property
            component = .filterRadius(name)
            return
        }
        guard let property = Property(key: String(string[..<dot])), property.descriptor.isAnimatable,
            let c = Component.parse(String(string[string.index(after: dot)...]), of: property.kind)
        else { return nil }
        self.property = property
        component = c
    }

    /// The key path as Core Animation spells it (`transform.rotation` comes back as `transform.rotation.z`).
    public var description: String {
        component.map { "\(property.key).\($0.path)" } ?? property.key
    }

    /// The kind of value found at this path.
    public var kind: AnimationValue.Kind { component?.kind ?? property.kind }

    /// The property's whole value in `state`, as animations carry it (a property that cannot be
    /// animated, which no parsed key path names, reads as `.number(0)`).
    public static func value(of property: Property, in state: LayerState) -> AnimationValue {
        state[property].animationValue ?? .number(0)
    }

    /// The value at this path in `state`.
    public func value(in state: LayerState) -> AnimationValue {
        if case .filterRadius(let name) = component {
            guard case .filters(let list) = state[property], let filter = list.first(where: { $0.name == name })
            else { return .number(0) }
            return .number(filter.radius)
        }
        let whole = Self.value(of: property, in: state)
        guard let component else { return whole }
        return Self.extract(component, from: whole)
    }

    /// Writes `value` at this path into `state`; returns false (changing nothing) when the value's
    /// kind does not match `kind`. The value is clamped by the property's constraint
    /// (`LayerPropertyDescriptor.clamped(_:)`): opacity to 0...1, negative sizes, radii and widths to 0.
    @discardableResult
    public func set(_ value: AnimationValue, in state: inout LayerState) -> Bool {
        guard value.kind == kind else { return false }
        if case .filterRadius(let name) = component {
            guard case .number(let radius) = value, case .filters(var list) = state[property],
                let index = list.firstIndex(where: { $0.name == name })
            else { return false }
            list[index].radius = radius.isNaN ? 0 : max(radius, 0)
            state[property] = .filters(list)
            return true
        }
        var whole = value
        if let component {
            whole = Self.insert(value, at: component, into: Self.value(of: property, in: state))
        }
        guard let typed = LayerValue(whole, as: property.valueKind) else { return false }
        state[property] = LayerPropertyDescriptor.clamped(typed, by: property.constraint)
        return true
    }

    /// The key of a blur's radius in filter key paths (Core Image's `kCIInputRadiusKey`).
    public static let inputRadiusKey = "inputRadius"

    /// The property and filter name of a key path `filters.NAME.inputRadius` or
    /// `backgroundFilters.NAME.inputRadius` (NAME not empty, without dots); nil for other paths.
    public static func filterRadiusPath(_ string: String) -> (Property, String)? {
        let parts = string.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[1].isEmpty, parts[2] == inputRadiusKey else { return nil }
        switch parts[0] {
        case "filters": return (.filters, String(parts[1]))
        case "backgroundFilters": return (.backgroundFilters, String(parts[1]))
        default: return nil
        }
    }

    static func extract(_ component: Component, from whole: AnimationValue) -> AnimationValue {
        switch (component, whole) {
        case (.pointX, .point(let p)): .number(p.x)
        case (.pointY, .point(let p)): .number(p.y)
        case (.width, .size(let s)): .number(s.width)
        case (.height, .size(let s)): .number(s.height)
        case (.origin, .rect(let r)): .point(r.origin)
        case (.originX, .rect(let r)): .number(r.origin.x)
        case (.originY, .rect(let r)): .number(r.origin.y)
        case (.size, .rect(let r)): .size(r.size)
        case (.sizeWidth, .rect(let r)): .number(r.width)
        case (.sizeHeight, .rect(let r)): .number(r.height)
        case (.translation, .transform(let t)): .size(t.translationXY)
        case (.transform(let c), .transform(let t)): .number(t.component(c))
        default: whole
        }
    }

    static func insert(_ value: AnimationValue, at component: Component, into whole: AnimationValue) -> AnimationValue {
        switch (component, whole, value) {
        case (.pointX, .point(var p), .number(let v)): p.x = v; return .point(p)
        case (.pointY, .point(var p), .number(let v)): p.y = v; return .point(p)
        case (.width, .size(var s), .number(let v)): s.width = v; return .size(s)
        case (.height, .size(var s), .number(let v)): s.height = v; return .size(s)
        case (.origin, .rect(var r), .point(let p)): r.origin = p; return .rect(r)
        case (.originX, .rect(var r), .number(let v)): r.origin.x = v; return .rect(r)
        case (.originY, .rect(var r), .number(let v)): r.origin.y = v; return .rect(r)
        case (.size, .rect(var r), .size(let s)): r.size = s; return .rect(r)
        case (.sizeWidth, .rect(var r), .number(let v)): r.size.width = v; return .rect(r)
        case (.sizeHeight, .rect(var r), .number(let v)): r.size.height = v; return .rect(r)
        case (.translation, .transform(let t), .size(let s)): return .transform(t.settingTranslationXY(s))
        case (.transform(let c), .transform(let t), .number(let v)): return .transform(t.setting(c, to: v))
        default: return whole
        }
    }
}

extension LayerPropertyName {
    /// The kind of the whole property's value as animations carry it (`.number` for the properties
    /// that cannot be animated and have no such kind: `maskedCorners`, `name`).
    public var kind: AnimationValue.Kind { valueKind.animationKind ?? .number }
}
