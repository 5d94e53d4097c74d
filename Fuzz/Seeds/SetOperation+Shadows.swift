import Foundation
import LaminaCore
import LaminaProtocol

/// Set-property operations of the shadow's rows (codes 54–58, docs/protocol.md §7).
extension SetOperation {
    static func shadowColor(_ id: LayerID, _ c: RGBAColor?) -> LayerOperation {
        make(id, code: 54) { color(c, into: &$0) }
    }
    static func shadowOpacity(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 55) { $0.f64(v) } }
    static func shadowRadius(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 56) { $0.f64(v) } }
    static func shadowOffset(_ id: LayerID, _ width: Double, _ height: Double) -> LayerOperation {
        make(id, code: 57) {
            $0.f64(width)
            $0.f64(height)
        }
    }
    static func shadowPath(_ id: LayerID, _ p: CGPath?) -> LayerOperation {
        make(id, code: 58) { path(p, into: &$0) }
    }
}
