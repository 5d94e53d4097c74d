import Foundation

/// A key path into an emitter layer's cells, as an animation names it:
/// `emitterCells.NAME.KEY`, or `emitterCells.A.emitterCells.B.KEY` for a nested cell (Apple's
/// `CAEmitterLayer` reaches cells by their `name` this way).
///
/// `field` is the animated number's index in `EmitterCellState.numbers` (0–15 and 20–27: the
/// numbers `CAEmitterCell.h` marks animatable), or `EmitterCellKeyPath.color` or
/// `EmitterCellKeyPath.contentsRect` for the two structured values. On the wire it is the target's
/// component byte under animation property code 62 (docs/protocol.md §6).
public struct EmitterCellKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// The names of the cells leading to the animated one, outermost first (1 to
    /// `EmitterCellState.maxDepth` names).
    public var names: [String]
    /// The animated value: an index into `EmitterCellState.numbers`, `color` or `contentsRect`.
    public var field: UInt8

    /// The field code of `color` (a colour).
    public static let color: UInt8 = 64
    /// The field code of `contentsRect` (a rectangle).
    public static let contentsRect: UInt8 = 65
    /// The animation property code of a cell key path in an animation target.
    public static let animationCode: UInt8 = 62

    /// The keys of the animatable fields, by field code.
    public static let keys: [UInt8: String] = [
        0: "birthRate", 1: "lifetime", 2: "lifetimeRange", 3: "emissionLatitude", 4: "emissionLongitude",
        5: "emissionRange", 6: "velocity", 7: "velocityRange", 8: "xAcceleration", 9: "yAcceleration",
        10: "zAcceleration", 11: "scale", 12: "scaleRange", 13: "scaleSpeed", 14: "spin", 15: "spinRange",
        20: "redRange", 21: "greenRange", 22: "blueRange", 23: "alphaRange", 24: "redSpeed", 25: "greenSpeed",
        26: "blueSpeed", 27: "alphaSpeed", color: "color", contentsRect: "contentsRect",
    ]

    /// The field codes by key.
    static let fields: [String: UInt8] = Dictionary(uniqueKeysWithValues: keys.map { ($0.value, $0.key) })

    /// A cell key path of `names` and `field`; nil when the field code is not an animatable field or
    /// there are no names or too many.
    public init?(names: [String], field: UInt8) {
        guard Self.keys[field] != nil, !names.isEmpty, names.count <= EmitterCellState.maxDepth else { return nil }
        self.names = names
        self.field = field
    }

    /// Parses `emitterCells.NAME(.emitterCells.NAME)*.KEY`; nil when the string is not of that form,
    /// a name is empty or the key is not an animatable cell property.
    public init?(_ string: String) {
        var parts = string.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var names: [String] = []
        while parts.count >= 3, parts[0] == "emitterCells" {
            guard !parts[1].isEmpty else { return nil }
            names.append(parts[1])
            parts.removeFirst(2)
        }
        guard parts.count == 1, let field = Self.fields[parts[0]] else { return nil }
        self.init(names: names, field: field)
    }

    /// The key path as Core Animation spells it.
    public var description: String {
        names.map { "emitterCells.\($0)." }.joined() + (Self.keys[field] ?? "?")
    }

    /// The kind of the animated value.
    public var kind: AnimationValue.Kind {
        switch field {
        case Self.color: .color
        case Self.contentsRect: .rect
        default: .number
        }
    }

    /// The layer key path that types this path's values on the wire and in a `PropertyTarget`
    /// (never written: a cell target writes into the cells).
    public var standIn: LayerKeyPath {
        switch field {
        case Self.color: LayerKeyPath(.backgroundColor)
        case Self.contentsRect: LayerKeyPath(.contentsRect)
        default: LayerKeyPath(.zPosition)
        }
    }

    /// The value at this path in `cells`, or nil when no cell has these names.
    public func value(in cells: [EmitterCellState]) -> AnimationValue? {
        guard let cell = Self.cell(names[...], in: cells) else { return nil }
        switch field {
        case Self.color: return .color(cell.color)
        case Self.contentsRect: return .rect(cell.contentsRect)
        default: return .number(cell.numbers[Int(field)])
        }
    }

    /// Sets the value at this path in `cells` (nothing happens when no cell has these names or the
    /// value is of another kind).
    public func set(_ value: AnimationValue, in cells: inout [EmitterCellState]) {
        Self.update(names[...], in: &cells) { cell in
            switch (field, value) {
            case (Self.color, .color(let c)): cell.color = c ?? RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
            case (Self.contentsRect, .rect(let r)): cell.contentsRect = r
            case (_, .number(let n)) where field < 32:
                var numbers = cell.numbers
                numbers[Int(field)] = n
                cell = EmitterCellState(
                    numbers: numbers, name: cell.name, isEnabled: cell.isEnabled, contents: cell.contents,
                    cells: cell.cells)
            default: break
            }
        }
    }

    static func cell(_ names: ArraySlice<String>, in cells: [EmitterCellState]) -> EmitterCellState? {
        guard let first = names.first, let cell = cells.first(where: { $0.name == first }) else { return nil }
        return names.count == 1 ? cell : Self.cell(names.dropFirst(), in: cell.cells)
    }

    static func update(
        _ names: ArraySlice<String>, in cells: inout [EmitterCellState], _ change: (inout EmitterCellState) -> Void
    ) {
        guard let first = names.first, let i = cells.firstIndex(where: { $0.name == first }) else { return }
        if names.count == 1 {
            change(&cells[i])
        } else {
            update(names.dropFirst(), in: &cells[i].cells, change)
        }
    }
}
