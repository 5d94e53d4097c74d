import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

/// The filter rows (codes 90–92) and filter-radius animation targets on the wire: their bytes as
/// docs/protocol.md §6 and §7 lay them out, round trips, and the refusals that name the property.
@Suite struct FilterCodecTests {
    static let blur = LayerFilter(filterName: "CIGaussianBlur", name: "blur", radius: 2.5)

    @Test func aFilterListIsLaidOutAsProtocolMdSays() throws {
        let message = ClientMessage.transactionPart([.set(4, .filters([Self.blur]))])
        let encoded = MessageCodec.encode(message)
        let expected = framed(
            type: 2,
            bytes {
                $0.u32(1)
                $0.u8(3); $0.u64(4); $0.u8(90)
                $0.u8(1); $0.string("CIGaussianBlur"); $0.string("blur"); $0.f64(2.5)
            })
        #expect(encoded == expected)
        #expect(try MessageCodec.decodeClient(encoded) == message)
        let others = ClientMessage.transactionPart([
            .set(4, .backgroundFilters([Self.blur, LayerFilter(filterName: "CIPixellate")])),
            .set(4, .compositingFilter(8)), .set(4, .filters([])),
        ])
        #expect(try MessageCodec.decodeClient(MessageCodec.encode(others)) == others)
    }

    /// `filters.blur.inputRadius`: property 58, component 16, then the name; decoded back to the same
    /// key path. A name with a dot, or an empty one, is `badValue`.
    @Test func aRadiusTargetCarriesTheFiltersName() throws {
        let record = AnimationRecord(
            timing: MediaTiming(beginTime: 0, duration: 1),
            content: .basic(
                PropertyTarget(keyPath: LayerKeyPath("filters.blur.inputRadius")!),
                BasicValues(from: .number(1), to: .number(4))))
        let message = ClientMessage.transactionPart([
            .addAnimation(2, AttachedAnimation(id: 9, key: "r", record: record))
        ])
        let encoded = MessageCodec.encode(message)
        #expect(try MessageCodec.decodeClient(encoded) == message)
        var target = WireWriter()
        target.u8(58); target.u8(16); target.string("blur")
        #expect(encoded.indices.contains { encoded[$0...].starts(with: target.bytes) })
        for bad in ["", "a.b"] {
            var broken = WireWriter()
            broken.u8(58); broken.u8(16); broken.string(bad)
            let bytes = encoded.replacing(target.bytes, with: broken.bytes)
            let payload = Array(bytes[8...])
            let reframed = framed(type: 2, payload)
            #expect(throws: WireError.badValue(field: "addAnimation.animation.target.filterName")) {
                try MessageCodec.decodeClient(reframed)
            }
        }
    }

    /// The server's checks name the property: 17 filters, a NaN or negative radius, an unknown or
    /// fractional blend code (LayerProperty.invalidReason).
    @Test func badValuesAreRefusedByName() {
        let many = (0..<17).map { LayerFilter(filterName: "CIGaussianBlur", name: "b\($0)", radius: 1) }
        #expect(LayerProperty.filters(many).invalidReason == "filters has 17 filters, more than 16")
        #expect(
            LayerProperty.backgroundFilters([LayerFilter(filterName: "CIGaussianBlur", radius: .infinity)])
                .invalidReason == "backgroundFilters has a NaN or infinite inputRadius")
        #expect(
            LayerProperty.filters([LayerFilter(filterName: "CIGaussianBlur", radius: -2)]).invalidReason
                == "filters has a negative inputRadius")
        let long = String(repeating: "n", count: 129)
        #expect(
            LayerProperty.filters([LayerFilter(filterName: long)]).invalidReason
                == "filters has a filter name longer than 128 bytes")
        #expect(
            LayerProperty.compositingFilter(1.5).invalidReason == "compositingFilter has an unknown blend mode code 1.5"
        )
        #expect(
            LayerProperty.compositingFilter(-1).invalidReason == "compositingFilter has an unknown blend mode code -1.0"
        )
        #expect(LayerProperty.compositingFilter(1e300).invalidReason != nil)
        #expect(LayerProperty.compositingFilter(11).invalidReason == nil)
        #expect(LayerProperty.filters(Array(many.prefix(16))).invalidReason == nil)
    }
}
