import Foundation
import LaminaCore
import LaminaGraphics

/// One source of particles of a `CAEmitterLayer`: how many are born a second, how long they live,
/// how they move, turn, grow and change colour, and the image each draws (Core Animation's
/// `CAEmitterCell`).
///
/// Every property is stored under its key, so key-value coding answers any key, and a key never set
/// answers `defaultValue(forKey:)`: Apple's defaults (`CAEmitterCell.h`), 0 for every number except
/// `scale` 1, `contentsScale` 1 and `speed` 1; `color` opaque white; `contentsRect` the unit square;
/// `isEnabled` true; no name, contents or cells. The emitter layer copies its cells' values when its
/// `emitterCells` is set: change a cell afterwards through the layer's key paths
/// (`emitterCells.NAME.birthRate`), as on Apple platforms. Cells archive with `NSKeyedArchiver`.
/// The cell's `CAMediaTiming` values are kept and archived; the render server does not read them
/// (docs/apple-differences.md).
open class CAEmitterCell: NSObject, NSSecureCoding, CAMediaTiming, @unchecked Sendable {
    /// The values set, by key.
    var storage: [String: Any] = [:]

    /// Creates a cell with Core Animation's defaults.
    public required override init() {
        super.init()
    }

    /// Creates a cell from an archive written by `encode(with:)`; nil when its contents are damaged.
    public required init?(coder: NSCoder) {
        super.init()
        guard decodeCell(from: coder) else { return nil }
    }

    /// Creates a cell (Apple's `+emitterCell`).
    public class func emitterCell() -> Self { Self() }

