import Foundation
import LaminaCore
import LaminaProtocol

/// Set-property operations made from their wire bytes (docs/protocol.md), so the seeds and the live
/// fuzzer depend on the protocol, which is stable, rather than on how `LayerProperty` is shaped.
enum SetOperation {
    /// The operation that sets property `code` of layer `id` to the value `write` puts on the wire.
    static func make(_ id: LayerID, code: UInt8, _ write: (inout WireWriter) -> Void) -> LayerOperation {
        var payload = WireWriter()
        payload.u64(0)
        payload.u32(1)
        payload.u8(3)
        payload.u64(id)
        payload.u8(code)
        write(&payload)
        var message = WireWriter()
        message.u16(MessageType.commit.rawValue)
        message.u16(0)
        message.u32(UInt32(payload.bytes.count))
        guard case .commit(_, let operations)? = try? MessageCodec.decodeClient(message.bytes + payload.bytes),
            let operation = operations.first
        else { fatalError("property \(code) does not decode from the bytes the fuzzer wrote") }
        return operation
    }

    static func bounds(_ id: LayerID, _ r: CGRect) -> LayerOperation { make(id, code: 1) { $0.rect(r) } }
    static func position(_ id: LayerID, _ p: CGPoint) -> LayerOperation { make(id, code: 2) { $0.point(p) } }
    static func anchorPoint(_ id: LayerID, _ p: CGPoint) -> LayerOperation { make(id, code: 3) { $0.point(p) } }
    static func anchorPointZ(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 4) { $0.f64(v) } }
    static func zPosition(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 5) { $0.f64(v) } }
    static func transform(_ id: LayerID, _ t: CATransform3D) -> LayerOperation {
        make(id, code: 6) { $0.transform(t) }
    }
    static func sublayerTransform(_ id: LayerID, _ t: CATransform3D) -> LayerOperation {
        make(id, code: 7) { $0.transform(t) }
    }
    static func opacity(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 8) { $0.f64(v) } }
    static func isHidden(_ id: LayerID, _ v: Bool) -> LayerOperation { make(id, code: 9) { $0.bool(v) } }
    static func backgroundColor(_ id: LayerID, _ c: RGBAColor?) -> LayerOperation {
        make(id, code: 10) { color(c, into: &$0) }
    }
    static func cornerRadius(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 11) { $0.f64(v) } }
    static func maskedCorners(_ id: LayerID, _ v: UInt32) -> LayerOperation { make(id, code: 12) { $0.u32(v) } }
    static func borderWidth(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 13) { $0.f64(v) } }
    static func borderColor(_ id: LayerID, _ c: RGBAColor?) -> LayerOperation {
        make(id, code: 14) { color(c, into: &$0) }
    }
    static func masksToBounds(_ id: LayerID, _ v: Bool) -> LayerOperation { make(id, code: 15) { $0.bool(v) } }
    static func name(_ id: LayerID, _ n: String?) -> LayerOperation {
        make(id, code: 16) {
            $0.bool(n != nil)
            if let n { $0.string(n) }
        }
    }
    static func beginTime(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 17) { $0.f64(v) } }
    static func timeOffset(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 18) { $0.f64(v) } }
    static func speed(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 19) { $0.f64(v) } }
    static func geometryFlipped(_ id: LayerID, _ v: Bool) -> LayerOperation { make(id, code: 20) { $0.bool(v) } }
    static func cornerCurve(_ id: LayerID, _ n: String?) -> LayerOperation {
        make(id, code: 21) {
            $0.bool(n != nil)
            if let n { $0.string(n) }
        }
    }

    static func contentsRect(_ id: LayerID, _ r: CGRect) -> LayerOperation { make(id, code: 22) { $0.rect(r) } }
    static func contentsCenter(_ id: LayerID, _ r: CGRect) -> LayerOperation { make(id, code: 23) { $0.rect(r) } }
    static func contentsScale(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 24) { $0.f64(v) } }
    static func contentsGravity(_ id: LayerID, _ n: String?) -> LayerOperation { string(id, code: 25, n) }
    static func allowsEdgeAntialiasing(_ id: LayerID, _ v: Bool) -> LayerOperation {
        make(id, code: 26) { $0.bool(v) }
    }
    static func allowsGroupOpacity(_ id: LayerID, _ v: Bool) -> LayerOperation { make(id, code: 27) { $0.bool(v) } }
    static func edgeAntialiasingMask(_ id: LayerID, _ v: UInt32) -> LayerOperation {
        make(id, code: 28) { $0.u32(v) }
    }
    static func minificationFilter(_ id: LayerID, _ n: String?) -> LayerOperation { string(id, code: 29, n) }
    static func magnificationFilter(_ id: LayerID, _ n: String?) -> LayerOperation { string(id, code: 30, n) }
    static func minificationFilterBias(_ id: LayerID, _ v: Double) -> LayerOperation {
        make(id, code: 31) { $0.f64(v) }
    }
    static func isOpaque(_ id: LayerID, _ v: Bool) -> LayerOperation { make(id, code: 32) { $0.bool(v) } }
    static func isDoubleSided(_ id: LayerID, _ v: Bool) -> LayerOperation { make(id, code: 33) { $0.bool(v) } }
    static func shouldRasterize(_ id: LayerID, _ v: Bool) -> LayerOperation { make(id, code: 34) { $0.bool(v) } }
    static func rasterizationScale(_ id: LayerID, _ v: Double) -> LayerOperation { make(id, code: 35) { $0.f64(v) } }

    /// A property whose value is an optional string: a presence byte, then the string.
    static func string(_ id: LayerID, code: UInt8, _ n: String?) -> LayerOperation {
        make(id, code: code) {
            $0.bool(n != nil)
            if let n { $0.string(n) }
        }
    }

    static func color(_ c: RGBAColor?, into w: inout WireWriter) {
        w.bool(c != nil)
        if let c { w.color(c) }
    }
}
