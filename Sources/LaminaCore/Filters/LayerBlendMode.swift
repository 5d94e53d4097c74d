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
}
