import Foundation
import LaminaCore

/// Prints render trees as indented text for `laminactl tree`: one line per layer with its id, its
/// class when it is not a plain `CALayer`, its name and key properties (its class's rows too).
public enum TreeDescriber {
    /// Describes each labelled tree, roots first, sublayers indented by two spaces.
    public static func describe(_ trees: [(label: String, tree: RenderTree)]) -> String {
        var out = ""
        for (label, tree) in trees {
            out += "\(label): \(tree.layers.count) layer(s)\n"
            for (display, root) in tree.roots.sorted(by: { $0.key < $1.key }) {
                out += "  display \(display):\n"
                line(root, tree, depth: 2, into: &out)
            }
        }
        return out.isEmpty ? "no clients\n" : out
    }

    /// A mask layer's line starts with `mask: ` and follows its owner's sublayers, one level deeper.
    static func line(_ id: LayerID, _ tree: RenderTree, depth: Int, into out: inout String, isMask: Bool = false) {
        guard let layer = tree.layers[id] else { return }
        let s = layer.state
        let layerClass = s.layerClass
        var parts = [isMask ? "mask: layer \(id)" : "layer \(id)"]
        if layerClass != .layer { parts.append(layerClass.className) }
        for row in LayerPropertyDescriptor.table {
            if case .label = row.tree, case .string(let label?) = s[row.name] { parts.append("\"\(label)\"") }
        }
        for row in LayerPropertyDescriptor.table where row.belongs(to: layerClass) {
            let value = s[row.name]
            switch row.tree {
            case .omitted, .label:
                break
            case .always(let label):
                parts.append("\(label)=\(text(value))")
            case .unlessDefault(let label, let companion):
                guard value != row.defaultValue else { continue }
                let suffix = companion.map { text(s[$0]) }.map { $0.isEmpty ? "" : " " + $0 } ?? ""
                // A property whose default is a colour, path or list and that is now nil says so.
                // A text layer's string is quoted: it may hold spaces.
                // A blend mode is printed by name (`compositingFilter=multiply`).
                let shown =
                    row.name == .textString
                    ? "\"\(text(value))\""
                    : row.name == .compositingFilter ? "\(s.filterState.blendMode)" : text(value)
                parts.append("\(label)=\(shown.isEmpty ? "none" : shown)\(suffix)")
            case .flag(let label):
                if value != row.defaultValue { parts.append(label) }
            }
        }
        if layerClass == .emitter { parts.append("cells=\(Self.cellCount(s.emitter.cells))") }
        // A host layer names the context it shows, never that context's layers.
        if let host = layer.host { parts.append("hosts=context \(host.contextId)") }
        out += String(repeating: "  ", count: depth) + parts.joined(separator: " ") + "\n"
        for child in layer.sublayers { line(child, tree, depth: depth + 1, into: &out) }
        if let mask = layer.mask { line(mask, tree, depth: depth + 1, into: &out, isMask: true) }
    }

    /// The number of emitter cells in a tree of cells, nested ones included.
    static func cellCount(_ cells: [EmitterCellState]) -> Int {
        cells.reduce(cells.count) { $0 + cellCount($1.cells) }
    }

    /// A value as the tree prints it: numbers by `fmt`, components joined by commas, colours in hex
    /// (nothing for no colour).
    static func text(_ value: LayerValue) -> String {
        switch value {
        case .number(let v): fmt(CGFloat(v))
        case .float(let v): fmt(CGFloat(v))
        case .point(let p): "\(fmt(p.x)),\(fmt(p.y))"
        case .size(let s): "\(fmt(s.width)),\(fmt(s.height))"
        case .rect(let r): "\(fmt(r.origin.x)),\(fmt(r.origin.y)),\(fmt(r.width)),\(fmt(r.height))"
        case .color(let c): c.map(hex) ?? ""
        case .corners(let m): String(m.rawValue)
        case .edges(let m): String(m.rawValue)
        case .string(let s): s ?? ""
        case .bool(let b): b ? "true" : "false"
        case .transform: "transform"
        case .image(let id): "image \(id)"
        case .path(let p):
            p.map { path in
                let box = path.boundingBoxOfPath
                let bounds =
                    box.isNull ? "" : " in \(fmt(box.minX)),\(fmt(box.minY)),\(fmt(box.width)),\(fmt(box.height))"
                return "\(path.elementCount) elements\(bounds)"
            } ?? ""
        case .numbers(let list): list.map { $0.map { fmt(CGFloat($0)) }.joined(separator: ",") } ?? ""
        case .colors(let list): list.map { $0.map(hex).joined(separator: ",") } ?? ""
        case .filters(let list):
            list.map { $0.isGaussianBlur ? "\($0.name)(\(fmt(CGFloat($0.radius))))" : $0.name }.joined(separator: ",")
        }
    }

    static func fmt(_ v: CGFloat) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(format: "%.3g", Double(v))
    }

    static func hex(_ c: RGBAColor) -> String {
        let b = [c.red, c.green, c.blue, c.alpha].map { String(format: "%02x", Int(($0 * 255).rounded())) }
        return "#" + b.joined()
    }
}
