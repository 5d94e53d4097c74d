import Foundation

/// One `CAEmitterCell` as the render server keeps it: the numbers that decide its particles, its name,
/// whether it emits, its contents image, and the cells its particles emit in turn.
///
/// Defaults are Apple's (`CAEmitterCell.h`): everything 0 except `scale` 1, `color` opaque white,
/// `contentsRect` the unit square, `contentsScale` 1 and `isEnabled` true. Angles are radians, times
/// seconds, velocities points a second.
public struct EmitterCellState: Sendable, Hashable {
    /// The cell's name (`emitterCells.NAME` key paths), or nil.
    public var name: String?
    /// Whether the cell emits; true by default.
    public var isEnabled = true
    /// Particles born a second.
    public var birthRate: Float = 0
    /// Seconds each particle lives.
    public var lifetime: Float = 0
    /// The mean lifetime varies by up to this much either way.
    public var lifetimeRange: Float = 0
    /// The emission direction's angle out of the x–y plane (towards z), radians.
    public var emissionLatitude: Double = 0
    /// The emission direction's angle in the x–y plane from the x axis, radians.
    public var emissionLongitude: Double = 0
    /// The half-angle of the cone particles are emitted in around the direction, radians.
    public var emissionRange: Double = 0
    /// The mean speed, points a second.
    public var velocity: Double = 0
    /// The speed varies by up to this much either way.
    public var velocityRange: Double = 0
    /// Acceleration along x, points a second squared.
    public var xAcceleration: Double = 0
    /// Acceleration along y.
    public var yAcceleration: Double = 0
    /// Acceleration along z.
    public var zAcceleration: Double = 0
    /// The mean scale of the contents; 1 by default.
    public var scale: Double = 1
    /// The scale varies by up to this much either way.
    public var scaleRange: Double = 0
    /// The scale's change a second.
    public var scaleSpeed: Double = 0
    /// The mean rotation speed, radians a second.
    public var spin: Double = 0
    /// The rotation speed varies by up to this much either way.
    public var spinRange: Double = 0
    /// The mean colour (not premultiplied); opaque white by default.
    public var color = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
    /// How far each component of the colour varies either way: red, green, blue, alpha.
    public var colorRange = SIMD4<Float>(repeating: 0)
    /// Each component's change a second: red, green, blue, alpha.
    public var colorSpeed = SIMD4<Float>(repeating: 0)
    /// The part of the contents image drawn, in unit coordinates; the unit square by default.
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Image pixels per point of the contents; 1 by default.
    public var contentsScale: Double = 1
    /// The client's image id of the contents, or 0 for none (a cell without contents draws nothing).
    public var contents: UInt64 = 0
    /// The cells each particle of this cell emits in turn (docs/apple-differences.md).
    public var cells: [EmitterCellState] = []
    /// When the cell starts emitting, seconds of its parent's time (the layer's local time, or a
    /// sub-cell's parent particle's age); 0 by default (`CAMediaTiming.beginTime`).
    public var beginTime: Double = 0
    /// How long it emits from `beginTime`, seconds; 0 (the default) emits for as long as its parent
    /// does (`CAMediaTiming.duration`).
    public var duration: Double = 0

    /// A cell with Apple's defaults.
    public init() {}

    /// The most cells in one emitter layer's tree, nested ones included (more is refused).
    public static let maxCellsPerLayer = 64
    /// The deepest nesting of cells: a layer's cells are level 1 (deeper is refused).
    public static let maxDepth = 4
    /// The longest name in UTF-8 bytes (longer is refused).
    public static let maxNameBytes = 1024
    /// How many numbers `numbers` holds, in its order: the wire's layout.
    public static let numberCount = 35

