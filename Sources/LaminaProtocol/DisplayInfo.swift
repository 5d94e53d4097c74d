import Foundation
import LaminaCore

/// A display as described in the handshake.
public struct DisplayInfo: Sendable, Hashable {
    /// The display's number: 0, 1, … in the order of `laminad`'s `--output` options.
    public var id: UInt32
    /// The display's width in pixels.
    public var width: UInt32
    /// The display's height in pixels.
    public var height: UInt32
    /// The display's refresh rate in hertz.
    public var refreshRate: Double
    /// A display description with the given values.
    public init(id: UInt32, width: UInt32, height: UInt32, refreshRate: Double) {
        self.id = id
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
    }
}
