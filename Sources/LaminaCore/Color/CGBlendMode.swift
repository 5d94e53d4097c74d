import Foundation

/// How a context composites what it paints over what is there, with Core Graphics' raw values
/// (`CGContext.h`): the separable and non-separable modes of the PDF specification, then the
/// Porter-Duff operators.
public enum CGBlendMode: Int32, Sendable, Hashable {
    /// Source over destination.
    case normal = 0
    /// Multiply.
    case multiply = 1
    /// Screen.
    case screen = 2
    /// Overlay.
    case overlay = 3
    /// Darken.
    case darken = 4
    /// Lighten.
    case lighten = 5
    /// Colour dodge.
    case colorDodge = 6
    /// Colour burn.
    case colorBurn = 7
    /// Soft light.
    case softLight = 8
    /// Hard light.
    case hardLight = 9
    /// Difference.
    case difference = 10
    /// Exclusion.
    case exclusion = 11
    /// Hue of the source, saturation and luminosity of the destination.
    case hue = 12
    /// Saturation of the source.
    case saturation = 13
    /// Hue and saturation of the source.
    case color = 14
    /// Luminosity of the source.
    case luminosity = 15
    /// Clear (R = 0).
    case clear = 16
    /// Copy (R = S).
    case copy = 17
    /// Source in (R = S × Da).
    case sourceIn = 18
    /// Source out (R = S × (1 − Da)).
    case sourceOut = 19
    /// Source atop (R = S × Da + D × (1 − Sa)).
    case sourceAtop = 20
    /// Destination over (R = S × (1 − Da) + D).
    case destinationOver = 21
    /// Destination in (R = D × Sa).
    case destinationIn = 22
    /// Destination out (R = D × (1 − Sa)).
    case destinationOut = 23
    /// Destination atop (R = S × (1 − Da) + D × Sa).
    case destinationAtop = 24
    /// Exclusive or (R = S × (1 − Da) + D × (1 − Sa)).
    case xor = 25
    /// Plus darker (R = max(0, 1 − ((1 − D) + (1 − S)))).
    case plusDarker = 26
    /// Plus lighter (R = min(1, S + D)).
    case plusLighter = 27
}