    /// The cell's numbers in wire order: birthRate, lifetime, lifetimeRange, emissionLatitude,
    /// emissionLongitude, emissionRange, velocity, velocityRange, x/y/zAcceleration, scale,
    /// scaleRange, scaleSpeed, spin, spinRange, color (r, g, b, a), the four colour ranges, the four
    /// colour speeds, contentsRect (x, y, width, height), contentsScale, beginTime, duration.
    public var numbers: [Double] {
        [
            Double(birthRate), Double(lifetime), Double(lifetimeRange), emissionLatitude, emissionLongitude,
            emissionRange, velocity, velocityRange, xAcceleration, yAcceleration, zAcceleration, scale, scaleRange,
            scaleSpeed, spin, spinRange, color.red, color.green, color.blue, color.alpha,
            Double(colorRange.x), Double(colorRange.y), Double(colorRange.z), Double(colorRange.w),
            Double(colorSpeed.x), Double(colorSpeed.y), Double(colorSpeed.z), Double(colorSpeed.w),
            contentsRect.origin.x, contentsRect.origin.y, contentsRect.size.width, contentsRect.size.height,
            contentsScale, beginTime, duration,
        ]
    }

    /// A cell whose numbers are `numbers` (in `numbers`' order; missing ones keep their defaults).
    public init(numbers n: [Double], name: String?, isEnabled: Bool, contents: UInt64, cells: [EmitterCellState]) {
        var n = n
        let defaults = EmitterCellState().numbers
        if n.count < Self.numberCount { n += defaults[n.count...] }
        birthRate = Float(n[0])
        lifetime = Float(n[1])
        lifetimeRange = Float(n[2])
        emissionLatitude = n[3]
        emissionLongitude = n[4]
        emissionRange = n[5]
        velocity = n[6]
        velocityRange = n[7]
        xAcceleration = n[8]
        yAcceleration = n[9]
        zAcceleration = n[10]
        scale = n[11]
        scaleRange = n[12]
        scaleSpeed = n[13]
        spin = n[14]
        spinRange = n[15]
        color = RGBAColor(red: n[16], green: n[17], blue: n[18], alpha: n[19])
        colorRange = SIMD4(Float(n[20]), Float(n[21]), Float(n[22]), Float(n[23]))
        colorSpeed = SIMD4(Float(n[24]), Float(n[25]), Float(n[26]), Float(n[27]))
        contentsRect = CGRect(x: n[28], y: n[29], width: n[30], height: n[31])
        contentsScale = n[32]
        beginTime = n[33]
        duration = n[34]
        self.name = name
        self.isEnabled = isEnabled
        self.contents = contents
        self.cells = cells
    }

    /// Why a cell tree `cells` cannot be set on an emitter layer, or nil when it is valid: more than
    /// `maxCellsPerLayer` cells, nesting deeper than `maxDepth`, a number that is not finite, a name
    /// longer than `maxNameBytes`.
    public static func invalidReason(_ cells: [EmitterCellState]) -> String? {
        var count = 0
        func check(_ list: [EmitterCellState], depth: Int) -> String? {
            guard list.isEmpty || depth <= maxDepth else { return "emitter cells nest deeper than \(maxDepth)" }
            for cell in list {
                count += 1
                guard count <= maxCellsPerLayer else { return "more than \(maxCellsPerLayer) emitter cells" }
                if let index = cell.numbers.firstIndex(where: { !$0.isFinite }) {
                    return "emitter cell number \(index) is NaN or infinite"
                }
                if cell.duration < 0 { return "emitter cell duration \(cell.duration) is negative" }
                if let name = cell.name, name.utf8.count > maxNameBytes {
                    return "emitter cell name is longer than \(maxNameBytes) bytes"
                }
                if let reason = check(cell.cells, depth: depth + 1) { return reason }
            }
            return nil
        }
        return check(cells, depth: 1)
    }

    /// Every contents image id the tree `cells` names (0 left out).
    public static func images(of cells: [EmitterCellState]) -> [UInt64] {
        cells.flatMap { ($0.contents != 0 ? [$0.contents] : []) + images(of: $0.cells) }
    }
}
