import Foundation
import LaminaServer
import Testing

@testable import Lamina
@testable import LaminaProtocol

// The contents and rendering-hint properties of CALayer added for issue 10, point 4: their
// accessors, key-value coding and how the server stores and prints them. Each check names the Apple
// behaviour it mirrors.

@Suite("CALayer contents and rendering-hint properties")
struct ContentsPropertiesTests {
    @Test func newLayerReadsApplesDefaults() {
        // CALayer.h: contentsRect and contentsCenter default to [0 0; 1 1], contentsScale to 1,
        // contentsGravity to kCAGravityResize, both filters to kCAFilterLinear, minificationFilterBias
        // to 0, edgeAntialiasingMask to all four edges, allowsGroupOpacity and doubleSided to YES,
        // opaque and shouldRasterize to NO, rasterizationScale to 1.
        let layer = CALayer()
        let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
        #expect(layer.contentsRect == unit && layer.contentsCenter == unit)
        #expect(layer.contentsScale == 1 && layer.rasterizationScale == 1 && layer.minificationFilterBias == 0)
        #expect(layer.contentsGravity == .resize && layer.contentsGravity.rawValue == "resize")
        #expect(layer.minificationFilter == .linear && layer.magnificationFilter == .linear)
        #expect(layer.edgeAntialiasingMask.rawValue == 15)
        #expect(layer.allowsEdgeAntialiasing && layer.allowsGroupOpacity && layer.isDoubleSided)
        #expect(!layer.isOpaque && !layer.shouldRasterize)
    }

