/// The mode of an output: its size in pixels and refresh rate in hertz.
public struct DisplayMode: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var refreshRate: Double
    public init(width: Int, height: Int, refreshRate: Double) {
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
    }
    public var description: String { "\(width)x\(height)@\(refreshRate.formatted())" }
}

extension Double {
    func formatted() -> String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
