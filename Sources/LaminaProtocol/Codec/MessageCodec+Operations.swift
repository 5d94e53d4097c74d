import Foundation
import LaminaCore

/// Layer operations and property values on the wire (docs/protocol.md §6, §7): the body of a commit,
/// written and read one operation at a time.
extension MessageCodec {
    static func encode(_ ops: [LayerOperation], into w: inout WireWriter) {
        w.u32(UInt32(ops.count))
        for op in ops { encode(op, into: &w) }
    }

    /// The encoded size of one operation, for splitting transactions into parts.
    public static func encodedSize(of op: LayerOperation) -> Int {
        var w = WireWriter()
        return encodedSize(of: op, scratch: &w)
    }

    /// The encoded size of one operation, written into `scratch` (emptied first, its storage kept),
    /// so that sizing every operation of a commit reuses one buffer.
    public static func encodedSize(of op: LayerOperation, scratch w: inout WireWriter) -> Int {
        w.removeAll()
        encode(op, into: &w)
        return w.bytes.count
    }

    static func encode(_ op: LayerOperation, into w: inout WireWriter) {
        switch op {
        case .createLayer(let id, let layerClass):
            // A plain layer keeps the short form; any other class names itself (code 9).
            if layerClass == .layer {
                w.u8(1); w.u64(id)
            } else {
                w.u8(9); w.u64(id); w.u8(layerClass.rawValue)
            }
        case .destroyLayer(let id):
            w.u8(2); w.u64(id)
        case .set(let id, let property):
            w.u8(3); w.u64(id); w.u8(property.code)
            encode(property.value, into: &w)
        case .setSublayers(let id, let children):
            w.u8(4); w.u64(id); w.u32(UInt32(children.count))
            for c in children { w.u64(c) }
        case .setRoot(let display, let layer):
            w.u8(5); w.u32(display); w.u64(layer ?? 0)
        case .addAnimation(let id, let a):
            w.u8(6); w.u64(id); w.u64(a.id); w.string(a.key); w.record(a.record)
        case .removeAnimation(let id, let animationID):
            w.u8(7); w.u64(id); w.u64(animationID)
        case .setHost(let id, let contextId, let token):
            w.u8(8); w.u64(id); w.u32(contextId); w.u64(token)
        case .setMask(let id, let mask):
            w.u8(10); w.u64(id); w.u64(mask ?? 0)
        case .surfaceChanged(let id):
            w.u8(11); w.u64(id)
        case .setEmitterCells(let id, let cells):
            w.u8(12); w.u64(id)
            encode(cells, into: &w)
        }
    }

    /// Writes a property value in its kind's layout (docs/protocol.md §7).
    static func encode(_ value: LayerValue, into w: inout WireWriter) {
        switch value {
        case .number(let v): w.f64(v)
        case .float(let v): w.f64(Double(v))
        case .point(let p): w.point(p)
        case .size(let size): w.point(CGPoint(x: size.width, y: size.height))
        case .filters(let list): encode(list, into: &w)
        case .rect(let r): w.rect(r)
        case .transform(let t): w.transform(t)
        case .bool(let b): w.bool(b)
        case .color(let c):
            w.bool(c != nil)
            if let c { w.color(c) }
        case .corners(let m): w.u32(UInt32(truncatingIfNeeded: m.rawValue))
        case .edges(let m): w.u32(m.rawValue)
        case .image(let id): w.u64(id)
        case .string(let s):
            w.bool(s != nil)
            if let s { w.string(s) }
        case .path(let p):
            w.bool(p != nil)
            if let p { w.path(p) }
        case .numbers(let list):
            w.bool(list != nil)
            if let list {
                w.u32(UInt32(list.count))
                for v in list { w.f64(v) }
            }
        case .colors(let list):
            w.bool(list != nil)
            if let list {
                w.u32(UInt32(list.count))
                for c in list { w.color(c) }
            }
        }
    }

    static func operations(_ r: inout WireReader) throws(WireError) -> [LayerOperation] {
        let n = try r.count("operations", limit: WireLimits.maxMessageBytes, minimumElementSize: 9)
        var ops: [LayerOperation] = []
        ops.reserveCapacity(n)
        for _ in 0..<n { ops.append(try operation(&r)) }
        return ops
    }

