import Foundation

/// The pixel format of a layer's backing store (Apple's `CALayerContentsFormat`).
public struct CALayerContentsFormat: RawRepresentable, Hashable, Sendable {
    /// The format's name, as Core Animation spells it.
    public let rawValue: String
    /// Wraps a raw name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a raw name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Eight bits per channel, red, green, blue and alpha (the default).
    public static let RGBA8Uint = CALayerContentsFormat("RGBA8")
    /// Sixteen-bit half floats per channel, red, green, blue and alpha.
    public static let RGBA16Float = CALayerContentsFormat("RGBAh")
    /// Eight bits of grey.
    public static let gray8Uint = CALayerContentsFormat("Gray8")
    /// The system chooses the format (Apple's `kCAContentsFormatAutomatic`, named `Automatic`).
    public static let automatic = CALayerContentsFormat("Automatic")

    /// The format itself when Apple defines its name; nil otherwise (a layer then uses `.RGBA8Uint`).
    var known: CALayerContentsFormat? {
        [.RGBA8Uint, .RGBA16Float, .gray8Uint, .automatic].contains(self) ? self : nil
    }
}
