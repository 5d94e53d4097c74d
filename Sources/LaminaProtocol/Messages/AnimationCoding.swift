import Foundation
import LaminaCore

/// Wire limits for animations (documented in docs/protocol.md).
extension WireLimits {
    /// Animations one layer may carry at once.
    public static let maxAnimationsPerLayer = 1024
    /// Animations one client may have attached across all its layers.
    public static let maxAnimationsPerClient = 250_000
    /// Nesting of animation groups.
    public static let maxGroupDepth = 8
    /// Children of one group, values of one keyframe animation, elements of one path, entries of
    /// one keyTimes/timingFunctions/tension list.
    public static let maxAnimationElements = 8192
    /// Bytes of an animation key.
    public static let maxKeyBytes = 1024
}

// MARK: - Encoding

extension WireWriter {
    mutating func value(_ v: AnimationValue) {
        u8(v.kind.rawValue)
        switch v {
        case .bool(let b): bool(b)
        case .image(let id): u64(id)
        case .color(let c):
            bool(c != nil)
            if let c { color(c) }
        case .path(let p):
            bool(p != nil)
            if let p { path(p) }
        case .numbers(let list):
            bool(list != nil)
            if let list {
                u32(UInt32(list.count))
                for v in list { f64(v) }
            }
        case .colors(let list):
            bool(list != nil)
            if let list {
                u32(UInt32(list.count))
                for c in list { color(c) }
            }
        default:
            for c in v.components { f64(c) }
        }
    }

    mutating func optionalValue(_ v: AnimationValue?) {
        bool(v != nil)
        if let v { value(v) }
    }

    mutating func doubles(_ list: [Double]?) {
        bool(list != nil)
        guard let list else { return }
        u32(UInt32(list.count))
        for d in list { f64(d) }
    }

    mutating func curve(_ c: TimingCurve) {
        for p in c.controlPoints { f64(Double(p)) }
    }

    mutating func optionalString(_ s: String?) {
        bool(s != nil)
        if let s { string(s) }
    }

    mutating func timing(_ t: MediaTiming) {
        f64(t.beginTime); f64(t.timeOffset); f64(t.duration); f64(t.speed)
        f64(t.repeatCount); f64(t.repeatDuration); bool(t.autoreverses)
        string(t.fillMode.rawValue)
    }

    mutating func target(_ t: PropertyTarget) {
        if let key = t.customKey {
            // A custom key: property code 0, then the values' kind and the key.
            u8(0)
            u8(t.keyPath.kind.rawValue)
            string(key)
        } else if let cell = t.cell {
            // An emitter cell's value: code 62, the field, then the cells' names.
            u8(EmitterCellKeyPath.animationCode)
            u8(cell.field)
            u32(UInt32(cell.names.count))
            for name in cell.names { string(name) }
        } else {
            u8(t.keyPath.property.descriptor.animation?.code ?? 0)
            u8(t.keyPath.component?.code ?? 0)
            // A filter's radius names its filter.
            if case .filterRadius(let name) = t.keyPath.component { string(name) }
        }
        bool(t.isAdditive); bool(t.isCumulative)
        optionalString(t.valueFunction?.rawValue)
        u32(UInt32(t.sublayerPath.count))
        for name in t.sublayerPath { string(name) }
    }

    mutating func basicValues(_ v: BasicValues) {
        optionalValue(v.from); optionalValue(v.to); optionalValue(v.by)
    }

    mutating func path(_ p: CGPath) {
        let elements = p.pathElements
        u32(UInt32(elements.count))
        for e in elements {
            switch e {
            case .moveTo(let a): u8(1); point(a)
            case .lineTo(let a): u8(2); point(a)
            case .quadCurveTo(let a, let c): u8(3); point(a); point(c)
            case .curveTo(let a, let c1, let c2): u8(4); point(a); point(c1); point(c2)
            case .closeSubpath: u8(5)
            }
        }
    }

