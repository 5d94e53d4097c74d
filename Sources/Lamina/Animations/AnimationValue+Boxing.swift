import Foundation

/// Why a value given to an animation or to `setValue(_:forKeyPath:)` cannot be used.
public struct AnimationValueError: Error, CustomStringConvertible, Sendable {
    /// The text, naming the value and what was expected.
    public let description: String
}

extension AnimationValue {
    /// Converts a value as Apple's API takes it (`Double`, `Float`, `CGFloat`, `Int`, `NSNumber`,
    /// `Bool`, `CGPoint`, `CGSize`, `CGRect`, `CATransform3D`, `CGAffineTransform`, `CGColor`,
    /// `NSValue` boxes of the geometry types, arrays of three numbers for the `scale` and
    /// `translate` value functions, `CGPath`s (copied), arrays of numbers and arrays of `CGColor`s,
    /// with `NSNull` for no path or list) into a value of `kind`.
    static func unbox(_ any: Any, as kind: Kind, what: String) throws(AnimationValueError) -> AnimationValue {
        func fail() -> AnimationValueError {
            AnimationValueError(description: "\(what) is \(type(of: any)) (\(any)), but the key path takes \(kind)")
        }
        switch kind {
        case .number:
            if let v = number(any) { return .number(v) }
        case .bool:
            if let b = any as? Bool { return .bool(b) }
            if let n = any as? NSNumber { return .bool(n.boolValue) }
        case .point:
            if let p = any as? CGPoint { return .point(p) }
            if let v = any as? NSValue, objCType(v).hasPrefix("{CGPoint") { return .point(v.pointValue) }
        case .size:
            if let s = any as? CGSize { return .size(s) }
            if let v = any as? NSValue, objCType(v).hasPrefix("{CGSize") { return .size(v.sizeValue) }
        case .rect:
            if let r = any as? CGRect { return .rect(r) }
            if let v = any as? NSValue, objCType(v).hasPrefix("{CGRect") { return .rect(v.rectValue) }
        case .transform:
            if let t = any as? CATransform3D { return .transform(t) }
            if let a = any as? CGAffineTransform { return .transform(CATransform3DMakeAffineTransform(a)) }
            if let v = any as? NSValue, v.holdsCATransform3D { return .transform(v.caTransform3DValue) }
        case .color:
            if let c = any as? CGColor { return .color(RGBAColor(c)) }
            if any is NSNull { return .color(nil) }
        case .image:
            if let image = any as? CGImage { return .image(ContentsImageRegistry.remember(image)) }
            if let surface = any as? IOSurface { return .image(IOSurfaceRegistry.remember(surface)) }
            if let drawable = any as? VulkanDrawableImage {
                return .image(VulkanDrawableImageRegistry.remember(drawable))
            }
            if any is NSNull { return .image(0) }
        case .vector:
            if let v = any as? SIMD3<Double> { return .vector(v) }
            if let list = any as? [Any], list.count == 3 {
                let numbers = list.compactMap(number)
                if numbers.count == 3 { return .vector(SIMD3(numbers[0], numbers[1], numbers[2])) }
            }
        case .path:
            // A path is copied, as CAShapeLayer copies the one it is given.
            if let p = any as? CGPath { return .path(p.copy()) }
            if any is NSNull { return .path(nil) }
        case .numbers:
            if any is NSNull { return .numbers(nil) }
            if let list = any as? [Any] {
                let numbers = list.compactMap(number)
                if numbers.count == list.count { return .numbers(numbers) }
            }
        case .colors:
            if any is NSNull { return .colors(nil) }
            if let list = any as? [Any] {
                let colors = list.compactMap { ($0 as? CGColor).map(RGBAColor.init) }
                if colors.count == list.count { return .colors(colors) }
            }
        }
        throw fail()
    }

    /// The kind of a value as Apple's API takes it (see `unbox(_:as:what:)`), for a key whose kind no
    /// property gives (a custom key); nil for values no kind takes. A Swift `Bool` is a Boolean, any
    /// other number (an `NSNumber` too) a number.
    static func kind(of any: Any) -> Kind? {
        switch any {
        case is NSNumber: return .number
        case is Bool: return .bool
        case is CGColor, is NSNull: return .color
        case is CGPoint: return .point
        case is CGSize: return .size
        case is CGRect: return .rect
        case is CATransform3D, is CGAffineTransform: return .transform
        case let v as NSValue where !(v is NSNumber):
            let type = objCType(v)
            if type.hasPrefix("{CGPoint") { return .point }
            if type.hasPrefix("{CGSize") { return .size }
            if type.hasPrefix("{CGRect") { return .rect }
            if v.holdsCATransform3D { return .transform }
            return nil
        default: return number(any) == nil ? nil : .number
        }
    }

