import Foundation
import LaminaCore
import LaminaProtocol

/// Set-property operations of `CATextLayer`'s rows (codes 59–67), from their wire bytes.
extension SetOperation {
    static func textString(_ id: LayerID, _ n: String?) -> LayerOperation { string(id, code: 59, n) }
    static func font(_ id: LayerID, _ n: String?) -> LayerOperation { string(id, code: 60, n) }
    static func fontSize(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 61) { $0.f64(v) } }
    static func foregroundColor(_ id: LayerID, _ c: RGBAColor?) -> LayerOperation {
        make(id, code: 62) { color(c, into: &$0) }
    }
    static func wrapped(_ id: LayerID, _ v: Bool) -> LayerOperation { make(id, code: 63) { $0.bool(v) } }
    static func truncationMode(_ id: LayerID, _ n: String?) -> LayerOperation { string(id, code: 64, n) }
    static func alignmentMode(_ id: LayerID, _ n: String?) -> LayerOperation { string(id, code: 65, n) }
    static func allowsFontSubpixelQuantization(_ id: LayerID, _ v: Bool) -> LayerOperation {
        make(id, code: 66) { $0.bool(v) }
    }
    static func tintsContents(_ id: LayerID, _ v: Bool) -> LayerOperation { make(id, code: 67) { $0.bool(v) } }
}
