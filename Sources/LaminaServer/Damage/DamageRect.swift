import Foundation

/// A rectangle of whole device pixels: `x`, `y` from the top left, `width` × `height`.
public struct DamageRect: Sendable, Hashable, CustomStringConvertible {
    /// The left column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// The rectangle `x`, `y`, `width` × `height`.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The pixels of a `width`×`height` display that a primitive covering `box` (device
    /// coordinates) may touch: the box rounded out, one pixel more on each side for anti-aliased
    /// edges, cut to the display. Empty (zero area) when it misses the display or is not finite.
    public init(covering box: CGRect, width: Int, height: Int) {
        guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite, !box.isNull else {
            self.init(x: 0, y: 0, width: 0, height: 0)
            return
        }
        let x0 = Self.clamp((box.minX - 1).rounded(.down), to: width)
        let y0 = Self.clamp((box.minY - 1).rounded(.down), to: height)
        let x1 = Self.clamp((box.maxX + 1).rounded(.up), to: width)
        let y1 = Self.clamp((box.maxY + 1).rounded(.up), to: height)
        self.init(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// `value` as a whole number in 0...`limit`.
    private static func clamp(_ value: CGFloat, to limit: Int) -> Int {
        guard value > 0 else { return 0 }
        return value < CGFloat(limit) ? Int(value) : limit
    }

    /// The number of pixels.
    public var area: Int { width * height }
    /// Whether it holds no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// One past the right column.
    public var maxX: Int { x + width }
    /// One past the bottom row.
    public var maxY: Int { y + height }

    /// The smallest rectangle holding both.
    public func union(_ other: DamageRect) -> DamageRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x)
        let y0 = min(y, other.y)
        return DamageRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// Whether the two share a pixel.
    public func intersects(_ other: DamageRect) -> Bool {
        !isEmpty && !other.isEmpty && x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// Whether every pixel of `point` (a column and row) lies inside.
    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// "W×H at (X, Y)".
    public var description: String { "\(width)×\(height) at (\(x), \(y))" }
}

/// One instance of a display list as emitted, in draw order: its kind (`DrawKind.id`), its index in
/// the kind's `InstanceBuffer`, the device pixels it may touch and what it samples.
public struct EmittedInstance: Sendable, Equatable {
    /// The kind's `DrawKind.id`.
    public var kind: Int
    /// The index in `DisplayList.instances[kind]`.
    public var index: Int
    /// The device pixels the instance may touch (`DamageRect(covering:width:height:)`).
    public var pixels: DamageRect
    /// What it samples, for a textured kind.
    public var texture: TextureSampling?
    /// For the image of a rasterized layer, the content key of the pass it shows
    /// (`DisplayList.passContentKeys`), so that a change inside the raster damages where it is shown;
    /// 0 otherwise.
    public var content: UInt64 = 0

    /// An emitted instance.
    public init(kind: Int, index: Int, pixels: DamageRect, texture: TextureSampling?) {
        self.kind = kind
        self.index = index
        self.pixels = pixels
        self.texture = texture
    }
}