    /// Writes an animation record (docs/protocol.md, "Animation records").
    public mutating func record(_ r: AnimationRecord) {
        timing(r.timing)
        bool(r.timingFunction != nil)
        if let f = r.timingFunction { curve(f) }
        bool(r.isRemovedOnCompletion)
        switch r.content {
        case .basic(let t, let v):
            u8(1); target(t); basicValues(v)
        case .spring(let t, let v, let s):
            u8(2); target(t); basicValues(v)
            f64(s.mass); f64(s.stiffness); f64(s.damping); f64(s.initialVelocity)
        case .keyframe(let t, let k):
            u8(3); target(t)
            u32(UInt32(k.values.count))
            for v in k.values { value(v) }
            bool(k.path != nil)
            if let p = k.path { path(p) }
            doubles(k.keyTimes)
            bool(k.timingFunctions != nil)
            if let fs = k.timingFunctions {
                u32(UInt32(fs.count))
                for f in fs { curve(f) }
            }
            string(k.calculationMode.rawValue)
            optionalString(k.rotationMode?.rawValue)
            doubles(k.tensionValues); doubles(k.continuityValues); doubles(k.biasValues)
        case .group(let children):
            u8(4)
            u32(UInt32(children.count))
            for c in children { record(c) }
        case .transition(let p):
            u8(5)
            string(p.type.rawValue)
            optionalString(p.subtype?.rawValue)
            f64(p.startProgress); f64(p.endProgress)
        }
    }
}

// MARK: - Decoding

extension WireReader {
    mutating func value(_ field: @autoclosure () -> String) throws(WireError) -> AnimationValue {
        let raw = try u8(field() + ".kind")
        guard let kind = AnimationValue.Kind(rawValue: raw) else { throw .badValue(field: field() + ".kind") }
        switch kind {
        case .bool: return .bool(try bool(field()))
        case .image: return .image(try u64(field()))
        case .color: return .color(try bool(field() + ".present") ? try color(field()) : nil)
        case .number: return .number(try f64(field()))
        case .vector: return AnimationValue.make(kind, [try f64(field()), try f64(field()), try f64(field())])!
        // Points, sizes and rects are built from their fields directly (what `make` builds, without an
        // array of the fields for every value).
        case .point: return .point(CGPoint(x: try f64(field()), y: try f64(field())))
        case .size: return .size(CGSize(width: try f64(field()), height: try f64(field())))
        case .rect:
            let x = try f64(field()), y = try f64(field())
            return .rect(CGRect(x: x, y: y, width: try f64(field()), height: try f64(field())))
        case .transform:
            var c = [Double]()
            for _ in 0..<16 { c.append(try f64(field())) }
            return AnimationValue.make(.transform, c)!
        case .path:
            return .path(try bool(field() + ".present") ? try path(field(), limit: WireLimits.maxPathElements) : nil)
        case .numbers:
            guard try bool(field() + ".present") else { return .numbers(nil) }
            let n = try count(field(), limit: WireLimits.maxListElements, minimumElementSize: 8)
            var list: [Double] = []
            list.reserveCapacity(n)
            for _ in 0..<n { list.append(try f64(field())) }
            return .numbers(list)
        case .colors:
            guard try bool(field() + ".present") else { return .colors(nil) }
            let n = try count(field(), limit: WireLimits.maxListElements, minimumElementSize: 32)
            var list: [RGBAColor] = []
            list.reserveCapacity(n)
            for _ in 0..<n { list.append(try color(field())) }
            return .colors(list)
        }
    }

    mutating func optionalValue(_ field: @autoclosure () -> String) throws(WireError) -> AnimationValue? {
        try bool(field() + ".present") ? try value(field()) : nil
    }

