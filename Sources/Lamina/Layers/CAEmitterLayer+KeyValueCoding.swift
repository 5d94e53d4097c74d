import Foundation
import LaminaCore

/// Key-value coding of an emitter layer: its rows by key, `emitterCells`, and the cells' own keys
/// through `emitterCells.NAME.KEY` key paths (a cell found by its `name`, nested cells by
/// `emitterCells.A.emitterCells.B.KEY`), as Apple's `CAEmitterLayer` allows.
extension CAEmitterLayer {
    /// Sets `emitterCells` from key-value coding: an array of cells, or nil.
    func setEmitterCells(fromKeyValue value: Any?) {
        guard value == nil || value is NSNull || value is [CAEmitterCell] else {
            return LaminaDiagnostics.report(.refusedValue, "emitterCells must be an array of CAEmitterCell")
        }
        emitterCells = value as? [CAEmitterCell]
    }

    /// Sets a cell's value at `key` (found by `cell(at:)`) and sends the changed cells with the next
    /// commit (not animated: docs/apple-differences.md).
    func setCellValue(_ value: Any?, cell: CAEmitterCell, key: String, keyPath: String) {
        settingKey(keyPath) {
            cell.setValue(value, forKey: key)
            syncEmitterCells()
        }
    }

    /// The cell a key path `emitterCells.NAME(.emitterCells.NAME)*.KEY` names, and the key; nil when
    /// the path is not of that form or names no cell.
    func cell(at keyPath: String) -> (CAEmitterCell, String)? {
        var parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts[0] == "emitterCells" else { return nil }
        var cells = emitterCells ?? []
        var found: CAEmitterCell?
        while parts.count >= 3, parts[0] == "emitterCells" {
            guard let next = cells.first(where: { $0.name == parts[1] }) else { return nil }
            found = next
            cells = next.emitterCells ?? []
            parts.removeFirst(2)
        }
        guard let found, !parts.isEmpty else { return nil }
        return (found, parts.joined(separator: "."))
    }

    /// Sets emitter row `property` from a value given to key-value coding, through its accessor; false
    /// when the value is not one for the property (nothing changes then).
    func setEmitterValue(_ value: Any?, for property: LayerPropertyName) -> Bool {
        let fallback = LayerState(layerClass: .emitter)[property]
        guard let value else {
            update(property, to: fallback)
            return true
        }
        if property.valueKind == .string {
            let text = value as? String ?? (value as? any RawRepresentable)?.rawValue as? String
            guard let text else { return false }
            update(property, to: .string(text))
            return true
        }
        guard let kind = property.valueKind.animationKind,
            let unboxed = try? AnimationValue.unbox(value, as: kind, what: property.key),
            let converted = LayerValue(unboxed, as: property.valueKind)
        else { return false }
        update(property, to: converted)
        return true
    }
}
