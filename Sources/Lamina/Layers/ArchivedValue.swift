import Foundation

/// One value of an animation or layer in an archive: a number, a Boolean, a geometry structure, a
/// transform, a colour, a path, a string or an array of these.
///
/// Apple's archives hold such values as `NSNumber` and `NSValue` objects; swift-corelibs Foundation
/// cannot archive `NSValue` boxes of structures, so Lamina writes them through this box. Decoding
/// gives back what Lamina's API takes: `NSNumber`, `CGPoint`, `CGSize`, `CGRect`, `CATransform3D`,
/// `CGAffineTransform`, `CGColor`, `CGPath`, `String`, `NSNull` and arrays of them.
final class ArchivedValue: NSObject, NSSecureCoding {
    /// What the box holds; the raw value is what the archive stores.
    enum Tag: Int {
        case number, bool, point, size, rect, transform, affineTransform, color, null, string, array, path, vector
    }

    let tag: Tag
    let numbers: [Double]
    let text: String?
    let children: [ArchivedValue]

    static let supportsSecureCoding = true

    private init(_ tag: Tag, _ numbers: [Double] = [], text: String? = nil, children: [ArchivedValue] = []) {
        self.tag = tag
        self.numbers = numbers
        self.text = text
        self.children = children
        super.init()
    }

    /// The box of `any`, or nil when Lamina cannot archive a value of its type.
    convenience init?(_ any: Any) {
        switch any {
        case let b as Bool where type(of: any) == Bool.self: self.init(.bool, [b ? 1 : 0])
        case let p as CGPoint: self.init(.point, [p.x, p.y].map(Double.init))
        case let s as CGSize: self.init(.size, [s.width, s.height].map(Double.init))
        case let r as CGRect: self.init(.rect, [r.origin.x, r.origin.y, r.width, r.height].map(Double.init))
        case let t as CATransform3D: self.init(.transform, AnimationValue.transform(t).components)
        case let a as CGAffineTransform: self.init(.affineTransform, [a.a, a.b, a.c, a.d, a.tx, a.ty].map(Double.init))
        case let c as CGColor: self.init(.color, (c.components ?? []).map(Double.init))
        case is NSNull: self.init(.null)
        case let s as String: self.init(.string, text: s)
        case let v as SIMD3<Double>: self.init(.vector, [v.x, v.y, v.z])
        case let p as CGPath: self.init(.path, Self.flatten(p))
        case let v as NSValue where v.holdsCATransform3D:
            self.init(.transform, AnimationValue.transform(v.caTransform3DValue).components)
        case let list as [Any]:
            var children: [ArchivedValue] = []
            for element in list {
                guard let child = ArchivedValue(element) else { return nil }
                children.append(child)
            }
            self.init(.array, children: children)
        default:
            guard let n = AnimationValue.number(any) else { return nil }
            self.init(.number, [n])
        }
    }

    /// The box of a layer property's value, or nil for a value that is absent (a nil name).
    convenience init?(_ value: LayerValue) {
        switch value {
        case .number(let d): self.init(.number, [d])
        case .float(let f): self.init(.number, [Double(f)])
        case .point(let p): self.init(p)
        case .size(let size): self.init(size)
        case .rect(let r): self.init(r)
        case .transform(let t): self.init(t)
        case .bool(let b): self.init(.bool, [b ? 1 : 0])
        case .color(let c):
            guard let c else {
                self.init(.null)
                return
            }
            self.init(.color, [c.red, c.green, c.blue, c.alpha])
        case .corners(let mask): self.init(.number, [Double(mask.rawValue)])
        case .edges(let mask): self.init(.number, [Double(mask.rawValue)])
        case .string(let s):
            guard let s else { return nil }
            self.init(.string, text: s)
        case .image:
            // Images are not archived yet: a decoded layer has no contents.
            return nil
        case .filters:
            // The layer archives its `CIFilter` objects (CALayer+Coding.swift), not the server's copy.
            return nil
        case .path(let p):
            guard let p else {
                self.init(.null)
                return
            }
            self.init(.path, Self.flatten(p))
        case .numbers(let list):
            guard let list else {
                self.init(.null)
                return
            }
            self.init(.array, children: list.map { ArchivedValue(.number, [$0]) })
        case .colors(let list):
            guard let list else {
                self.init(.null)
                return
            }
            self.init(.array, children: list.map { ArchivedValue(.color, [$0.red, $0.green, $0.blue, $0.alpha]) })
        }
    }

