import Foundation
import LaminaCore

/// A display as described in the handshake and in `displaysChanged`.
public struct DisplayInfo: Sendable, Hashable {
    /// The display's number: 0, 1, … in the order of `laminad`'s `--output` options.
    public var id: UInt32
    /// The display's width in pixels.
    public var width: UInt32
    /// The display's height in pixels.
    public var height: UInt32
    /// The display's refresh rate in hertz.
    public var refreshRate: Double
    /// The display's name: its output's kind and its number, such as `offscreen-0` or `window-1`
    /// (at most `WireLimits.maxDisplayNameBytes` bytes).
    public var name: String
    /// Where the display's pixels go: the X server of a window output (its `$DISPLAY`), a
    /// connector's name on KMS; empty for an offscreen output (at most
    /// `WireLimits.maxDisplayNameBytes` bytes).
    public var connector: String
    /// A display description with the given values.
    public init(
        id: UInt32, width: UInt32, height: UInt32, refreshRate: Double, name: String = "", connector: String = ""
    ) {
        self.id = id
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
        self.name = name
        self.connector = connector
    }
}
