import Foundation

/// How a layer with a `compositingFilter` is combined with what lies behind it: one of the separable
/// blend modes of W3C Compositing and Blending Level 1 (§9.1), or `normal` (source over).
///
/// The raw value is the mode's code on the wire (docs/protocol.md §7, property 92).
public enum LayerBlendMode: UInt8, Sendable, Hashable, CaseIterable {
    /// Source over: no compositing filter.
    case normal = 0
    /// B = Cb · Cs.
    case multiply
    /// B = Cb + Cs − Cb · Cs.
    case screen
    /// Hard light with the layers swapped.
    case overlay
    /// B = min(Cb, Cs).
    case darken
    /// B = max(Cb, Cs).
    case lighten
    /// Brightens the backdrop towards the source.
    case colorDodge
    /// Darkens the backdrop towards the source.
    case colorBurn
    /// Soft light (with its D(Cb) piece).
    case softLight
    /// Multiply or screen, by the source.
    case hardLight
    /// B = |Cb − Cs|.
    case difference
    /// B = Cb + Cs − 2 · Cb · Cs.
    case exclusion

    /// The mode whose wire code is `code` (a whole number 0...11), or nil.
    public init?(code: Double) {
        guard code >= 0, code <= Double(Self.allCases.count - 1), code == code.rounded() else { return nil }
        self.init(rawValue: UInt8(code))
    }

    /// The mode's word in Core Image's names: `multiply` in `CIMultiplyBlendMode` and in the string
    /// `"multiplyBlendMode"`; nil for `normal`.
    public var word: String? {
        switch self {
        case .normal: nil
        case .multiply: "Multiply"
        case .screen: "Screen"
        case .overlay: "Overlay"
        case .darken: "Darken"
        case .lighten: "Lighten"
        case .colorDodge: "ColorDodge"
        case .colorBurn: "ColorBurn"
        case .softLight: "SoftLight"
        case .hardLight: "HardLight"
        case .difference: "Difference"
        case .exclusion: "Exclusion"
        }
    }

    /// The Core Image filter name of the mode (`"CIMultiplyBlendMode"`); nil for `normal`.
    public var filterName: String? { word.map { "CI\($0)BlendMode" } }

    /// The mode a compositing filter name gives: a Core Image name (`"CIMultiplyBlendMode"`) or Core
    /// Animation's string form (`"multiplyBlendMode"`); nil for any other name.
    public init?(filterName: String) {
        for mode in Self.allCases {
            guard let word = mode.word else { continue }
            let lowered = word.prefix(1).lowercased() + word.dropFirst()
            if filterName == "CI\(word)BlendMode" || filterName == "\(lowered)BlendMode" {
                self = mode
                return
            }
        }
        return nil
    }

    /// The separable blend function B(Cb, Cs) of W3C Compositing and Blending Level 1 §9.1, on
    /// non-premultiplied components in 0...1 (`cb` the backdrop's, `cs` the source's).
    public func blend(backdrop cb: Double, source cs: Double) -> Double {
        switch self {
        case .normal: return cs
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return LayerBlendMode.hardLight.blend(backdrop: cs, source: cb)
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .colorDodge:
            if cb == 0 { return 0 }
            if cs >= 1 { return 1 }
            return min(1, cb / (1 - cs))
        case .colorBurn:
            if cb >= 1 { return 1 }
            if cs <= 0 { return 0 }
            return 1 - min(1, (1 - cb) / cs)
        case .hardLight:
            return cs <= 0.5
                ? LayerBlendMode.multiply.blend(backdrop: cb, source: 2 * cs)
                : LayerBlendMode.screen.blend(backdrop: cb, source: 2 * cs - 1)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        }
    }
}
