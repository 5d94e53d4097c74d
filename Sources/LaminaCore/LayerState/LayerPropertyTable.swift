import Foundation

extension LayerPropertyDescriptor {
    /// Every layer property, in wire-code order (row *i* has code *i* + 1): the rows every layer has,
    /// then each layer class's own rows (`shapeRows`, `gradientRows`), the shadow's rows every layer
    /// has (`shadowRows`), then `CATextLayer`'s (`textRows`), `CAReplicatorLayer`'s
    /// (`replicatorRows`), `CAEmitterLayer`'s (`emitterRows`) and the filters every layer has (`filterRows`):
    /// one block each, in the order they were
    /// added. This is the one place a property is declared; `LayerState` (or its class's storage in
    /// `LayerClassState`) holds its storage and default, `LayerState[_:]` and `LayerProperty` its
    /// typed access, and `CALayer` (or the class) its accessor.
    public static let table: [LayerPropertyDescriptor] = {
        let rows =
            baseRows + shapeRows + gradientRows + shadowRows + textRows + replicatorRows
            + emitterRows + filterRows + emitterDepthRows
        for (index, row) in rows.enumerated() {
            precondition(Int(row.code) == index + 1, "row \(row.key) has code \(row.code), not \(index + 1)")
        }
        return rows
    }()

    /// The rows every layer has (`LayerClass.layer`).
    static let baseRows: [LayerPropertyDescriptor] = [
        .init(.bounds, "bounds", .rect, .nonNegative, animation: .basic(code: 1), tree: .always("bounds")),
        .init(.position, "position", .point, animation: .basic(code: 2), tree: .always("position")),
        .init(.anchorPoint, "anchorPoint", .point, animation: .basic(code: 3), tree: .unlessDefault("anchor")),
        .init(.anchorPointZ, "anchorPointZ", .number, animation: .basic(code: 4)),
        .init(.zPosition, "zPosition", .number, animation: .basic(code: 5), tree: .unlessDefault("z")),
        .init(.transform, "transform", .transform, animation: .basic(code: 6), tree: .flag("transform")),
        .init(.sublayerTransform, "sublayerTransform", .transform, animation: .basic(code: 7)),
        .init(.opacity, "opacity", .float, .unitInterval, animation: .basic(code: 8), tree: .unlessDefault("opacity")),
        .init(.hidden, "hidden", .bool, animation: .basic(code: 9), tree: .flag("hidden")),
        .init(
            .backgroundColor, "backgroundColor", .color, animation: .basic(code: 10),
            tree: .unlessDefault("background")),
        .init(
            .cornerRadius, "cornerRadius", .number, .nonNegative, animation: .basic(code: 11),
            tree: .unlessDefault("cornerRadius")),
        .init(.maskedCorners, "maskedCorners", .corners),
        .init(
            .borderWidth, "borderWidth", .number, .nonNegative, animation: .basic(code: 12),
            tree: .unlessDefault("border", then: .borderColor)),
        .init(.borderColor, "borderColor", .color, animation: .basic(code: 13)),
        .init(.masksToBounds, "masksToBounds", .bool, animation: .basic(code: 14), tree: .flag("masksToBounds")),
        .init(.name, "name", .string, tree: .label),
        .init(.beginTime, "beginTime", .number),
        .init(.timeOffset, "timeOffset", .number),
        .init(.speed, "speed", .number),
        .init(.geometryFlipped, "geometryFlipped", .bool, tree: .flag("geometryFlipped")),
        .init(.cornerCurve, "cornerCurve", .string, tree: .unlessDefault("cornerCurve")),
        .init(.contentsRect, "contentsRect", .rect, animation: .basic(code: 15), tree: .unlessDefault("contentsRect")),
        .init(
            .contentsCenter, "contentsCenter", .rect, animation: .explicit(code: 16),
            tree: .unlessDefault("contentsCenter")),
        .init(
            .contentsScale, "contentsScale", .number, .nonNegative, animation: .explicit(code: 17),
            tree: .unlessDefault("contentsScale")),
        .init(.contentsGravity, "contentsGravity", .string, tree: .unlessDefault("contentsGravity")),
        .init(
            .allowsEdgeAntialiasing, "allowsEdgeAntialiasing", .bool,
            tree: .unlessDefault("allowsEdgeAntialiasing")),
        .init(.allowsGroupOpacity, "allowsGroupOpacity", .bool, tree: .unlessDefault("allowsGroupOpacity")),
        .init(.edgeAntialiasingMask, "edgeAntialiasingMask", .edges, tree: .unlessDefault("edgeAntialiasingMask")),
        .init(.minificationFilter, "minificationFilter", .string, tree: .unlessDefault("minificationFilter")),
        .init(.magnificationFilter, "magnificationFilter", .string, tree: .unlessDefault("magnificationFilter")),
        .init(
            .minificationFilterBias, "minificationFilterBias", .float, animation: .explicit(code: 18),
            tree: .unlessDefault("minificationFilterBias")),
        .init(.opaque, "opaque", .bool, tree: .flag("opaque")),
        .init(.doubleSided, "doubleSided", .bool, animation: .explicit(code: 19), tree: .unlessDefault("doubleSided")),
        .init(
            .shouldRasterize, "shouldRasterize", .bool, animation: .explicit(code: 20), tree: .flag("shouldRasterize")),
        .init(
            .rasterizationScale, "rasterizationScale", .number, .nonNegative, animation: .explicit(code: 21),
            tree: .unlessDefault("rasterizationScale")),
        .init(.contents, "contents", .image, animation: .basic(code: 22), tree: .unlessDefault("contents")),
    ]

