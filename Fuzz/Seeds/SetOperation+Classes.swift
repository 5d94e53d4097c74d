import Foundation
import LaminaCore
import LaminaProtocol

/// Set-property operations of the layer classes' own properties (codes 37–53), from their wire bytes.
extension SetOperation {
    /// A path's wire layout: a presence byte, the element count, then per element its code and points.
    static func path(_ p: CGPath?, into w: inout WireWriter) {
        w.bool(p != nil)
        guard let p else { return }
        var elements: [(UInt8, [CGPoint])] = []
        p.applyWithBlock { element in
            let e = element.pointee
            switch e.type {
            case .moveToPoint: elements.append((1, [e.points[0]]))
            case .addLineToPoint: elements.append((2, [e.points[0]]))
            case .addQuadCurveToPoint: elements.append((3, [e.points[1], e.points[0]]))
            case .addCurveToPoint: elements.append((4, [e.points[2], e.points[0], e.points[1]]))
            case .closeSubpath: elements.append((5, []))
            }
        }
        w.u32(UInt32(elements.count))
        for (code, points) in elements {
            w.u8(code)
            for point in points { w.point(point) }
        }
    }

    static func numbers(_ list: [Double]?, into w: inout WireWriter) {
        w.bool(list != nil)
        guard let list else { return }
        w.u32(UInt32(list.count))
        for v in list { w.f64(v) }
    }

    static func path(_ id: LayerID, _ p: CGPath?) -> LayerOperation { make(id, code: 37) { path(p, into: &$0) } }
    static func fillColor(_ id: LayerID, _ c: RGBAColor?) -> LayerOperation {
        make(id, code: 38) { color(c, into: &$0) }
    }
    static func fillRule(_ id: LayerID, _ n: String?) -> LayerOperation { string(id, code: 39, n) }
    static func strokeColor(_ id: LayerID, _ c: RGBAColor?) -> LayerOperation {
        make(id, code: 40) { color(c, into: &$0) }
    }
    static func lineWidth(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 41) { $0.f64(v) } }
    static func miterLimit(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 42) { $0.f64(v) } }
    static func lineCap(_ id: LayerID, _ n: String?) -> LayerOperation { string(id, code: 43, n) }
    static func lineJoin(_ id: LayerID, _ n: String?) -> LayerOperation { string(id, code: 44, n) }
    static func lineDashPattern(_ id: LayerID, _ list: [Double]?) -> LayerOperation {
        make(id, code: 45) { numbers(list, into: &$0) }
    }
    static func lineDashPhase(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 46) { $0.f64(v) } }
    static func strokeStart(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 47) { $0.f64(v) } }
    static func strokeEnd(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 48) { $0.f64(v) } }
    static func colors(_ id: LayerID, _ list: [RGBAColor]?) -> LayerOperation {
        make(id, code: 49) {
            $0.bool(list != nil)
            guard let list else { return }
            $0.u32(UInt32(list.count))
            for c in list { $0.color(c) }
        }
    }
    static func locations(_ id: LayerID, _ list: [Double]?) -> LayerOperation {
        make(id, code: 50) { numbers(list, into: &$0) }
    }
    static func startPoint(_ id: LayerID, _ p: CGPoint) -> LayerOperation { make(id, code: 51) { $0.point(p) } }
    static func endPoint(_ id: LayerID, _ p: CGPoint) -> LayerOperation { make(id, code: 52) { $0.point(p) } }
    static func gradientType(_ id: LayerID, _ n: String?) -> LayerOperation { string(id, code: 53, n) }
}
