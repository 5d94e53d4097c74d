// The server's side of CAReplicatorLayer: its values validated with named errors, the copies it
// draws bounded (hostile input: a replicator of 10^9, replicators nested to multiply), and the
// copies' instances.
import Foundation
import LaminaProtocol
import Testing

@testable import LaminaCore
@testable import LaminaServer

@Suite struct ReplicatorDisplayListTests {
    static func layer(_ id: LayerID, _ layerClass: LayerClass = .layer, frame: CGRect) -> [LayerOperation] {
        [
            .createLayer(id, layerClass), .set(id, .bounds(CGRect(origin: .zero, size: frame.size))),
            .set(id, .position(CGPoint(x: frame.midX, y: frame.midY))),
        ]
    }

    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)

    @Test(arguments: [
        (LayerProperty.instanceCount(.nan), "layer 1: instanceCount is NaN or infinite"),
        (.instanceCount(-1), "layer 1: instanceCount is negative"),
        (.instanceCount(10_001), "layer 1: instanceCount is above 10000"),
        (.instanceCount(1e9), "layer 1: instanceCount is above 10000"),
        (.instanceDelay(.infinity), "layer 1: instanceDelay is NaN or infinite"),
        (.instanceAlphaOffset(.nan), "layer 1: instanceAlphaOffset is NaN or infinite"),
        (
            .instanceTransform(CATransform3DMakeScale(.nan, 1, 1)),
            "layer 1: instanceTransform has a NaN or infinite entry"
        ),
    ])
    func badValuesAreRefusedByName(_ property: LayerProperty, _ reason: String) throws {
        let tree = try RenderTree().applying([.createLayer(1, .replicator)], displayCount: 1)
        #expect(throws: TransactionError.invalidValue(reason)) {
            try tree.applying([.set(1, property)], displayCount: 1)
        }
        // The limit itself and a count of 0 (nothing drawn) are accepted.
        let applied = try tree.applying([.set(1, .instanceCount(10_000))], displayCount: 1)
        #expect(applied.layers[1]?.state.replicator.instanceCount == 10_000)
        _ = try tree.applying([.set(1, .instanceCount(0))], displayCount: 1)
    }

    @Test func aReplicatorPropertyOfAnotherClassIsRefused() throws {
        let tree = try RenderTree().applying([.createLayer(1)], displayCount: 1)
        #expect(
            throws: TransactionError.wrongLayerClass(1, key: "instanceCount", owner: .replicator, actual: .layer)
        ) {
            try tree.applying([.set(1, .instanceCount(3))], displayCount: 1)
        }
    }

    /// One fill per copy, each moved by the transform's power; a count of 0 draws no sublayer at all.
    @Test func eachCopyIsOneMoreStep() throws {
        func fills(count: Double) throws -> [SIMD4<Float>] {
            let tree = try RenderTree().applying(
                Self.layer(1, .replicator, frame: CGRect(x: 0, y: 0, width: 100, height: 20))
                    + [
                        .set(1, .instanceCount(count)),
                        .set(1, .instanceTransform(CATransform3DMakeTranslation(15, 0, 0))),
                    ]
                    + Self.layer(2, frame: CGRect(x: 2, y: 4, width: 10, height: 10))
                    + [.set(2, .backgroundColor(Self.red)), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1)],
                displayCount: 1)
            let list = DisplayListBuilder.build(trees: [tree], display: 0, width: 100, height: 20)
            return list.instances(of: .opaqueFill, as: FillInstance.self).map(\.rect)
        }
        #expect(try fills(count: 3) == [SIMD4(2, 4, 12, 14), SIMD4(17, 4, 27, 14), SIMD4(32, 4, 42, 14)])
        #expect(try fills(count: 0).isEmpty)
        #expect(try fills(count: 1) == [SIMD4(2, 4, 12, 14)])
    }

    /// Two nested replicators of 10,000 copies each would draw 10^8 layers: the tree's copies past
    /// `maxReplicaVisits` draw nothing, so the frame is built in bounded time.
    @Test func nestedReplicatorsAreBoundedPerTree() throws {
        let tree = try RenderTree().applying(
            Self.layer(1, .replicator, frame: CGRect(x: 0, y: 0, width: 10, height: 10))
                + Self.layer(2, .replicator, frame: CGRect(x: 0, y: 0, width: 10, height: 10))
                + Self.layer(3, frame: CGRect(x: 0, y: 0, width: 1, height: 1))
                + [
                    .set(1, .instanceCount(10_000)), .set(2, .instanceCount(10_000)),
                    .set(3, .backgroundColor(Self.red)), .setSublayers(1, [2]), .setSublayers(2, [3]),
                    .setRoot(display: 0, layer: 1),
                ], displayCount: 1)
        let list = DisplayListBuilder.build(trees: [tree], display: 0, width: 10, height: 10)
        #expect(list.layersVisited > 100_000)
        #expect(list.layersVisited <= DisplayListBuilder.maxReplicaVisits + 20_002)
    }

    /// Contents are multiplied by the copy's colour too: each copy's image instance carries the copy's
    /// red, green and blue times its alpha in its opacity lanes (the texel is premultiplied).
    @Test func contentsAreMultipliedByTheCopysColour() throws {
        var tree = try RenderTree().applying(
            Self.layer(1, .replicator, frame: CGRect(x: 0, y: 0, width: 100, height: 40))
                + [
                    .set(1, .instanceCount(3)), .set(1, .instanceTransform(CATransform3DMakeTranslation(30, 0, 0))),
                    .set(1, .instanceColor(RGBAColor(red: 1, green: 0.5, blue: 0.25, alpha: 1))),
                    .set(1, .instanceGreenOffset(0.25)), .set(1, .instanceAlphaOffset(-0.5)),
                ]
                + Self.layer(2, frame: CGRect(x: 0, y: 0, width: 20, height: 20))
                + [.setSublayers(1, [2]), .setRoot(display: 0, layer: 1)],
            displayCount: 1)
        tree.layers[2]!.state.contents = 5
        tree.contentsImages = [5: ContentsImage(image: RenderImageID(rawValue: 7), width: 20, height: 20)]
        let list = DisplayListBuilder.build(trees: [tree], display: 0, width: 100, height: 40)
        let images =
            list.instances(of: .plainImage, as: ImageInstance.self) + list.instances(of: .image, as: ImageInstance.self)
        #expect(images.map(\.rect.x) == [0, 30], "copy 2's alpha is 1 − 2 × 0.5 = 0: not drawn")
        // Copy 0: (1, 0.5, 0.25) at alpha 1; copy 1: (1, 0.75, 0.25) at alpha 0.5 (127 on 8-bit steps).
        #expect(images.first?.opacity == SIMD4(1, 0.5, 0.25, 1))
        let half = Float(127) / 255
        #expect(images.last?.opacity == SIMD4(1, 0.75, 0.25, 1) * half)
    }

    /// The replicator's properties animate on the server's clock (CAReplicatorLayer.h: "Animatable"):
    /// halfway through, `instanceCount` 1 → 5 draws 3 copies and `instanceTransform` translate 10 → 30
    /// puts them 20 apart; the key path `instanceTransform.translation.x` names the same component.
    @Test func replicatorPropertiesAnimateOnTheServersClock() throws {
        func record(_ key: String, _ from: AnimationValue, _ to: AnimationValue) throws -> AnimationRecord {
            AnimationRecord(
                timing: MediaTiming(duration: 1), timingFunction: nil, isRemovedOnCompletion: false,
                content: .basic(
                    PropertyTarget(keyPath: try #require(LayerKeyPath(key))), BasicValues(from: from, to: to)))
        }
        let count = try record("instanceCount", .number(1), .number(5))
        let move = try record(
            "instanceTransform", .transform(CATransform3DMakeTranslation(10, 0, 0)),
            .transform(CATransform3DMakeTranslation(30, 0, 0)))
        let tree = try RenderTree().applying(
            Self.layer(1, .replicator, frame: CGRect(x: 0, y: 0, width: 100, height: 20))
                + Self.layer(2, frame: CGRect(x: 0, y: 0, width: 10, height: 10))
                + [
                    .set(2, .backgroundColor(Self.red)), .setSublayers(1, [2]),
                    .addAnimation(1, AttachedAnimation(id: 1, key: "count", record: count)),
                    .addAnimation(1, AttachedAnimation(id: 2, key: "move", record: move)),
                    .setRoot(display: 0, layer: 1),
                ], displayCount: 1)
        let list = DisplayListBuilder.build(trees: [tree], display: 0, width: 100, height: 20, time: 0.5)
        // The copies move (their replicator is animated): each is one coverage fill.
        #expect(
            list.instances(of: .coverageFill, as: CoverageFillInstance.self).map(\.pixels) == [
                SIMD4(0, 0, 10, 10), SIMD4(20, 0, 30, 10), SIMD4(40, 0, 50, 10),
            ])
        #expect(LayerKeyPath("instanceTransform.translation.x")?.property == .instanceTransform)
        #expect(LayerKeyPath("instanceTransform.rotation.z") != nil)
    }
}
