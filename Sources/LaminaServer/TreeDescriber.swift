import Foundation
import LaminaCore

/// Prints render trees as indented text for `laminactl tree`: one line per layer with its id, name and
/// key properties.
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

    static func line(_ id: LayerID, _ tree: RenderTree, depth: Int, into out: inout String) {
        guard let layer = tree.layers[id] else { return }
        let s = layer.state
        var parts = ["layer \(id)"]
        if let name = s.name { parts.append("\"\(name)\"") }
        parts.append("bounds=\(fmt(s.bounds.origin.x)),\(fmt(s.bounds.origin.y)),\(fmt(s.bounds.width)),\(fmt(s.bounds.height))")
        parts.append("position=\(fmt(s.position.x)),\(fmt(s.position.y))")
        if s.anchorPoint != CGPoint(x: 0.5, y: 0.5) { parts.append("anchor=\(fmt(s.anchorPoint.x)),\(fmt(s.anchorPoint.y))") }
        if s.zPosition != 0 { parts.append("z=\(fmt(s.zPosition))") }
        if !CATransform3DIsIdentity(s.transform) { parts.append("transform") }
        if s.opacity != 1 { parts.append("opacity=\(fmt(CGFloat(s.opacity)))") }
        if s.isHidden { parts.append("hidden") }
        if let c = s.backgroundColor { parts.append("background=\(hex(c))") }
        if s.cornerRadius != 0 { parts.append("cornerRadius=\(fmt(s.cornerRadius))") }
        if s.borderWidth != 0 { parts.append("border=\(fmt(s.borderWidth))\(s.borderColor.map { " " + hex($0) } ?? "")") }
        if s.masksToBounds { parts.append("masksToBounds") }
        out += String(repeating: "  ", count: depth) + parts.joined(separator: " ") + "\n"
        for child in layer.sublayers { line(child, tree, depth: depth + 1, into: &out) }
    }

    static func fmt(_ v: CGFloat) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(format: "%.3g", Double(v))
    }

    static func hex(_ c: RGBAColor) -> String {
        let b = [c.red, c.green, c.blue, c.alpha].map { String(format: "%02x", Int(($0 * 255).rounded())) }
        return "#" + b.joined()
    }
}