    /// The value a key has when none was set: Apple's default for the cell's keys, nil for others.
    open class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "scale", "contentsScale", "speed": NSNumber(value: 1)
        case "enabled": NSNumber(value: true)
        case "color": CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        case "contentsRect": CGRect(x: 0, y: 0, width: 1, height: 1)
        case "fillMode": CAMediaTimingFillMode.removed.rawValue
        case "minificationFilter", "magnificationFilter": "linear"
        case "autoreverses": NSNumber(value: false)
        default: numberKeys.contains(key) ? NSNumber(value: 0) : nil
        }
    }

    /// The keys whose values are numbers that default to 0 unless `defaultValue(forKey:)` says
    /// otherwise.
    static let numberKeys: Set<String> = [
        "birthRate", "lifetime", "lifetimeRange", "emissionLatitude", "emissionLongitude", "emissionRange",
        "velocity", "velocityRange", "xAcceleration", "yAcceleration", "zAcceleration", "scale", "scaleRange",
        "scaleSpeed", "spin", "spinRange", "redRange", "greenRange", "blueRange", "alphaRange", "redSpeed",
        "greenSpeed", "blueSpeed", "alphaSpeed", "contentsScale", "beginTime", "duration", "speed", "timeOffset",
        "repeatCount", "repeatDuration", "minificationFilterBias",
    ]

    /// Stores any value under any key; nil removes it (the key answers its default again).
    open func setValue(_ value: Any?, forKey key: String) {
        storage[key] = value is NSNull ? nil : value
    }

    /// The value stored under `key`, or the class's default for it.
    open func value(forKey key: String) -> Any? {
        storage[key] ?? Self.defaultValue(forKey: key)
    }

    /// Whether `encode(with:)` archives the value for `key`; true here.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// The number under `key` (0 when it holds none).
    func number(_ key: String) -> Double { AnimationValue.number(value(forKey: key) as Any) ?? 0 }
    /// Stores number `value` under `key`.
    func setNumber(_ key: String, _ value: Double) { setValue(NSNumber(value: value), forKey: key) }

    // MARK: Emission

    /// The cell's name, used in key paths (`emitterCells.NAME.birthRate`); nil by default.
    open var name: String? {
        get { value(forKey: "name") as? String }
        set { setValue(newValue, forKey: "name") }
    }
    /// Whether the cell emits; true by default.
    open var isEnabled: Bool {
        get { (value(forKey: "enabled") as? NSNumber)?.boolValue ?? (value(forKey: "enabled") as? Bool ?? true) }
        set { setValue(NSNumber(value: newValue), forKey: "enabled") }
    }
    /// Particles born a second (times the layer's `birthRate`); 0 by default.
    open var birthRate: Float {
        get { Float(number("birthRate")) }
        set { setNumber("birthRate", Double(newValue)) }
    }
    /// Seconds each particle lives (times the layer's `lifetime`); 0 by default.
    open var lifetime: Float {
        get { Float(number("lifetime")) }
        set { setNumber("lifetime", Double(newValue)) }
    }
    /// How far a particle's lifetime varies from `lifetime` either way; 0 by default.
    open var lifetimeRange: Float {
        get { Float(number("lifetimeRange")) }
        set { setNumber("lifetimeRange", Double(newValue)) }
    }
    /// The emission direction's angle towards z, radians; 0 by default.
    open var emissionLatitude: CGFloat {
        get { CGFloat(number("emissionLatitude")) }
        set { setNumber("emissionLatitude", Double(newValue)) }
    }
    /// The emission direction's angle in the x–y plane from the x axis, radians (in Lamina's y-down
    /// layer space, π/2 points down); 0 by default.
    open var emissionLongitude: CGFloat {
        get { CGFloat(number("emissionLongitude")) }
        set { setNumber("emissionLongitude", Double(newValue)) }
    }
    /// The angle of the cone around the emission direction that particles leave in, radians (2π: every
    /// direction); 0 by default.
    open var emissionRange: CGFloat {
        get { CGFloat(number("emissionRange")) }
        set { setNumber("emissionRange", Double(newValue)) }
    }
    /// The mean speed, points a second (times the layer's `velocity`); 0 by default.
    open var velocity: CGFloat {
        get { CGFloat(number("velocity")) }
        set { setNumber("velocity", Double(newValue)) }
    }
    /// How far a particle's speed varies from `velocity` either way; 0 by default.
    open var velocityRange: CGFloat {
        get { CGFloat(number("velocityRange")) }
        set { setNumber("velocityRange", Double(newValue)) }
    }
    /// Acceleration along x, points a second squared; 0 by default.
    open var xAcceleration: CGFloat {
        get { CGFloat(number("xAcceleration")) }
        set { setNumber("xAcceleration", Double(newValue)) }
    }
    /// Acceleration along y (down in Lamina's layer space); 0 by default.
    open var yAcceleration: CGFloat {
        get { CGFloat(number("yAcceleration")) }
        set { setNumber("yAcceleration", Double(newValue)) }
    }
    /// Acceleration along z; 0 by default.
    open var zAcceleration: CGFloat {
        get { CGFloat(number("zAcceleration")) }
        set { setNumber("zAcceleration", Double(newValue)) }
    }
    /// The mean scale of the contents (times the layer's `scale`); 1 by default.
    open var scale: CGFloat {
        get { CGFloat(number("scale")) }
        set { setNumber("scale", Double(newValue)) }
    }
    /// How far a particle's scale varies from `scale` either way; 0 by default.
    open var scaleRange: CGFloat {
        get { CGFloat(number("scaleRange")) }
        set { setNumber("scaleRange", Double(newValue)) }
    }
    /// The scale's change a second; 0 by default.
    open var scaleSpeed: CGFloat {
        get { CGFloat(number("scaleSpeed")) }
        set { setNumber("scaleSpeed", Double(newValue)) }
    }
    /// The mean rotation speed, radians a second (times the layer's `spin`); 0 by default.
    open var spin: CGFloat {
        get { CGFloat(number("spin")) }
        set { setNumber("spin", Double(newValue)) }
    }
    /// How far a particle's rotation speed varies from `spin` either way; 0 by default.
    open var spinRange: CGFloat {
        get { CGFloat(number("spinRange")) }
        set { setNumber("spinRange", Double(newValue)) }
    }

    // MARK: Colour

    /// The mean colour each particle multiplies its contents by; opaque white by default.
    open var color: CGColor? {
        get { value(forKey: "color") as? CGColor }
        set { setValue(newValue, forKey: "color") }
    }
    /// How far a particle's red varies either way; 0 by default.
    open var redRange: Float {
        get { Float(number("redRange")) }
        set { setNumber("redRange", Double(newValue)) }
    }
    /// How far a particle's green varies either way; 0 by default.
    open var greenRange: Float {
        get { Float(number("greenRange")) }
        set { setNumber("greenRange", Double(newValue)) }
    }
    /// How far a particle's blue varies either way; 0 by default.
    open var blueRange: Float {
        get { Float(number("blueRange")) }
        set { setNumber("blueRange", Double(newValue)) }
    }
    /// How far a particle's alpha varies either way; 0 by default.
    open var alphaRange: Float {
        get { Float(number("alphaRange")) }
        set { setNumber("alphaRange", Double(newValue)) }
    }
    /// The red's change a second (clamped to 0...1); 0 by default.
    open var redSpeed: Float {
        get { Float(number("redSpeed")) }
        set { setNumber("redSpeed", Double(newValue)) }
    }
    /// The green's change a second; 0 by default.
    open var greenSpeed: Float {
        get { Float(number("greenSpeed")) }
        set { setNumber("greenSpeed", Double(newValue)) }
    }
    /// The blue's change a second; 0 by default.
    open var blueSpeed: Float {
        get { Float(number("blueSpeed")) }
        set { setNumber("blueSpeed", Double(newValue)) }
    }
    /// The alpha's change a second (negative fades particles out); 0 by default.
    open var alphaSpeed: Float {
        get { Float(number("alphaSpeed")) }
        set { setNumber("alphaSpeed", Double(newValue)) }
    }

    // MARK: Contents

    /// The image each particle draws (a `CGImage`); nil by default, and a cell without one draws
    /// nothing, as on Apple platforms.
    open var contents: Any? {
        get { value(forKey: "contents") }
        set { setValue(newValue, forKey: "contents") }
    }
    /// The part of the contents drawn, in unit coordinates; the unit square by default.
    open var contentsRect: CGRect {
        get { value(forKey: "contentsRect") as? CGRect ?? CGRect(x: 0, y: 0, width: 1, height: 1) }
        set { setValue(newValue, forKey: "contentsRect") }
    }
    /// Image pixels per point of the contents; 1 by default.
    open var contentsScale: CGFloat {
        get { CGFloat(number("contentsScale")) }
        set { setNumber("contentsScale", Double(newValue)) }
    }
    /// The filter used when the contents are drawn smaller; `"linear"` by default. Kept only.
    open var minificationFilter: String {
        get { value(forKey: "minificationFilter") as? String ?? "linear" }
        set { setValue(newValue, forKey: "minificationFilter") }
    }
    /// The filter used when the contents are drawn larger; `"linear"` by default. Kept only.
    open var magnificationFilter: String {
        get { value(forKey: "magnificationFilter") as? String ?? "linear" }
        set { setValue(newValue, forKey: "magnificationFilter") }
    }
    /// The bias of the minification filter's level of detail; 0 by default. Kept only.
    open var minificationFilterBias: Float {
        get { Float(number("minificationFilterBias")) }
        set { setNumber("minificationFilterBias", Double(newValue)) }
    }
    /// The cells each particle of this cell emits in turn; nil by default. Kept, archived, sent and
    /// validated; Lamina does not draw them yet (docs/apple-differences.md).
    open var emitterCells: [CAEmitterCell]? {
        get { value(forKey: "emitterCells") as? [CAEmitterCell] }
        set { setValue(newValue, forKey: "emitterCells") }
    }
    /// Extra values keyed by name, as Apple's `style`; nil by default. Kept only.
    open var style: [AnyHashable: Any]? {
        get { value(forKey: "style") as? [AnyHashable: Any] }
        set { setValue(newValue, forKey: "style") }
    }

    /// Whether `contents` should be archived (Apple's `shouldArchiveValueForKey:`); true.
    open func shouldArchiveContents() -> Bool { shouldArchiveValue(forKey: "contents") }

    // MARK: CAMediaTiming

    /// When the cell starts emitting, in its parent's time (the layer's, or for a sub-cell its parent
    /// particle's age); 0 by default.
    open var beginTime: CFTimeInterval {
        get { number("beginTime") }
        set { setNumber("beginTime", newValue) }
    }
    /// How long the cell emits from `beginTime`; 0 by default (without end).
    open var duration: CFTimeInterval {
        get { number("duration") }
        set { setNumber("duration", newValue) }
    }
    /// The rate of the cell's time; 1 by default. Kept only.
    open var speed: Float {
        get { Float(number("speed")) }
        set { setNumber("speed", Double(newValue)) }
    }
    /// An offset into the cell's time; 0 by default. Kept only.
    open var timeOffset: CFTimeInterval {
        get { number("timeOffset") }
        set { setNumber("timeOffset", newValue) }
    }
    /// How many times the cell's duration repeats; 0 by default. Kept only.
    open var repeatCount: Float {
        get { Float(number("repeatCount")) }
        set { setNumber("repeatCount", Double(newValue)) }
    }
    /// How long the cell's duration repeats; 0 by default. Kept only.
    open var repeatDuration: CFTimeInterval {
        get { number("repeatDuration") }
        set { setNumber("repeatDuration", newValue) }
    }
    /// Whether each repetition plays backwards after forwards; false by default. Kept only.
    open var autoreverses: Bool {
        get { (value(forKey: "autoreverses") as? NSNumber)?.boolValue ?? false }
        set { setValue(NSNumber(value: newValue), forKey: "autoreverses") }
    }
    /// What the cell shows outside its active time; `.removed` by default. Kept only.
    open var fillMode: CAMediaTimingFillMode {
        get { CAMediaTimingFillMode(rawValue: value(forKey: "fillMode") as? String ?? "removed") }
        set { setValue(newValue.rawValue, forKey: "fillMode") }
    }
}