    mutating func doubles(_ field: @autoclosure () -> String) throws(WireError) -> [Double]? {
        guard try bool(field() + ".present") else { return nil }
        let n = try count(field(), limit: WireLimits.maxAnimationElements, minimumElementSize: 8)
        var out: [Double] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try f64(field())) }
        return out
    }

    mutating func curve(_ field: @autoclosure () -> String) throws(WireError) -> TimingCurve {
        let c0 = Float(try f64(field())), c1 = Float(try f64(field()))
        let c2 = Float(try f64(field())), c3 = Float(try f64(field()))
        // The same control points, bit for bit, make the same (immutable) curve: the previous one is
        // reused rather than made again for every record of a commit.
        let bits = SIMD4(c0.bitPattern, c1.bitPattern, c2.bitPattern, c3.bitPattern)
        if let last = lastCurve, last.bits == bits { return last.curve }
        let curve = TimingCurve(c0, c1, c2, c3)
        lastCurve = (bits, curve)
        return curve
    }

    mutating func optionalString(_ field: @autoclosure () -> String) throws(WireError) -> String? {
        try bool(field() + ".present") ? try string(field(), limit: WireLimits.maxStringBytes) : nil
    }

    mutating func timing(_ field: @autoclosure () -> String) throws(WireError) -> MediaTiming {
        MediaTiming(
            beginTime: try f64(field() + ".beginTime"), timeOffset: try f64(field() + ".timeOffset"),
            duration: try f64(field() + ".duration"), speed: try f64(field() + ".speed"),
            repeatCount: try f64(field() + ".repeatCount"), repeatDuration: try f64(field() + ".repeatDuration"),
            autoreverses: try bool(field() + ".autoreverses"),
            fillMode: CAMediaTimingFillMode(try string(field() + ".fillMode", limit: 64)))
    }

    mutating func target(_ field: @autoclosure () -> String) throws(WireError) -> PropertyTarget {
        let rawProperty = try u8(field() + ".property")
        let keyPath: LayerKeyPath
        var customKey: String?
        var cell: EmitterCellKeyPath?
        if rawProperty == EmitterCellKeyPath.animationCode {
            // An emitter cell's value, found in the driven layer's cells by name.
            let code = try u8(field() + ".cellField")
            let depth = try count(field() + ".cellPath", limit: EmitterCellState.maxDepth, minimumElementSize: 4)
            var names: [String] = []
            for _ in 0..<depth {
                let name = try string(field() + ".cellPath", limit: EmitterCellState.maxNameBytes)
                guard !name.isEmpty else { throw .badValue(field: field() + ".cellPath") }
                names.append(name)
            }
            guard let path = EmitterCellKeyPath(names: names, field: code) else {
                throw .badValue(field: field() + (depth == 0 ? ".cellPath" : ".cellField"))
            }
            cell = path
            keyPath = path.standIn
        } else if rawProperty == 0 {
            // A custom key, which the server times but never applies.
            guard let kind = AnimationValue.Kind(rawValue: try u8(field() + ".customKind")),
                let standIn = LayerKeyPath.customStandIn(for: kind)
            else { throw .badValue(field: field() + ".customKind") }
            let key = try string(field() + ".customKey", limit: WireLimits.maxKeyBytes)
            guard !key.isEmpty else { throw .badValue(field: field() + ".customKey") }
            keyPath = standIn
            customKey = key
        } else {
            guard let property = LayerKeyPath.Property(animationCode: rawProperty) else {
                throw .badValue(field: field() + ".property")
            }
            let rawComponent = try u8(field() + ".component")
            var component: LayerKeyPath.Component?
            if rawComponent == LayerKeyPath.Component.filterRadiusCode {
                let name = try string(field() + ".filterName", limit: LayerFilter.maxNameBytes)
                guard LayerKeyPath.filterRadiusPath(property.key + "." + name + ".inputRadius") != nil else {
                    throw .badValue(field: field() + ".filterName")
                }
                component = .filterRadius(name)
            } else if rawComponent != 0 {
                guard let c = LayerKeyPath.Component(code: rawComponent),
                    LayerKeyPath(property.key + "." + c.path) != nil
                else { throw .badValue(field: field() + ".component") }
                component = c
            }
            keyPath = LayerKeyPath(property, component)
        }
        let additive = try bool(field() + ".additive")
        let cumulative = try bool(field() + ".cumulative")
        let valueFunction = try optionalString(field() + ".valueFunction").map { CAValueFunctionName(rawValue: $0) }
        // A path of sublayer names deeper than a tree may be could never match a layer.
        let depth = try count(field() + ".sublayerPath", limit: WireLimits.maxTreeDepth, minimumElementSize: 4)
        var names: [String] = []
        for _ in 0..<depth { names.append(try string(field() + ".sublayerPath", limit: WireLimits.maxStringBytes)) }
        return PropertyTarget(
            keyPath: keyPath, isAdditive: additive, isCumulative: cumulative,
            valueFunction: valueFunction, sublayerPath: names, customKey: customKey, cell: cell)
    }

    mutating func basicValues(_ field: @autoclosure () -> String) throws(WireError) -> BasicValues {
        BasicValues(
            from: try optionalValue(field() + ".from"), to: try optionalValue(field() + ".to"),
            by: try optionalValue(field() + ".by"))
    }

    /// Reads a path. Each element must be one the path keeps as it is given, so that the path
    /// encodes back to the same bytes: a line, curve or close with no current point, a close of a
    /// closed subpath, or a line or curve right after a close (which would start a subpath of its
    /// own) is `badValue`; a client's paths never hold them (they are enumerated from a `CGPath`).
    mutating func path(_ field: String, limit: Int = WireLimits.maxAnimationElements) throws(WireError) -> CGPath {
        let n = try count(field, limit: limit, minimumElementSize: 1)
        let path = CGMutablePath()
        for index in 0..<n {
            guard path.elementCount == index else { throw .badValue(field: field + ".element") }
            switch try u8(field + ".element") {
            case 1: path.move(to: try point(field))
            case 2: path.addLine(to: try point(field))
            case 3:
                let a = try point(field)
                path.addQuadCurve(to: a, control: try point(field))
            case 4:
                let a = try point(field)
                let c1 = try point(field)
                path.addCurve(to: a, control1: c1, control2: try point(field))
            case 5: path.closeSubpath()
            default: throw .badValue(field: field + ".element")
            }
        }
        guard path.elementCount == n else { throw .badValue(field: field + ".element") }
        return path
    }

    /// Reads an animation record; groups nest at most `WireLimits.maxGroupDepth` deep.
    public mutating func record(_ field: @autoclosure () -> String, depth: Int = 0) throws(WireError) -> AnimationRecord
    {
        guard depth <= WireLimits.maxGroupDepth else {
            throw .countTooLarge(field: field() + " group depth", count: depth, limit: WireLimits.maxGroupDepth)
        }
        let timing = try timing(field() + ".timing")
        let function = try bool(field() + ".timingFunction.present") ? try curve(field() + ".timingFunction") : nil
        let removed = try bool(field() + ".removedOnCompletion")
        let content: AnimationRecord.Content
        switch try u8(field() + ".kind") {
        case 1:
            content = .basic(try target(field() + ".target"), try basicValues(field()))
        case 2:
            let t = try target(field() + ".target")
            let v = try basicValues(field())
            content = .spring(
                t, v,
                SpringParameters(
                    mass: try f64(field() + ".mass"), stiffness: try f64(field() + ".stiffness"),
                    damping: try f64(field() + ".damping"), initialVelocity: try f64(field() + ".initialVelocity")))
        case 3:
            let t = try target(field() + ".target")
            let n = try count(field() + ".values", limit: WireLimits.maxAnimationElements, minimumElementSize: 2)
            var values: [AnimationValue] = []
            for _ in 0..<n { values.append(try value(field() + ".values")) }
            let path = try bool(field() + ".path.present") ? try path(field() + ".path") : nil
            let keyTimes = try doubles(field() + ".keyTimes")
            var functions: [TimingCurve]?
            if try bool(field() + ".timingFunctions.present") {
                let m = try count(
                    field() + ".timingFunctions", limit: WireLimits.maxAnimationElements,
                    minimumElementSize: 32)
                var list: [TimingCurve] = []
                for _ in 0..<m { list.append(try curve(field() + ".timingFunctions")) }
                functions = list
            }
            let mode = CAAnimationCalculationMode(rawValue: try string(field() + ".calculationMode", limit: 64))
            let rotation = try optionalString(field() + ".rotationMode").map { CAAnimationRotationMode(rawValue: $0) }
            content = .keyframe(
                t,
                Keyframes(
                    values: values, path: path, keyTimes: keyTimes, timingFunctions: functions, calculationMode: mode,
                    rotationMode: rotation, tensionValues: try doubles(field() + ".tensionValues"),
                    continuityValues: try doubles(field() + ".continuityValues"),
                    biasValues: try doubles(field() + ".biasValues")))
        case 4:
            let n = try count(field() + ".animations", limit: WireLimits.maxAnimationElements, minimumElementSize: 60)
            var children: [AnimationRecord] = []
            for i in 0..<n { children.append(try record("\(field()).animations[\(i)]", depth: depth + 1)) }
            content = .group(children)
        case 5:
            let type = CATransitionType(try string(field() + ".type", limit: 64))
            let subtype = try optionalString(field() + ".subtype").map { CATransitionSubtype(rawValue: $0) }
            content = .transition(
                TransitionParameters(
                    type: type, subtype: subtype,
                    startProgress: try f64(field() + ".startProgress"),
                    endProgress: try f64(field() + ".endProgress")))
        default:
            throw .badValue(field: field() + ".kind")
        }
        return AnimationRecord(
            timing: timing, timingFunction: function, isRemovedOnCompletion: removed, content: content)
    }
}