    /// The value as Lamina's API takes it, or nil when the box is damaged.
    var value: Any? {
        let n = numbers
        switch tag {
        case .number: return n.count == 1 ? NSNumber(value: n[0]) : nil
        case .bool: return n.count == 1 ? n[0] != 0 : nil
        case .point: return n.count == 2 ? CGPoint(x: n[0], y: n[1]) : nil
        case .size: return n.count == 2 ? CGSize(width: n[0], height: n[1]) : nil
        case .rect: return n.count == 4 ? CGRect(x: n[0], y: n[1], width: n[2], height: n[3]) : nil
        case .transform:
            guard n.count == 16, case .transform(let t) = AnimationValue.make(.transform, n) else { return nil }
            return t
        case .affineTransform:
            return n.count == 6 ? CGAffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5]) : nil
        case .color:
            switch n.count {
            case 2: return CGColor(gray: n[0], alpha: n[1])
            case 4: return CGColor(red: n[0], green: n[1], blue: n[2], alpha: n[3])
            default: return nil
            }
        case .null: return NSNull()
        case .string: return text
        case .vector: return n.count == 3 ? SIMD3(n[0], n[1], n[2]) : nil
        case .path: return Self.path(n)
        case .array:
            var list: [Any] = []
            for child in children {
                guard let v = child.value else { return nil }
                list.append(v)
            }
            return list
        }
    }

    /// The value as a layer property of `kind` stores it, or nil when the box holds another kind.
    func layerValue(_ kind: LayerValue.Kind) -> LayerValue? {
        let n = numbers
        switch (kind, tag) {
        case (.number, .number): return .number(n[0])
        case (.float, .number): return .float(Float(n[0]))
        case (.point, .point): return (value as? CGPoint).map(LayerValue.point)
        case (.size, .size): return (value as? CGSize).map(LayerValue.size)
        case (.rect, .rect): return (value as? CGRect).map(LayerValue.rect)
        case (.transform, .transform): return (value as? CATransform3D).map(LayerValue.transform)
        case (.bool, .bool): return .bool(n[0] != 0)
        case (.color, .null): return .color(nil)
        case (.color, .color):
            return (value as? CGColor).map { .color(RGBAColor($0)) }
        case (.corners, .number):
            guard n[0] >= 0, n[0] < 16, n[0] == n[0].rounded() else { return nil }
            return .corners(CACornerMask(rawValue: UInt(n[0])))
        case (.edges, .number):
            guard n[0] >= 0, n[0] < 16, n[0] == n[0].rounded() else { return nil }
            return .edges(CAEdgeAntialiasingMask(rawValue: UInt32(n[0])))
        case (.string, .string): return .string(text)
        case (.path, .null): return .path(nil)
        case (.path, .path): return (value as? CGPath).map { .path($0.copy()) }
        case (.numbers, .null): return .numbers(nil)
        case (.numbers, .array):
            let list = children.compactMap { $0.tag == .number && $0.numbers.count == 1 ? $0.numbers[0] : nil }
            return list.count == children.count ? .numbers(list) : nil
        case (.colors, .null): return .colors(nil)
        case (.colors, .array):
            let list = children.compactMap { ($0.value as? CGColor).map(RGBAColor.init) }
            return list.count == children.count ? .colors(list) : nil
        default: return nil
        }
    }

    func encode(with coder: NSCoder) {
        coder.encode(tag.rawValue, forKey: "tag")
        coder.encode(NSArray(array: numbers.map { NSNumber(value: $0) }), forKey: "numbers")
        if let text { coder.encode(NSString(string: text), forKey: "text") }
        if !children.isEmpty { coder.encode(NSArray(array: children), forKey: "children") }
    }

    init?(coder: NSCoder) {
        guard let tag = Tag(rawValue: coder.decodeInteger(forKey: "tag")),
            let numbers = coder.decodeObject(of: [NSArray.self, NSNumber.self], forKey: "numbers") as? [NSNumber]
        else { return nil }
        self.tag = tag
        self.numbers = numbers.map(\.doubleValue)
        text = coder.decodeString(forKey: "text")
        children = coder.decodeArray(of: ArchivedValue.self, forKey: "children") ?? []
        super.init()
        // Every tag but `array` and `string` carries numbers the value reads by index.
        guard value != nil else { return nil }
    }

    /// A path as numbers: per element an opcode (0 move, 1 line, 2 quad, 3 cubic, 4 close), then its
    /// points' coordinates, controls first.
    private static func flatten(_ path: CGPath) -> [Double] {
        var out: [Double] = []
        for element in path.pathElements {
            let (code, points): (Double, [CGPoint]) =
                switch element {
                case .moveTo(let p): (0, [p])
                case .lineTo(let p): (1, [p])
                case .quadCurveTo(let p, let c): (2, [c, p])
                case .curveTo(let p, let c1, let c2): (3, [c1, c2, p])
                case .closeSubpath: (4, [])
                }
            out.append(code)
            for p in points { out += [Double(p.x), Double(p.y)] }
        }
        return out
    }

    /// The path `flatten` wrote, or nil when the numbers are not such a path.
    private static func path(_ n: [Double]) -> CGPath? {
        let path = CGMutablePath()
        var i = 0
        func points(_ count: Int) -> [CGPoint]? {
            guard i + 2 * count <= n.count else { return nil }
            let list = (0..<count).map { CGPoint(x: n[i + 2 * $0], y: n[i + 2 * $0 + 1]) }
            i += 2 * count
            return list
        }
        while i < n.count {
            let code = n[i]
            i += 1
            switch code {
            case 0: guard let p = points(1) else { return nil }; path.move(to: p[0])
            case 1: guard let p = points(1) else { return nil }; path.addLine(to: p[0])
            case 2: guard let p = points(2) else { return nil }; path.addQuadCurve(to: p[1], control: p[0])
            case 3:
                guard let p = points(3) else { return nil }
                path.addCurve(to: p[2], control1: p[0], control2: p[1])
            case 4: path.closeSubpath()
            default: return nil
            }
        }
        return path
    }
}
