import Foundation
import LaminaCore
import LaminaProtocol

/// Seeds for `CAReplicatorLayer` (issue 22): a replicator with every row set holding a nested
/// replicator, its copies' opacity animated, and its hostile values (a count of NaN, below 0 and above
/// the limit, two replicators of 10,000 copies nested, a replicator row on a plain layer).
extension SeedCorpus {
    /// A replicator with every row set, holding a replicator of three and a square, under a plain root.
    static var replicatorTreeOperations: [LayerOperation] {
        typealias S = SetOperation
        return [
            .createLayer(1), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(1, CGPoint(x: 32, y: 24)),
            .createLayer(2, .replicator), S.bounds(2, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(2, CGPoint(x: 32, y: 24)), S.instanceCount(2, 12), S.instanceDelay(2, 0.1),
            S.instanceTransform(2, CATransform3DMakeRotation(.pi / 6, 0, 0, 1)), S.instanceColor(2, red),
            S.instanceRedOffset(2, -0.1), S.instanceGreenOffset(2, 0.1), S.instanceBlueOffset(2, 0.05),
            S.instanceAlphaOffset(2, -0.05), S.preservesDepth(2, true),
            .createLayer(3, .replicator), S.bounds(3, CGRect(x: 0, y: 0, width: 20, height: 20)),
            S.position(3, CGPoint(x: 32, y: 10)), S.instanceCount(3, 3),
            S.instanceTransform(3, CATransform3DScale(CATransform3DMakeTranslation(0, 22, 0), 1, -1, 0)),
            .createLayer(4), S.bounds(4, CGRect(x: 0, y: 0, width: 4, height: 8)), S.position(4, CGPoint(x: 10, y: 4)),
            S.backgroundColor(4, blue),
            .setSublayers(3, [4]), .setSublayers(2, [3]), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1),
        ]
    }

    static func replicatorClientMessages() -> [(String, ClientMessage)] {
        let fade = animation(60, .basic(target("opacity"), BasicValues(from: .number(1), to: .number(0))))
        return [
            ("commit-replicator", .commit(serial: 60, operations: replicatorTreeOperations)),
            (
                "commit-replicator-animation",
                .commit(serial: 61, operations: replicatorTreeOperations + [.addAnimation(4, fade)])
            ),
        ]
    }

    static func replicatorHostile() -> [(String, [UInt8])] {
        typealias S = SetOperation
        let replicator: [LayerOperation] = [
            .createLayer(1, .replicator), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            .setRoot(display: 0, layer: 1),
        ]
        let nested: [LayerOperation] =
            replicator + [
                S.instanceCount(1, 10_000), .createLayer(2, .replicator), S.instanceCount(2, 10_000),
                .createLayer(3), S.bounds(3, CGRect(x: 0, y: 0, width: 1, height: 1)), S.backgroundColor(3, red),
                .setSublayers(2, [3]), .setSublayers(1, [2]),
            ]
        return [
            ("replicator-nan-count", commit(replicator + [S.instanceCount(1, .nan)])),
            ("replicator-negative-count", commit(replicator + [S.instanceCount(1, -1)])),
            ("replicator-count-above-the-limit", commit(replicator + [S.instanceCount(1, 1e9)])),
            ("replicators-nested-at-the-limit", commit(nested)),
            ("replicator-row-on-a-plain-layer", commit([.createLayer(1), S.instanceCount(1, 2)])),
        ]
    }
}