// MARK: - Validation

extension AnimationRecord {
    /// Why the server must refuse this record, or nil when it is valid: times and values finite
    /// (repeatCount and repeatDuration may be +infinity), durations and counts non-negative, values
    /// of the kind their key path needs, progress and key times in 0...1, names known.
    public var invalidReason: String? {
        let t = timing
        for (name, v) in [
            ("beginTime", t.beginTime), ("timeOffset", t.timeOffset), ("duration", t.duration),
            ("speed", t.speed),
        ] where !v.isFinite {
            return "\(name) is NaN or infinite"
        }
        for (name, v) in [("repeatCount", t.repeatCount), ("repeatDuration", t.repeatDuration)]
        where v.isNaN || v == -.infinity {
            return "\(name) is NaN or negative infinity"
        }
        if t.duration < 0 { return "duration is negative" }
        if ![CAMediaTimingFillMode.removed, .forwards, .backwards, .both].contains(t.fillMode) {
            return "unknown fillMode '\(t.fillMode.rawValue.truncatedToUTF8(64))'"
        }
        if let f = timingFunction, !f.controlPoints.allSatisfy(\.isFinite) {
            return "timing function has a NaN control point"
        }
        switch content {
        case .basic(let target, let values):
            return target.invalidReason(values.all)
        case .spring(let target, let values, let s):
            if let reason = target.invalidReason(values.all) { return reason }
            for v in [s.mass, s.stiffness, s.damping, s.initialVelocity] where !v.isFinite {
                return "spring parameter is NaN or infinite"
            }
            if s.mass <= 0 || s.stiffness <= 0 || s.damping < 0 {
                return "spring mass and stiffness must be positive, damping non-negative"
            }
            return nil
        case .keyframe(let target, let k):
            if let reason = target.invalidReason(k.values) { return reason }
            if let path = k.path {
                guard target.keyPath.kind == .point, target.valueFunction == nil else {
                    return "a keyframe path animates a CGPoint key path, not \(target.keyPath)"
                }
                for e in path.pathElements {
                    let points: [CGPoint]
                    switch e {
                    case .moveTo(let a), .lineTo(let a): points = [a]
                    case .quadCurveTo(let a, let c): points = [a, c]
                    case .curveTo(let a, let c1, let c2): points = [a, c1, c2]
                    case .closeSubpath: points = []
                    }
                    if points.contains(where: { !$0.x.isFinite || !$0.y.isFinite }) {
                        return "path has a NaN or infinite point"
                    }
                }
            }
            if let keyTimes = k.keyTimes, keyTimes.contains(where: { !($0 >= 0 && $0 <= 1) }) {
                return "keyTimes must lie in 0...1"
            }
            for list in [k.tensionValues, k.continuityValues, k.biasValues] {
                if let list, list.contains(where: { !$0.isFinite }) {
                    return "tension, continuity or bias is NaN or infinite"
                }
            }
            if let fs = k.timingFunctions, fs.contains(where: { !$0.controlPoints.allSatisfy(\.isFinite) }) {
                return "timing function has a NaN control point"
            }
            if ![CAAnimationCalculationMode.linear, .discrete, .paced, .cubic, .cubicPaced].contains(k.calculationMode)
            {
                return "unknown calculationMode '\(k.calculationMode.rawValue.truncatedToUTF8(64))'"
            }
            if let r = k.rotationMode, r != .rotateAuto && r != .rotateAutoReverse {
                return "unknown rotationMode '\(r.rawValue.truncatedToUTF8(64))'"
            }
            return nil
        case .group(let children):
            for (i, child) in children.enumerated() {
                if let reason = child.invalidReason { return "group child \(i): \(reason)" }
            }
            return nil
        case .transition(let p):
            if !CATransitionType.known.contains(p.type) {
                return "unknown transition type '\(p.type.rawValue.truncatedToUTF8(64))'"
            }
            if let s = p.subtype, ![CATransitionSubtype.fromLeft, .fromRight, .fromTop, .fromBottom].contains(s) {
                return "unknown transition subtype '\(s.rawValue.truncatedToUTF8(64))'"
            }
            if !(0...1).contains(p.startProgress) || !(0...1).contains(p.endProgress) {
                return "transition progress must lie in 0...1"
            }
            return nil
        }
    }

