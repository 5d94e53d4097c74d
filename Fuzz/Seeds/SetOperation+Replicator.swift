import Foundation
import LaminaCore
import LaminaProtocol

/// Set-property operations of `CAReplicatorLayer`'s rows (codes 68–76), from their wire bytes.
extension SetOperation {
    static func instanceCount(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 68) { $0.f64(v) } }
    static func instanceDelay(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 69) { $0.f64(v) } }
    static func instanceTransform(_ id: LayerID, _ t: CATransform3D) -> LayerOperation {
        make(id, code: 70) { $0.transform(t) }
    }
    static func instanceColor(_ id: LayerID, _ c: RGBAColor?) -> LayerOperation {
        make(id, code: 71) { color(c, into: &$0) }
    }
    static func instanceRedOffset(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 72) { $0.f64(v) } }
    static func instanceGreenOffset(_ id: LayerID, _ v: Double) -> LayerOperation {
        make(id, code: 73) { $0.f64(v) }
    }
    static func instanceBlueOffset(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 74) { $0.f64(v) } }
    static func instanceAlphaOffset(_ id: LayerID, _ v: Double) -> LayerOperation {
        make(id, code: 75) { $0.f64(v) }
    }
    static func preservesDepth(_ id: LayerID, _ v: Bool) -> LayerOperation { make(id, code: 76) { $0.bool(v) } }
}