    /// The columns that hot paths read, packed out of the rows once into plain integers, so reading
    /// one costs an index, a shift and a mask (no array, no reference count). They hold codes below 128.
    public struct Columns: Sendable {
        /// Each row's value kind (`LayerValue.Kind` raw value), 8 bits per code: codes 8·i to 8·i + 7
        /// in word i.
        public let kinds: SIMD16<UInt64>
        /// Each row's constraint (0 none, 1 nonNegative, 2 unitInterval, 3 dashPattern), 2 bits per code:
        /// codes 32·i to 32·i + 31 in word i.
        public let constraints: SIMD4<UInt64>
        /// Bit `code % 64` of word `code / 64` is set for each animatable row.
        public let animatable: SIMD2<UInt64>
    }

    /// The hot columns of `table` (`LayerPropertyName.valueKind`, `constraint`, `isAnimatable`).
    public static let columns: Columns = {
        precondition(table.count < 128, "the packed columns hold codes below 128: widen them for more")
        var kinds = SIMD16<UInt64>(repeating: 0)
        var constraints = SIMD4<UInt64>(repeating: 0)
        var animatable = SIMD2<UInt64>(repeating: 0)
        for row in table {
            let code = Int(row.code)
            kinds[code >> 3] |= UInt64(row.kind.rawValue) << (8 * UInt64(code & 7))
            let constraint: UInt64 =
                switch row.constraint {
                case .none: 0
                case .nonNegative: 1
                case .unitInterval: 2
                case .dashPattern: 3
                }
            constraints[code >> 5] |= constraint << (2 * UInt64(code & 31))
            if row.isAnimatable { animatable[code >> 6] |= 1 << UInt64(code & 63) }
        }
        return Columns(kinds: kinds, constraints: constraints, animatable: animatable)
    }()

    /// `value` clamped by `constraint` (`unitInterval` into 0...1, `nonNegative` up to 0); values that
    /// are not finite are returned unchanged.
    @inline(__always)
    public static func clamped(_ value: LayerValue, by constraint: Constraint) -> LayerValue {
        switch (constraint, value) {
        case (.unitInterval, .float(let v)): .float(min(max(v, 0), 1))
        case (.unitInterval, .number(let v)): .number(min(max(v, 0), 1))
        case (.nonNegative, .number(let v)): .number(max(v, 0))
        case (.nonNegative, .rect(let r)):
            .rect(CGRect(x: r.origin.x, y: r.origin.y, width: max(r.width, 0), height: max(r.height, 0)))
        default: value
        }
    }

    /// The animatable rows, in table order.
    public static let animatable: [LayerPropertyDescriptor] = table.filter(\.isAnimatable)

    /// Rows by Core Animation key. Keys are unique across classes (a class's key that another class
    /// already uses would need a lookup by class first). Rows the client keeps (`isClientKept`) are
    /// not found by key: their keys are the client class's own (custom) keys.
    static let byKey: [String: LayerPropertyName] = Dictionary(
        uniqueKeysWithValues: table.filter { !$0.isClientKept }.map { ($0.key, $0.name) })
}
