import Foundation
import LaminaCore
import LaminaProtocol

/// Set-property operations of `CAEmitterLayer`'s rows (codes 77–89), from their wire bytes.
extension SetOperation {
    static func emitterBirthRate(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 77) { $0.f64(v) } }
    static func emitterLifetime(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 78) { $0.f64(v) } }
    static func emitterVelocity(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 79) { $0.f64(v) } }
    static func emitterScale(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 80) { $0.f64(v) } }
    static func emitterSpin(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 81) { $0.f64(v) } }
    static func emitterPosition(_ id: LayerID, _ p: CGPoint) -> LayerOperation {
        make(id, code: 82) {
            $0.f64(Double(p.x)); $0.f64(Double(p.y))
        }
    }
    static func emitterZPosition(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 83) { $0.f64(v) } }
    static func emitterSize(_ id: LayerID, _ s: CGSize) -> LayerOperation {
        make(id, code: 84) {
            $0.f64(Double(s.width)); $0.f64(Double(s.height))
        }
    }
    static func emitterDepth(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 85) { $0.f64(v) } }
    static func emitterShape(_ id: LayerID, _ s: String) -> LayerOperation {
        make(id, code: 86) {
            $0.bool(true); $0.string(s)
        }
    }
    static func emitterMode(_ id: LayerID, _ s: String) -> LayerOperation {
        make(id, code: 87) {
            $0.bool(true); $0.string(s)
        }
    }
    static func renderMode(_ id: LayerID, _ s: String) -> LayerOperation {
        make(id, code: 88) {
            $0.bool(true); $0.string(s)
        }
    }
    static func emitterSeed(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 89) { $0.f64(v) } }
    static func emitterPreservesDepth(_ id: LayerID, _ v: Bool) -> LayerOperation {
        make(id, code: 93) { $0.bool(v) }
    }
}
