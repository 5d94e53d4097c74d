import Foundation
import LaminaCore
import LaminaProtocol

/// Seeds for `CATransformLayer` (issue 22): a transform layer under a container with perspective
/// holding two crossing faces and a nested transform layer inside an ordinary face, its turn animated,
/// and hostile trees (faces reaching behind the eye, 300 faces crossing in a fan, transform layers
/// nested 64 deep).
extension SeedCorpus {
    /// A perspective container, a transform layer with two faces crossing at 90° and an ordinary
    /// face holding a nested transform layer with a face 40 points in front.
    static var transformTreeOperations: [LayerOperation] {
        typealias S = SetOperation
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        return [
            .createLayer(1), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(1, CGPoint(x: 32, y: 24)),
            S.sublayerTransform(1, perspective),
            .createLayer(2, .transform), S.bounds(2, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(2, CGPoint(x: 32, y: 24)), S.transform(2, CATransform3DMakeRotation(0.3, 1, 0, 0)),
            .createLayer(3), S.bounds(3, CGRect(x: 0, y: 0, width: 40, height: 20)),
            S.position(3, CGPoint(x: 32, y: 24)),
            S.transform(3, CATransform3DMakeRotation(.pi / 4, 0, 1, 0)), S.backgroundColor(3, red),
            .createLayer(4), S.bounds(4, CGRect(x: 0, y: 0, width: 40, height: 20)),
            S.position(4, CGPoint(x: 32, y: 24)),
            S.transform(4, CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)), S.backgroundColor(4, blue),
            S.isDoubleSided(4, false),
            .createLayer(5), S.bounds(5, CGRect(x: 0, y: 0, width: 20, height: 20)),
            S.position(5, CGPoint(x: 12, y: 12)),
            .createLayer(6, .transform), S.bounds(6, CGRect(x: 0, y: 0, width: 20, height: 20)),
            S.position(6, CGPoint(x: 10, y: 10)),
            .createLayer(7), S.bounds(7, CGRect(x: 0, y: 0, width: 8, height: 8)), S.position(7, CGPoint(x: 10, y: 10)),
            S.transform(7, CATransform3DMakeTranslation(0, 0, 40)), S.backgroundColor(7, red),
            .setSublayers(6, [7]), .setSublayers(5, [6]), .setSublayers(2, [3, 4, 5]), .setSublayers(1, [2]),
            .setRoot(display: 0, layer: 1),
        ]
    }

    static func transformClientMessages() -> [(String, ClientMessage)] {
        let turn = animation(
            70, .basic(target("transform.rotation.y"), BasicValues(from: .number(0), to: .number(2 * .pi))))
        return [
            ("commit-transform-layer", .commit(serial: 70, operations: transformTreeOperations)),
            (
                "commit-transform-layer-animation",
                .commit(serial: 71, operations: transformTreeOperations + [.addAnimation(2, turn)])
            ),
        ]
    }

    static func transformHostile() -> [(String, [UInt8])] {
        typealias S = SetOperation
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 50
        let behind: [LayerOperation] = [
            .createLayer(1), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.sublayerTransform(1, perspective),
            .createLayer(2, .transform), S.bounds(2, CGRect(x: 0, y: 0, width: 64, height: 48)),
            .createLayer(3), S.bounds(3, CGRect(x: 0, y: 0, width: 400, height: 400)),
            S.transform(3, CATransform3DRotate(CATransform3DMakeTranslation(0, 0, 45), 1.2, 1, 0, 0)),
            S.backgroundColor(3, red),
            .setSublayers(2, [3]), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1),
        ]
        var fan: [LayerOperation] = [
            .createLayer(1, .transform), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
        ]
        for i in 0..<300 {
            let id = LayerID(10 + i)
            fan += [
                .createLayer(id), S.bounds(id, CGRect(x: 0, y: 0, width: 60, height: 40)),
                S.position(id, CGPoint(x: 32, y: 24)),
                S.transform(id, CATransform3DMakeRotation(Double(i) * .pi / 300, 0, 1, 0)), S.backgroundColor(id, blue),
            ]
        }
        fan += [.setSublayers(1, (0..<300).map { LayerID(10 + $0) }), .setRoot(display: 0, layer: 1)]
        var nested: [LayerOperation] = []
        for i in 1...64 {
            nested += [
                .createLayer(LayerID(i), .transform), S.bounds(LayerID(i), CGRect(x: 0, y: 0, width: 10, height: 10)),
                S.transform(LayerID(i), CATransform3DMakeRotation(0.1, 1, 1, 0)),
            ]
            if i > 1 { nested.append(.setSublayers(LayerID(i - 1), [LayerID(i)])) }
        }
        nested += [
            .createLayer(100), S.bounds(100, CGRect(x: 0, y: 0, width: 10, height: 10)), S.backgroundColor(100, red),
            .setSublayers(64, [100]), .setRoot(display: 0, layer: 1),
        ]
        return [
            ("transform-face-behind-the-eye", commit(behind)),
            ("transform-fan-of-300-crossing-faces", commit(fan)),
            ("transform-layers-nested-64-deep", commit(nested)),
        ]
    }
}
