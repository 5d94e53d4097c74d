// The server's side of layer classes: a layer's class travels with createLayer, and a property or an
// animation of another class is refused with a named error (issue 20, point 5).
import Foundation
import LaminaProtocol
import LaminaServer
import Testing

@testable import Lamina
@testable import LaminaCore

@Suite struct LayerClassValidationTests {
    @Test func aLayerIsCreatedWithItsClassStorage() throws {
        let tree = try RenderTree().applying(
            [.createLayer(1), .createLayer(2, .shape), .createLayer(3, .gradient)], displayCount: 1)
        #expect(tree.layers[1]?.state.layerClass == .layer)
        #expect(tree.layers[2]?.state.layerClass == .shape)
        #expect(tree.layers[2]?.state.shape == ShapeLayerState())
        #expect(tree.layers[3]?.state.layerClass == .gradient)
        #expect(tree.layers[1]?.state.classState == LayerClassState.none)
    }

    @Test func aPropertyOfAnotherClassIsRefusedByName() throws {
        let tree = try RenderTree().applying([.createLayer(1), .createLayer(2, .gradient)], displayCount: 1)
        let error = #expect(throws: TransactionError.self) {
            try tree.applying([.set(1, .strokeEnd(0.5))], displayCount: 1)
        }
        #expect(error == .wrongLayerClass(1, key: "strokeEnd", owner: .shape, actual: .layer))
        #expect(error?.code == .wrongLayerClass)
        #expect(
            error?.description
                == "layer 1 is a CALayer, which has no property 'strokeEnd' (a CAShapeLayer property)")
        #expect(throws: TransactionError.wrongLayerClass(2, key: "path", owner: .shape, actual: .gradient)) {
            try tree.applying([.set(2, .path(nil))], displayCount: 1)
        }
        // Every layer has the base rows.
        _ = try tree.applying([.set(2, .opacity(0.5))], displayCount: 1)
    }

    @Test func anAnimationOfAnotherClassesPropertyIsRefused() throws {
        let tree = try RenderTree().applying([.createLayer(1), .createLayer(2, .shape)], displayCount: 1)
        let record = AnimationRecord(
            timing: MediaTiming(duration: 1), timingFunction: nil, isRemovedOnCompletion: true,
            content: .basic(
                PropertyTarget(keyPath: try #require(LayerKeyPath("strokeEnd"))),
                BasicValues(from: .number(0), to: .number(1))))
        let animation = AttachedAnimation(id: 1, key: "ring", record: record)
        #expect(throws: TransactionError.wrongLayerClass(1, key: "strokeEnd", owner: .shape, actual: .layer)) {
            try tree.applying([.addAnimation(1, animation)], displayCount: 1)
        }
        let applied = try tree.applying([.addAnimation(2, animation)], displayCount: 1)
        #expect(applied.layers[2]?.animations.count == 1)
        // An animation that drives a named sublayer is not checked against its own layer's class.
        var driven = record
        if case .basic(var target, let values) = driven.content {
            target.sublayerPath = ["ring"]
            driven.content = .basic(target, values)
        }
        _ = try tree.applying(
            [.addAnimation(1, AttachedAnimation(id: 2, key: "sub", record: driven))], displayCount: 1)
    }

    @Test func treesPrintTheClassAndItsProperties() throws {
        let tree = try RenderTree().applying(
            [
                .createLayer(1, .shape), .set(1, .path(CGPath(rect: CGRect(x: 10, y: 10, width: 40, height: 30)))),
                .set(1, .fillColor(nil)), .set(1, .strokeColor(RGBAColor(red: 1, green: 0, blue: 0, alpha: 1))),
                .set(1, .lineWidth(4)), .set(1, .lineDashPattern([4, 2])), .set(1, .strokeEnd(0.5)),
                .setRoot(display: 0, layer: 1),
            ], displayCount: 1)
        let text = TreeDescriber.describe([("client", tree)])
        #expect(
            text.contains(
                "layer 1 CAShapeLayer bounds=0,0,0,0 position=0,0 path=5 elements in 10,10,40,30 fill=none "
                    + "stroke=#ff0000ff lineWidth=4 dash=4,2 strokeEnd=0.5"), "\(text)")
    }

    @Test func treesPrintAReplicatorLayersProperties() throws {
        // laminactl tree prints CAReplicatorLayer's properties that differ from CAReplicatorLayer.h's
        // defaults (one copy, no delay, identity, opaque white, no offsets, not preserving depth).
        let layer = CAReplicatorLayer()
        layer.instanceCount = 12
        layer.instanceDelay = 0.1
        layer.instanceTransform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        layer.instanceAlphaOffset = -0.5
        layer.preservesDepth = true
        let changes = LayerProperty.differences(from: LayerState(layerClass: .replicator), to: layer.modelState)
        let tree = try RenderTree().applying(
            [.createLayer(1, .replicator)] + changes.map { .set(1, $0) } + [.setRoot(display: 0, layer: 1)],
            displayCount: 1)
        let text = TreeDescriber.describe([("client", tree)])
        #expect(
            text.contains(
                "layer 1 CAReplicatorLayer bounds=0,0,0,0 position=0,0 instances=12 instanceDelay=0.1 "
                    + "instanceTransform alphaOffset=-0.5 preservesDepth"), "\(text)")
    }

    @Test func treesPrintATextLayersProperties() throws {
        // laminactl tree prints CATextLayer's properties that differ from CATextLayer.h's defaults
        // (fontSize 36, foregroundColor opaque white, not wrapped, truncation none, alignment natural).
        let layer = CATextLayer()
        layer.string = "Hello, world"
        layer.font = "Helvetica-Bold" as CFTypeRef
        layer.fontSize = 20
        layer.foregroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.isWrapped = true
        layer.truncationMode = .end
        layer.alignmentMode = .center
        let changes = LayerProperty.differences(from: LayerState(layerClass: .text), to: layer.modelState)
        let tree = try RenderTree().applying(
            [.createLayer(1, .text)] + changes.map { .set(1, $0) } + [.setRoot(display: 0, layer: 1)],
            displayCount: 1)
        let text = TreeDescriber.describe([("client", tree)])
        #expect(
            text.contains(
                "layer 1 CATextLayer bounds=0,0,0,0 position=0,0 string=\"Hello, world\" font=Helvetica-Bold "
                    + "fontSize=20 foreground=#ff0000ff wrapped truncation=end alignment=center"), "\(text)")
    }
}
