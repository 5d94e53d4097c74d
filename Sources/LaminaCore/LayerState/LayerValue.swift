import Foundation

/// The value of one layer property, typed by how `LayerState` stores it.
///
/// This is the form the property table works in: the codec writes it, the server validates and
/// clamps it, the tree printer formats it and key-value coding converts it to and from
/// `AnimationValue`. `LayerState[_:]` reads and writes it without allocating, except for the box that
/// holds a transform (boxed so that every other value stays small to copy).
public enum LayerValue: Sendable, Hashable {
    /// A `CGFloat` or `Double` field: `zPosition`, `cornerRadius`, `beginTime`, ...
    case number(Double)
    /// A `Float` field: `opacity`.
    case float(Float)
    /// A `CGPoint` field: `position`, `anchorPoint`.
    case point(CGPoint)
    /// A `CGRect` field: `bounds`.
    case rect(CGRect)
    /// A `CATransform3D` field: `transform`, `sublayerTransform`.
    indirect case transform(CATransform3D)
    /// A `Bool` field: `hidden`, `masksToBounds`.
    case bool(Bool)
    /// An optional colour: `backgroundColor`, `borderColor`.
    case color(RGBAColor?)
    /// A corner mask: `maskedCorners`.
    case corners(CACornerMask)
    /// An optional string: `name`, `cornerCurve`, `contentsGravity`, the contents filters.
    case string(String?)
    /// An edge mask: `edgeAntialiasingMask`.
    case edges(CAEdgeAntialiasingMask)
    /// An image id: `contents` (the client's id of an uploaded image, 0 for none).
    case image(UInt64)
    /// An optional path: `CAShapeLayer.path` (an immutable copy).
    case path(CGPath?)
    /// An optional list of numbers: `lineDashPattern`, `CAGradientLayer.locations`.
    case numbers([Double]?)
    /// An optional list of colours: `CAGradientLayer.colors`.
    case colors([RGBAColor]?)
    /// A `CGSize` field: `shadowOffset`.
    case size(CGSize)
    /// A list of Core Image filters: `filters`, `backgroundFilters` (empty for none).
    case filters([LayerFilter])

    /// The kinds of value; each has one layout on the wire (docs/protocol.md §7).
    public enum Kind: UInt8, Sendable, Hashable {
        /// `f64`.
        case number = 1
        /// `f64`, stored as a 32-bit float.
        case float
        /// Two `f64`.
        case point
        /// Four `f64`.
        case rect
        /// Sixteen `f64`, `m11` to `m44`.
        case transform
        /// A byte, 0 or 1.
        case bool
        /// A presence byte, then four `f64` when present.
        case color
        /// A `u32` bit set.
        case corners
        /// A presence byte, then a length-prefixed UTF-8 string when present.
        case string
        /// A `u32` bit set.
        case edges
        /// A `u64` image id, 0 for none.
        case image
        /// A presence byte, then a path when present: a `u32` element count and the elements.
        case path
        /// A presence byte, then a `u32` count and that many `f64` when present.
        case numbers
        /// A presence byte, then a `u32` count and that many colours when present.
        case colors
        /// Two `f64`, width then height.
        case size
        /// A `u8` count (at most `LayerFilter.maxFilters`), then per filter its Core Image name and its
        /// key-path name (length-prefixed UTF-8, at most `LayerFilter.maxNameBytes`) and its radius (`f64`).
        case filters

        /// The kind of `AnimationValue` an animation of a property of this kind carries, or nil when
        /// such a property cannot be animated.
        public var animationKind: AnimationValue.Kind? {
            switch self {
            case .number, .float: .number
            case .point: .point
            case .rect: .rect
            case .transform: .transform
            case .bool: .bool
            case .color: .color
            case .image: .image
            case .path: .path
            case .numbers: .numbers
            case .colors: .colors
            case .size: .size
            case .corners, .string, .edges, .filters: nil
            }
        }
    }

    /// The kind of this value.
    public var kind: Kind {
        switch self {
        case .number: .number
        case .float: .float
        case .point: .point
        case .rect: .rect
        case .transform: .transform
        case .bool: .bool
        case .color: .color
        case .corners: .corners
        case .string: .string
        case .edges: .edges
        case .image: .image
        case .path: .path
        case .numbers: .numbers
        case .colors: .colors
        case .size: .size
        case .filters: .filters
        }
    }

    /// The value as animations carry it, or nil for the kinds that cannot be animated.
    @inline(__always)
    public var animationValue: AnimationValue? {
        switch self {
        case .number(let v): .number(v)
        case .float(let v): .number(Double(v))
        case .point(let p): .point(p)
        case .rect(let r): .rect(r)
        case .transform(let t): .transform(t)
        case .bool(let b): .bool(b)
        case .color(let c): .color(c)
        case .image(let id): .image(id)
        case .path(let p): .path(p)
        case .numbers(let n): .numbers(n)
        case .colors(let c): .colors(c)
        case .size(let s): .size(s)
        case .corners, .string, .edges, .filters: nil
        }
    }

    /// Converts an animation value into a value of `kind`; nil when the kinds do not correspond.
    @inline(__always)
    public init?(_ value: AnimationValue, as kind: Kind) {
        switch (kind, value) {
        case (.number, .number(let v)): self = .number(v)
        case (.float, .number(let v)): self = .float(Float(v))
        case (.point, .point(let p)): self = .point(p)
        case (.rect, .rect(let r)): self = .rect(r)
        case (.transform, .transform(let t)): self = .transform(t)
        case (.bool, .bool(let b)): self = .bool(b)
        case (.color, .color(let c)): self = .color(c)
        case (.image, .image(let id)): self = .image(id)
        case (.path, .path(let p)): self = .path(p)
        case (.numbers, .numbers(let n)): self = .numbers(n)
        case (.colors, .colors(let c)): self = .colors(c)
        case (.size, .size(let s)): self = .size(s)
        default: return nil
        }
    }
}
