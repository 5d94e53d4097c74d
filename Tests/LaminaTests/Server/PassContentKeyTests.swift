import Foundation
import LaminaCore
import LaminaProtocol
import Testing

@testable import LaminaServer

/// Content keys of offscreen passes (docs/rendering.md, "Kept passes"), as display-list data: equal
/// for lists built alike, different when anything inside a pass changes, unchanged when only the
/// rasterized layer's own position or opacity changes, and absent for a pass that samples an image
/// whose pixels change in place (and for a pass around it).
struct PassContentKeyTests {
    static let image = RenderImageID(rawValue: 9)

    /// A 256×256 display: layer 2 (40×40 at (10, 10)), rasterized, holding layer 3 (20×20) that shows
    /// client image 5 (8×8, imported as `image`), with `extra` set on layer 2 and `inner` on layer 3;
    /// layer 4 masks layer 2 when `masked`.
    static func build(_ extra: [LayerProperty] = [], inner: [LayerProperty] = [], masked: Bool = false) throws
        -> DisplayList
    {
        var ops =
            ContentsDisplayListTests.layer(
                2, frame: CGRect(x: 10, y: 10, width: 40, height: 40),
                [.shouldRasterize(true), .backgroundColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))] + extra)
            + ContentsDisplayListTests.layer(3, frame: CGRect(x: 5, y: 5, width: 20, height: 20), inner)
            + [.setSublayers(2, [3])]
        if masked {
            ops += ContentsDisplayListTests.layer(
                4, frame: CGRect(x: 0, y: 0, width: 30, height: 30),
                [.backgroundColor(RGBAColor(red: 1, green: 1, blue: 1, alpha: 1))])
            ops.append(.setMask(3, mask: 4))
        }
        return try ContentsDisplayListTests.build(
            ops, children: [2], contents: [3: 5], images: [5: ContentsImage(image: image, width: 8, height: 8)])
    }

    @Test func listsBuiltAlikeHaveEqualKeys() throws {
        let a = try Self.build().passContentKeys()
        let b = try Self.build().passContentKeys()
        #expect(a.count == 1 && a[0] != nil)
        #expect(a == b)
    }

    /// Moving, fading or turning the rasterized layer leaves its raster's key; a change inside does not.
    @Test func onlyAChangeInsideTheRasterChangesItsKey() throws {
        let key = try Self.build().passContentKeys()
        let moved = try Self.build([.position(CGPoint(x: 100, y: 70))]).passContentKeys()
        let faded = try Self.build([.opacity(0.5)]).passContentKeys()
        let turned = try Self.build([.transform(CATransform3DMakeRotation(0.3, 0, 0, 1))]).passContentKeys()
        #expect(moved == key && faded == key && turned == key)
        let inner = try Self.build(inner: [.position(CGPoint(x: 16, y: 15))]).passContentKeys()
        #expect(inner != key)
        let scaled = try Self.build([.rasterizationScale(2)]).passContentKeys()
        #expect(scaled != key)
    }

    /// An image that changes in place (a shared surface) gives no key to the passes that sample it,
    /// directly or through an inner pass.
    @Test func aPassSamplingAnImageThatChangesInPlaceHasNoKey() throws {
        let list = try Self.build(masked: true)
        // The mask's pass, the masked layer's pass, then the raster around them.
        #expect(list.passes.count == 3)
        #expect(list.passContentKeys().allSatisfy { $0 != nil })
        let keys = list.passContentKeys { $0 == Self.image }
        // The masked layer's pass shows the image; the raster samples that pass. The mask's own pass
        // (a white background) keeps its key.
        #expect(keys == [keys[0], nil, nil] && keys[0] != nil)
    }

    /// A surface with a new frame inside a raster: the raster's image instance looks the same in the
    /// list (same pass, same place, same key), so the frame worker damages the pixels it covers.
    @Test func aChangedSurfaceInsideARasterDamagesTheRaster() throws {
        var list = try Self.build()
        list.damage = []
        FrameWorker.damage(&list, sampling: [Self.image])
        let shown = list.emitted.filter { $0.texture?.image == list.passes[0].image }
        #expect(shown.count == 1)
        #expect(list.damage == shown.map(\.pixels))
        // An image no pass or instance samples adds nothing.
        var other = try Self.build()
        other.damage = []
        FrameWorker.damage(&other, sampling: [RenderImageID(rawValue: 77)])
        #expect(other.damage == [])
    }
}