    static func operation(_ r: inout WireReader) throws(WireError) -> LayerOperation {
        let code = try r.u8("operation.code")
        switch code {
        case 1: return .createLayer(try r.u64("createLayer.id"))
        case 2: return .destroyLayer(try r.u64("destroyLayer.id"))
        case 3:
            let id = try r.u64("set.id")
            return .set(id, try property(&r))
        case 4:
            let id = try r.u64("setSublayers.id")
            let n = try r.count("setSublayers.sublayers", limit: WireLimits.maxSublayers, minimumElementSize: 8)
            var children: [LayerID] = []
            children.reserveCapacity(n)
            for _ in 0..<n { children.append(try r.u64("setSublayers.sublayer")) }
            return .setSublayers(id, children)
        case 5:
            let display = try r.u32("setRoot.display")
            let layer = try r.u64("setRoot.layer")
            return .setRoot(display: display, layer: layer == 0 ? nil : layer)
        case 6:
            let layer = try r.u64("addAnimation.layer")
            let id = try r.u64("addAnimation.id")
            let key = try r.string("addAnimation.key", limit: WireLimits.maxKeyBytes)
            return .addAnimation(
                layer, AttachedAnimation(id: id, key: key, record: try r.record("addAnimation.animation")))
        case 7:
            return .removeAnimation(try r.u64("removeAnimation.layer"), animationID: try r.u64("removeAnimation.id"))
        case 8:
            let id = try r.u64("setHost.layer")
            let contextId = try r.u32("setHost.contextId")
            return .setHost(id, contextId: contextId, token: try r.u64("setHost.token"))
        case 9:
            let id = try r.u64("createLayer.id")
            let raw = try r.u8("createLayer.class")
            // Class 0 (a plain layer) travels as code 1, so every operation has one encoding.
            guard raw != 0, let layerClass = LayerClass(rawValue: raw) else { throw .unknownLayerClass(raw) }
            return .createLayer(id, layerClass)
        case 10:
            let id = try r.u64("setMask.layer")
            let mask = try r.u64("setMask.mask")
            return .setMask(id, mask: mask == 0 ? nil : mask)
        case 11:
            return .surfaceChanged(try r.u64("surfaceChanged.id"))
        case 12:
            let id = try r.u64("setEmitterCells.layer")
            var budget = maxWireEmitterCells
            return .setEmitterCells(id, try emitterCells(&r, depth: 1, budget: &budget))
        default:
            throw .unknownOperation(code)
        }
    }

    static func property(_ r: inout WireReader) throws(WireError) -> LayerProperty {
        let code = try r.u8("set.property")
        guard let name = LayerPropertyName(rawValue: code) else { throw .unknownProperty(code) }
        let descriptor = name.descriptor
        let key = descriptor.key
        let value: LayerValue
        switch descriptor.kind {
        case .number: value = .number(try r.f64(key))
        case .float: value = .float(Float(try r.f64(key)))
        case .point: value = .point(try r.point(key))
        case .size:
            let p = try r.point(key)
            value = .size(CGSize(width: p.x, height: p.y))
        case .filters: value = .filters(try filters(&r, key))
        case .rect: value = .rect(try r.rect(key))
        case .transform: value = .transform(try r.transform(key))
        case .bool: value = .bool(try r.bool(key))
        case .color: value = .color(try r.bool(key + ".present") ? try r.color(key) : nil)
        case .corners: value = .corners(CACornerMask(rawValue: UInt(try r.u32(key))))
        case .edges: value = .edges(CAEdgeAntialiasingMask(rawValue: try r.u32(key)))
        case .image: value = .image(try r.u64(key))
        case .string:
            value = .string(try r.bool(key + ".present") ? try r.string(key, limit: WireLimits.maxStringBytes) : nil)
        case .path:
            value = .path(try r.bool(key + ".present") ? try r.path(key, limit: WireLimits.maxPathElements) : nil)
        case .numbers:
            guard try r.bool(key + ".present") else {
                value = .numbers(nil)
                break
            }
            let n = try r.count(key, limit: WireLimits.maxListElements, minimumElementSize: 8)
            var list: [Double] = []
            list.reserveCapacity(n)
            for _ in 0..<n { list.append(try r.f64(key)) }
            value = .numbers(list)
        case .colors:
            guard try r.bool(key + ".present") else {
                value = .colors(nil)
                break
            }
            let n = try r.count(key, limit: WireLimits.maxListElements, minimumElementSize: 32)
            var list: [RGBAColor] = []
            list.reserveCapacity(n)
            for _ in 0..<n { list.append(try r.color(key)) }
            value = .colors(list)
        }
        guard let property = LayerProperty(name, value) else { throw .badValue(field: key) }
        return property
    }
}