    /// The number in `any`, for the numeric types Swift code passes.
    static func number(_ any: Any) -> Double? {
        switch any {
        case let v as Double: v
        case let v as CGFloat: Double(v)
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }

    static func objCType(_ v: NSValue) -> String { String(cString: v.objCType) }

    /// The value as Core Animation's key-value coding returns it, for `value(forKeyPath:)`: an
    /// `NSNumber` for numbers and Booleans (a `Float` one for opacity, a `Double` one otherwise, as
    /// `CGFloat` boxes on Apple platforms), `CGPoint`, `CGSize`, `CGRect`, `CATransform3D`, and
    /// `CGColor` (nil for no colour).
    ///
    /// Structures come back unboxed: Foundation on Linux cannot cast an `NSValue` to `CGPoint`, so
    /// `as! CGPoint` works on both platforms only this way.
    func boxed(for keyPath: LayerKeyPath) -> Any? {
        switch self {
        case .number(let v):
            keyPath.property == .opacity && keyPath.component == nil ? NSNumber(value: Float(v)) : NSNumber(value: v)
        case .bool(let b): NSNumber(value: b)
        case .point(let p): p
        case .size(let s): s
        case .rect(let r): r
        case .transform(let t): t
        case .color(let c): c.map { CGColor(rgba: ($0.red, $0.green, $0.blue, $0.alpha)) }
        case .vector(let v): [NSNumber(value: v.x), NSNumber(value: v.y), NSNumber(value: v.z)]
        case .image(let id): ContentsImageRegistry.image(id) ?? IOSurfaceRegistry.surface(id)
        case .path(let p): p
        case .numbers(let n): n.map { $0.map { NSNumber(value: $0) } }
        case .colors(let c): c.map { $0.map { CGColor(rgba: ($0.red, $0.green, $0.blue, $0.alpha)) } }
        }
    }
}

extension LayerValue {
    /// The value as Core Animation's key-value coding returns it: `NSNumber` for numbers, Booleans
    /// and corner and edge masks, the structure itself for geometry, `CGColor` for colours and `String` for
    /// names.
    var boxed: Any? {
        switch self {
        case .number(let v): NSNumber(value: v)
        case .float(let v): NSNumber(value: v)
        case .point(let p): p
        case .size(let s): s
        case .rect(let r): r
        case .transform(let t): t
        case .bool(let b): NSNumber(value: b)
        case .color(let c): c.map { CGColor(rgba: ($0.red, $0.green, $0.blue, $0.alpha)) }
        case .corners(let m): NSNumber(value: m.rawValue)
        case .string(let s): s
        case .edges(let m): NSNumber(value: m.rawValue)
        case .image(let id): ContentsImageRegistry.image(id) ?? IOSurfaceRegistry.surface(id)
        case .path(let p): p
        case .numbers(let n): n.map { $0.map { NSNumber(value: $0) } }
        case .colors(let c): c.map { $0.map { CGColor(rgba: ($0.red, $0.green, $0.blue, $0.alpha)) } }
        // The layer's own `CIFilter` copies are what key-value coding returns (CALayer+Filters.swift).
        case .filters(let list): list.compactMap(CIFilter.init(layerFilter:))
        }
    }
}

extension NSValue {
    /// The type encoding of a boxed `CATransform3D`: sixteen doubles, `m11` to `m44`. Apple writes
    /// `{CATransform3D=dddddddddddddddd}`, but Foundation on Linux cannot box structs (it stops the
    /// process), while it can box this array of the same layout.
    static let caTransform3DObjCType = "[16d]"

    /// Boxes a `CATransform3D` (Apple's `NSValue(caTransform3D:)`).
    public convenience init(caTransform3D t: CATransform3D) {
        var fields = AnimationValue.transform(t).components
        self.init(bytes: &fields, objCType: NSValue.caTransform3DObjCType)
    }

    /// True when the box holds a `CATransform3D` (boxed by `init(caTransform3D:)`).
    var holdsCATransform3D: Bool {
        let type = AnimationValue.objCType(self)
        return type == NSValue.caTransform3DObjCType || type.hasPrefix("{CATransform3D")
    }

    /// The boxed `CATransform3D` (Apple's `caTransform3DValue`); identity when the box holds
    /// something else.
    public var caTransform3DValue: CATransform3D {
        guard holdsCATransform3D else { return CATransform3DIdentity }
        var fields = [Double](repeating: 0, count: 16)
        fields.withUnsafeMutableBytes { getValue($0.baseAddress!) }
        guard case .transform(let t) = AnimationValue.make(.transform, fields) else { return CATransform3DIdentity }
        return t
    }
}