    @Test func constantsHaveApplesNamesAndBits() {
        // CALayer.h: the gravity and filter constants' string values, and CAEdgeAntialiasingMask's bits
        // kCALayerLeftEdge 1, RightEdge 2, BottomEdge 4, TopEdge 8.
        let gravities: [CALayerContentsGravity] = [
            .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight, .resize,
            .resizeAspect, .resizeAspectFill,
        ]
        #expect(
            gravities.map(\.rawValue) == [
                "center", "top", "bottom", "left", "right", "topLeft", "topRight", "bottomLeft", "bottomRight",
                "resize", "resizeAspect", "resizeAspectFill",
            ])
        #expect(
            [CALayerContentsFilter.linear, .nearest, .trilinear].map(\.rawValue) == ["linear", "nearest", "trilinear"])
        let edges: [CAEdgeAntialiasingMask] = [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]
        #expect(edges.map(\.rawValue) == [1, 2, 4, 8])
    }

    @Test func edgeMaskKeepsOnlyTheFourEdgeBits() {
        // Like maskedCorners (issue 10, point 2), only the four defined bits are kept: 255 reads 15,
        // and 0b1_0101 (21) keeps left and bottom (1 + 4 = 5).
        let layer = CALayer()
        layer.edgeAntialiasingMask = CAEdgeAntialiasingMask(rawValue: 255)
        #expect(layer.edgeAntialiasingMask.rawValue == 15)
        layer.edgeAntialiasingMask = CAEdgeAntialiasingMask(rawValue: 21)
        #expect(layer.edgeAntialiasingMask == [.layerLeftEdge, .layerBottomEdge])
        layer.setValue(NSNumber(value: 10), forKey: "edgeAntialiasingMask")
        #expect(layer.edgeAntialiasingMask == [.layerRightEdge, .layerTopEdge])
        #expect((layer.value(forKey: "edgeAntialiasingMask") as? NSNumber)?.intValue == 10)
        layer.setValue(NSNumber(value: Double.nan), forKey: "edgeAntialiasingMask")
        #expect(layer.edgeAntialiasingMask.rawValue == 0)
    }

    @Test func keyValueCodingReadsAndWritesTheNonAnimatableOnes() {
        // Apple's key-value coding: string-valued properties come back as the string, Booleans as
        // NSNumber; a gravity name Apple does not define becomes center (GNUstep's QuartzCore tests run
        // on macOS, issue 24).
        let layer = CALayer()
        layer.setValue("top", forKey: "contentsGravity")
        #expect(layer.contentsGravity == .top)
        layer.contentsGravity = CALayerContentsGravity("sideways")
        #expect(layer.value(forKey: "contentsGravity") as? String == "center")
        layer.setValue(CALayerContentsFilter.nearest.rawValue, forKey: "magnificationFilter")
        layer.setValue(CALayerContentsFilter.trilinear, forKey: "minificationFilter")
        #expect(layer.magnificationFilter == .nearest && layer.minificationFilter == .trilinear)
        layer.setValue(false, forKey: "allowsEdgeAntialiasing")
        layer.setValue(NSNumber(value: false), forKey: "allowsGroupOpacity")
        layer.setValue(true, forKey: "opaque")
        #expect(!layer.allowsEdgeAntialiasing && !layer.allowsGroupOpacity && layer.isOpaque)
        #expect((layer.value(forKey: "opaque") as? NSNumber)?.boolValue == true)
        #expect((layer.value(forKey: "allowsGroupOpacity") as? NSNumber)?.boolValue == false)
        layer.setValue(nil, forKey: "contentsGravity")
        #expect(layer.contentsGravity == .resize)
    }

    @Test func explicitAnimationsDriveThePresentationValue() throws {
        // CALayer.h marks contentsScale Animatable: halfway through a linear 1 s animation from 1 to
        // 3 the presented value is 1 + (3 − 1) × 0.5 = 2 (evaluated by the code the server runs).
        let layer = CALayer()
        let animation = CABasicAnimation(keyPath: "contentsScale")
        animation.fromValue = 1
        animation.toValue = 3
        animation.duration = 1
        animation.beginTime = 10
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        layer.add(animation, forKey: "scale")
        let entry = try #require(layer.attachedAnimations.first)
        var transitions: [TransitionProgress] = []
        let state = LayerAnimator.presentation(
            of: layer.modelState, animations: [AttachedAnimation(id: entry.id, key: entry.key, record: entry.record)],
            layerTime: 10.5, transitions: &transitions)
        #expect(abs(state.contentsScale - 2) < 1e-9)
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    @Test func animatableOnesReadThroughKeyPaths() throws {
        // CALayer.h marks contentsRect, contentsCenter, contentsScale, minificationFilterBias,
        // doubleSided, shouldRasterize and rasterizationScale Animatable: their fields are key paths.
        let layer = CALayer()
        layer.contentsRect = CGRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25)
        #expect((layer.value(forKeyPath: "contentsRect.size.width") as? NSNumber)?.doubleValue == 0.5)
        layer.setValue(0.75, forKeyPath: "contentsCenter.origin.x")
        #expect(layer.contentsCenter == CGRect(x: 0.75, y: 0, width: 1, height: 1))
        layer.setValue(2, forKey: "contentsScale")
        #expect(layer.contentsScale == 2)
        #expect((layer.value(forKey: "contentsScale") as? NSNumber)?.doubleValue == 2)
    }

    @Test func contentsRectChangeRunsTheImplicitAction() throws {
        // Apple: contentsRect is animatable with a default implicit CABasicAnimation from the old
        // value, added under the key "contentsRect" once the layer has been committed.
        let layer = CALayer()
        layer.hasBeenCommitted = true
        layer.contentsRect = CGRect(x: 0, y: 0, width: 0.5, height: 0.5)
        let animation = try #require(layer.animation(forKey: "contentsRect") as? CABasicAnimation)
        #expect(animation.keyPath == "contentsRect")
        #expect(animation.fromValue as? CGRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        // A non-animatable property (contentsGravity) runs no action.
        layer.contentsGravity = .center
        #expect(layer.animation(forKey: "contentsGravity") == nil)
        // App. B: doubleSided has no default implicit animation, and contentsCenter, contentsScale,
        // shouldRasterize and rasterizationScale are not listed, so they run none either.
        layer.isDoubleSided = false
        layer.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        layer.contentsScale = 2
        layer.shouldRasterize = true
        layer.rasterizationScale = 2
        layer.minificationFilterBias = 1
        for key in [
            "doubleSided", "contentsCenter", "contentsScale", "shouldRasterize", "rasterizationScale",
            "minificationFilterBias",
        ] {
            #expect(layer.animation(forKey: key) == nil, "\(key)")
        }
        // An action from the layer's actions dictionary still runs for them, as for any key.
        let fade = CABasicAnimation(keyPath: "contentsScale")
        layer.actions = ["contentsScale": fade]
        layer.contentsScale = 3
        #expect(layer.animation(forKey: "contentsScale") != nil)
        layer.removeAllAnimations()
        CATransaction.flush()
    }

    @Test func theServerStoresAndPrintsTheNonDefaultOnes() throws {
        // laminactl tree prints each property that differs from its default (TreeFormat of its row).
        let operations: [LayerOperation] = [
            .createLayer(1), .setRoot(display: 0, layer: 1),
            .set(1, .contentsGravity(.topLeft)), .set(1, .allowsEdgeAntialiasing(false)),
            .set(1, .edgeAntialiasingMask([.layerLeftEdge, .layerTopEdge])), .set(1, .isOpaque(true)),
            .set(1, .contentsScale(2)), .set(1, .magnificationFilter(.nearest)),
        ]
        let tree = try RenderTree().applying(operations, displayCount: 1)
        let text = TreeDescriber.describe([(label: "client", tree: tree)])
        #expect(
            text.contains(
                "contentsScale=2 contentsGravity=topLeft allowsEdgeAntialiasing=false edgeAntialiasingMask=9"
                    + " magnificationFilter=nearest opaque"), "\(text)")
        #expect(tree.layers[1]?.state.contentsGravity == .topLeft)
    }

    @Test func theServerRefusesHostileValuesWithoutTrapping() throws {
        // Numbers must be finite; contentsScale and rasterizationScale non-negative; the edge mask
        // has four bits (as maskedCorners).
        let base = try RenderTree().applying([.createLayer(1)], displayCount: 1)
        let hostile: [(LayerProperty, String)] = [
            (.contentsScale(-1), "layer 1: contentsScale is negative"),
            (.rasterizationScale(.infinity), "layer 1: rasterizationScale is NaN or infinite"),
            (.minificationFilterBias(.nan), "layer 1: minificationFilterBias is NaN or infinite"),
            (
                .contentsRect(CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)),
                "layer 1: contentsRect has a NaN or infinite component"
            ),
            (
                .edgeAntialiasingMask(CAEdgeAntialiasingMask(rawValue: 0x100)),
                "layer 1: edgeAntialiasingMask has unknown bits"
            ),
        ]
        for (property, reason) in hostile {
            #expect(throws: TransactionError.invalidValue(reason)) {
                try base.applying([.set(1, property)], displayCount: 1)
            }
        }
    }

    @Test func archivingKeepsThem() throws {
        // CALayer conforms to NSSecureCoding and archives its properties (issue 10, point 1); the new
        // rows are archived with the rest of the table.
        let layer = CALayer()
        layer.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        layer.contentsGravity = .bottomRight
        layer.edgeAntialiasingMask = [.layerTopEdge]
        layer.minificationFilterBias = -1.5
        layer.isDoubleSided = false
        layer.rasterizationScale = 3
        let data = try NSKeyedArchiver.archivedData(withRootObject: layer, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CALayer.self, from: data))
        #expect(back.contentsRect == CGRect(x: 0.5, y: 0, width: 0.5, height: 1))
        #expect(back.contentsGravity == .bottomRight)
        #expect(back.edgeAntialiasingMask == [.layerTopEdge])
        #expect(back.minificationFilterBias == -1.5 && !back.isDoubleSided && back.rasterizationScale == 3)
        #expect(back.contentsScale == 1 && back.allowsGroupOpacity)
    }
}
