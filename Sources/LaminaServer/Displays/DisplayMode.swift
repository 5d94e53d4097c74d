/// The mode of an output: its size in pixels and refresh rate in hertz.
public struct DisplayMode: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Refresh rate in hertz.
    public var refreshRate: Double
    /// A mode with the given size and refresh rate.
    public init(width: Int, height: Int, refreshRate: Double) {
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
    }
    /// `WIDTHxHEIGHT@HZ`, as `--output` spells it.
    public var description: String { "\(width)x\(height)@\(refreshRate.formatted())" }
}

extension Double {
    func formatted() -> String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
