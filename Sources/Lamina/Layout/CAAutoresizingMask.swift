import Foundation

/// How a layer's frame follows its superlayer's bounds when their size changes (Apple's
/// `CAAutoresizingMask`, the type of `CALayer.autoresizingMask`).
///
/// Each bit makes one part of an axis flexible: the margin before the layer (between the superlayer's
/// min edge and the layer's frame), the layer's size, or the margin after it. The change of the
/// superlayer's size along an axis is shared evenly among the flexible parts of that axis; with none,
/// the frame keeps its place and size. Margins and edges are numeric: `layerMinYMargin` is the margin
/// at `frame.minY`, which is the top edge on screen in Lamina's y-down space (the bottom edge on macOS
/// unless the superlayer's geometry is flipped).
public struct CAAutoresizingMask: OptionSet, Hashable, Sendable {
    /// The mask's bits, Apple's values.
    public let rawValue: UInt32

    /// A mask from its bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The margin between the superlayer's min-x edge and the layer's is flexible (bit 1).
    public static let layerMinXMargin = CAAutoresizingMask(rawValue: 1 << 0)
    /// The layer's width is flexible (bit 2).
    public static let layerWidthSizable = CAAutoresizingMask(rawValue: 1 << 1)
    /// The margin between the layer's max-x edge and the superlayer's is flexible (bit 4).
    public static let layerMaxXMargin = CAAutoresizingMask(rawValue: 1 << 2)
    /// The margin between the superlayer's min-y edge and the layer's is flexible (bit 8).
    public static let layerMinYMargin = CAAutoresizingMask(rawValue: 1 << 3)
    /// The layer's height is flexible (bit 16).
    public static let layerHeightSizable = CAAutoresizingMask(rawValue: 1 << 4)
    /// The margin between the layer's max-y edge and the superlayer's is flexible (bit 32).
    public static let layerMaxYMargin = CAAutoresizingMask(rawValue: 1 << 5)
}

/// The empty mask: the layer is not resized or moved when its superlayer's size changes (Apple's
/// `kCALayerNotSizable`, the default of `autoresizingMask`; Swift code on Apple platforms writes `[]`).
public let kCALayerNotSizable: CAAutoresizingMask = []