    /// The number of records in this one, itself included (groups count their children).
    public var recordCount: Int {
        if case .group(let children) = content { return 1 + children.reduce(0) { $0 + $1.recordCount } }
        return 1
    }

    /// True when this record is a transition or a group that holds one: attaching it takes a
    /// snapshot of the layer's subtree.
    public var containsTransition: Bool {
        switch content {
        case .transition: true
        case .group(let children): children.contains { $0.containsTransition }
        default: false
        }
    }
}

extension PropertyTarget {
    func invalidReason(_ values: [AnimationValue]) -> String? {
        if customKey != nil, valueFunction != nil { return "a custom key takes no valueFunction" }
        if let cell, valueFunction != nil { return "the emitter cell key path \(cell) takes no valueFunction" }
        if let f = valueFunction {
            guard CAValueFunctionName.known.contains(f) else {
                return "unknown valueFunction '\(f.rawValue.truncatedToUTF8(64))'"
            }
            guard keyPath.kind == .transform else {
                return "a valueFunction needs a transform key path, not \(keyPath)"
            }
        }
        let name = cell?.description ?? customKey ?? keyPath.description
        for v in values {
            guard v.kind == valueKind else { return "\(name) takes \(valueKind), got \(v.kind)" }
            guard v.isValid else { return "\(name) value has a NaN, infinite or out-of-range component" }
        }
        return nil
    }
}
