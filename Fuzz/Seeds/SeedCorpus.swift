import Foundation
import LaminaCore
import LaminaProtocol

/// The committed seed corpus: valid messages of every type in both directions, conversations that
/// build, animate and tear down a tree, and the hostile cases of the integration tests. Written to
/// Fuzz/corpus by `Tools/fuzz --write-seeds`; the live fuzzer mutates the same messages.
enum SeedCorpus {
    /// Every seed, by file name, in a stable order.
    static func seeds() -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        for (name, message) in clientMessages() + classClientMessages() + shadowClientMessages()
            + textClientMessages() + replicatorClientMessages() + surfaceClientMessages() + emitterClientMessages()
            + transformClientMessages() + filterClientMessages()
        {
            seeds.append(("client-\(name)", MessageCodec.encode(message)))
        }
        for (name, message) in serverMessages() { seeds.append(("server-\(name)", MessageCodec.encode(message))) }
        for (name, messages) in conversations() {
            seeds.append(("conversation-\(name)", messages.flatMap { MessageCodec.encode($0) }))
        }
        for (name, bytes) in hostile() + classHostile() + shadowHostile() + textHostile() + replicatorHostile()
            + surfaceHostile() + emitterHostile() + transformHostile() + filterHostile()
        {
            seeds.append(("hostile-\(name)", bytes))
        }
        return seeds
    }

    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = RGBAColor(red: 0, green: 0.25, blue: 1, alpha: 0.5)

    /// A tree of five layers on both displays with every property set on layer 2.
    static var treeOperations: [LayerOperation] {
        var rotated = CATransform3DMakeRotation(0.5, 0, 0, 1)
        rotated.m34 = -1 / 500
        typealias S = SetOperation
        var ops: [LayerOperation] = (1...5).map { .createLayer(LayerID($0)) }
        ops += [
            S.bounds(2, CGRect(x: 0, y: 0, width: 40, height: 30)), S.position(2, CGPoint(x: 32, y: 24)),
            S.anchorPoint(2, CGPoint(x: 0.25, y: 0.75)), S.anchorPointZ(2, 3), S.zPosition(2, 2),
            S.transform(2, rotated),
            S.sublayerTransform(2, CATransform3DMakeScale(1.5, 0.5, 1)), S.opacity(2, 0.75), S.isHidden(2, false),
            S.backgroundColor(2, red), S.cornerRadius(2, 6), S.maskedCorners(2, 5), S.borderWidth(2, 2),
            S.borderColor(2, blue), S.masksToBounds(2, true), S.name(2, "two"), S.beginTime(2, 0.5),
            S.timeOffset(2, 0.25), S.speed(2, 2),
        ]
        ops += [
            SetOperation.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            SetOperation.position(1, CGPoint(x: 32, y: 24)),
            SetOperation.backgroundColor(1, blue), SetOperation.bounds(3, CGRect(x: 0, y: 0, width: 10, height: 10)),
            SetOperation.backgroundColor(3, red), SetOperation.backgroundColor(4, nil), SetOperation.name(4, nil),
            SetOperation.bounds(5, CGRect(x: 0, y: 0, width: 64, height: 48)), SetOperation.backgroundColor(5, red),
            .setSublayers(1, [2, 3]), .setSublayers(2, [4]), .setRoot(display: 0, layer: 1),
            .setRoot(display: 1, layer: 2), .setRoot(display: 1, layer: nil), .setRoot(display: 1, layer: 5),
        ]
        return ops
    }

    static func animation(
        _ id: UInt64, _ content: AnimationRecord.Content, timing: MediaTiming = MediaTiming(duration: 1),
        curve: TimingCurve? = nil, removed: Bool = true
    ) -> AttachedAnimation {
        AttachedAnimation(
            id: id, key: "k\(id)",
            record: AnimationRecord(
                timing: timing, timingFunction: curve, isRemovedOnCompletion: removed,
                content: content))
    }

    static func target(_ key: String, function: CAValueFunctionName? = nil, additive: Bool = false) -> PropertyTarget {
        PropertyTarget(
            keyPath: LayerKeyPath(key) ?? LayerKeyPath(.opacity), isAdditive: additive,
            isCumulative: additive, valueFunction: function)
    }

    /// One animation of every kind and value type.
    static var animations: [AttachedAnimation] {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 10, y: 0))
        path.addQuadCurve(to: CGPoint(x: 20, y: 10), control: CGPoint(x: 20, y: 0))
        path.addCurve(to: CGPoint(x: 0, y: 20), control1: CGPoint(x: 20, y: 30), control2: CGPoint(x: 5, y: 30))
        path.closeSubpath()
        path.addArc(center: CGPoint(x: 30, y: 30), radius: 5, startAngle: 0, endAngle: 3, clockwise: false)
        let repeating = MediaTiming(
            beginTime: 0.1, timeOffset: 0.2, duration: 0.5, speed: 1.5, repeatCount: 2.5,
            autoreverses: true, fillMode: .both)
        return [
            animation(
                1, .basic(target("opacity"), BasicValues(from: .number(0), to: .number(1))),
                curve: TimingCurve(0.25, 0.1, 0.25, 1)),
            animation(2, .basic(target("position"), BasicValues(by: .point(CGPoint(x: 5, y: 5)))), timing: repeating),
            animation(3, .basic(target("bounds"), BasicValues(to: .rect(CGRect(x: 0, y: 0, width: 5, height: 50))))),
            animation(4, .basic(target("bounds.size"), BasicValues(from: .size(CGSize(width: 1, height: 2))))),
            animation(5, .basic(target("backgroundColor"), BasicValues(from: .color(red), to: .color(nil)))),
            animation(6, .basic(target("hidden"), BasicValues(to: .bool(true))), removed: false),
            animation(7, .basic(target("transform"), BasicValues(to: .transform(CATransform3DMakeScale(2, 2, 1))))),
            animation(8, .basic(target("transform", function: .rotateZ, additive: true), BasicValues(by: .number(3)))),
            animation(9, .basic(target("transform", function: .translate), BasicValues(to: .vector(SIMD3(1, 2, 3))))),
            animation(
                18,
                .basic(
                    PropertyTarget(keyPath: LayerKeyPath(.opacity), sublayerPath: ["child", "grandchild"]),
                    BasicValues(from: .number(0), to: .number(1)))),
            animation(
                10,
                .spring(
                    target("position.x"), BasicValues(from: .number(0), to: .number(40)),
                    SpringParameters(mass: 1, stiffness: 200, damping: 5, initialVelocity: 2))),
            animation(
                11,
                .keyframe(
                    target("opacity"),
                    Keyframes(
                        values: [.number(0), .number(1), .number(0.5)],
                        keyTimes: [0, 0.3, 1],
                        timingFunctions: [
                            TimingCurve(0, 0, 1, 1),
                            TimingCurve(0.4, 0, 0.6, 1),
                        ]))),
            animation(
                12,
                .keyframe(
                    target("position"),
                    Keyframes(
                        values: [], path: path, calculationMode: .paced,
                        rotationMode: .rotateAuto))),
            animation(
                13,
                .keyframe(
                    target("cornerRadius"),
                    Keyframes(
                        values: [.number(0), .number(8), .number(2), .number(4)], calculationMode: .cubic,
                        tensionValues: [0, 0.5, -0.5, 1], continuityValues: [0, 0, 0, 0], biasValues: [1, 0, 0, -1]))),
            animation(
                14,
                .keyframe(
                    target("zPosition"),
                    Keyframes(
                        values: [.number(0), .number(9), .number(3)],
                        calculationMode: .cubicPaced))),
            animation(
                15,
                .keyframe(
                    target("borderColor"),
                    Keyframes(
                        values: [.color(red), .color(blue)],
                        calculationMode: .discrete))),
            animation(
                16,
                .group([
                    AnimationRecord(
                        timing: MediaTiming(duration: 0.5),
                        content: .basic(
                            target("opacity"),
                            BasicValues(to: .number(0)))),
                    AnimationRecord(
                        timing: MediaTiming(beginTime: 0.5, duration: 0.5),
                        content: .group([
                            AnimationRecord(
                                timing: MediaTiming(duration: 1),
                                content: .basic(
                                    target("zPosition"), BasicValues(to: .number(5))))
                        ])),
                ]), timing: MediaTiming(duration: 1, repeatCount: .infinity)),
            animation(
                17,
                .transition(
                    TransitionParameters(
                        type: .push, subtype: .fromLeft, startProgress: 0.2,
                        endProgress: 0.9))),
        ]
    }

    static func clientMessages() -> [(String, ClientMessage)] {
        var out: [(String, ClientMessage)] = [
            ("hello", .hello(version: WireLimits.protocolVersion, clientName: "fuzz")),
            ("ping", .ping(requestID: 1)), ("describe-tree", .describeTree(requestID: 2)),
            ("frame-events-on", .frameEvents(enabled: true)), ("frame-events-off", .frameEvents(enabled: false)),
            ("capture-now", .capture(requestID: 3, display: 0, time: nil)),
            ("capture-at", .capture(requestID: 4, display: 1, time: 2.5)),
            ("capture-layer", .captureLayer(requestID: 6, layer: 2, width: 32, height: 24, scale: 2)),
            ("part", .transactionPart([.createLayer(9), SetOperation.opacity(9, 0.5)])),
            ("commit-tree", .commit(serial: 1, operations: treeOperations)),
            ("commit-empty", .commit(serial: 2, operations: [])),
            ("set-level", .setLevel(2)), ("export-token", .requestExportToken(requestID: 5)),
            ("frame-records", .frameRecords(requestID: 7, display: 0, count: 60)),
            (
                "commit-host",
                .commit(
                    serial: 3,
                    operations: [.createLayer(1), .setHost(1, contextId: 2, token: 3), .setRoot(display: 0, layer: 1)])
            ),
            (
                "commit-mask",
                .commit(
                    serial: 3,
                    operations: [
                        .createLayer(1), .createLayer(2), .setMask(1, mask: 2), .set(1, .opacity(0.5)),
                        .setRoot(display: 0, layer: 1),
                    ])
            ),
        ]
        for animation in animations {
            out.append(
                (
                    "commit-animation-\(animation.id)",
                    .commit(
                        serial: animation.id,
                        operations: [
                            .createLayer(1), SetOperation.bounds(1, CGRect(x: 0, y: 0, width: 20, height: 20)),
                            SetOperation.backgroundColor(1, red), .createLayer(2), .setSublayers(1, [2]),
                            .setRoot(display: 0, layer: 1), .addAnimation(1, animation),
                        ])
                ))
        }
        for (index, type) in CATransitionType.known.enumerated() {
            let subtypes: [CATransitionSubtype?] = [nil, .fromRight, .fromLeft, .fromTop, .fromBottom]
            let transition = animation(
                UInt64(40 + index),
                .transition(
                    TransitionParameters(
                        type: type, subtype: subtypes[index % subtypes.count])))
            out.append(
                (
                    "commit-transition-\(type.rawValue)",
                    .commit(
                        serial: 40,
                        operations: [
                            .createLayer(1), .createLayer(2), SetOperation.backgroundColor(2, blue),
                            SetOperation.bounds(2, CGRect(x: 0, y: 0, width: 30, height: 30)), .setSublayers(1, [2]),
                            .setRoot(display: 0, layer: 1), .addAnimation(1, transition),
                        ])
                ))
        }
        return out
    }

    static func serverMessages() -> [(String, ServerMessage)] {
        [
            (
                "welcome",
                .welcome(
                    version: 1, serverVersion: "0.1",
                    contextId: 1,
                    displays: [DisplayInfo(id: 0, width: 64, height: 48, refreshRate: 60)])
            ),
            ("commit-applied", .commitApplied(serial: 1)), ("commit-presented", .commitPresented(serial: 1, time: 2)),
            ("error", .error(code: .cycle, message: "cycle")),
            ("capture-result", .captureResult(requestID: 1, width: 64, height: 48, stride: 256, time: 1)),
            ("pong", .pong(requestID: 1, serverVersion: "0.1")),
            ("tree-description", .treeDescription(requestID: 1, text: "layer 1")),
            (
                "animation-events",
                .animationEvents([
                    AnimationEvent(animationID: 1, kind: .started, time: 0),
                    AnimationEvent(animationID: 1, kind: .finished, time: 1),
                ])
            ),
            ("frame", .frame(time: 1, targetTime: 1.5)),
            (
                "displays-changed",
                .displaysChanged([
                    DisplayInfo(id: 1, width: 64, height: 48, refreshRate: 60, name: "window-1", connector: ":9")
                ])
            ),
            ("export-token", .exportToken(requestID: 5, token: 0x0123_4567_89AB_CDEF)),
            ("surface-presented", .surfacePresented(id: 1, time: 2)),
            ("surface-released", .surfaceReleased(id: 1)),
            ("surface-discarded", .surfaceDiscarded(id: 1)),
            (
                "surface-refused",
                .surfaceRefused(id: 1, code: .invalidSurfaceLayout, message: "surface 1: planes overlap")
            ),
            ("warning", .warning(code: .tokenMismatch, message: "host layer 1: context 2: token does not match")),
            (
                "frame-records",
                .frameRecordsReply(
                    requestID: 7,
                    records: [
                        FrameRecord(
                            time: 1, display: 0, layersVisited: 3, instancesEmitted: 4, pixelsDrawn: 1200,
                            displayPixels: 1200, offscreenPasses: 0, cpuMilliseconds: 0.25, gpuMilliseconds: nil,
                            missedDeadline: false)
                    ])
            ),
        ]
    }

    /// Several messages in one input: the harness plays them in order against one session.
    static func conversations() -> [(String, [ClientMessage])] {
        let all = animations.enumerated().map { LayerOperation.addAnimation(LayerID($0.offset % 4 + 1), $0.element) }
        return [
            (
                "tree-then-animations",
                [
                    .hello(version: WireLimits.protocolVersion, clientName: "fuzz"), .transactionPart(treeOperations),
                    .commit(serial: 1, operations: Array(all.prefix(8))),
                    .commit(serial: 2, operations: Array(all.dropFirst(8))),
                    .capture(requestID: 1, display: 0, time: 0.6), .describeTree(requestID: 2),
                ]
            ),
            (
                "tree-then-layer-captures",
                [
                    .commit(serial: 1, operations: treeOperations + all),
                    .captureLayer(requestID: 1, layer: 2, width: 64, height: 48, scale: 1.5),
                    .captureLayer(requestID: 2, layer: 1, width: 1, height: 1, scale: 1e-3),
                    .captureLayer(requestID: 3, layer: 99, width: 8, height: 8, scale: 1),
                ]
            ),
            (
                "tree-then-teardown",
                [
                    .commit(serial: 1, operations: treeOperations + all),
                    .commit(
                        serial: 2,
                        operations: [
                            .removeAnimation(1, animationID: 1), .removeAnimation(2, animationID: 99),
                            .setSublayers(1, []),
                            .setSublayers(2, []), .setRoot(display: 0, layer: nil), .setRoot(display: 1, layer: nil),
                            .destroyLayer(2), .destroyLayer(3), .destroyLayer(4),
                        ]),
                    .capture(requestID: 3, display: 0, time: 1e9),
                ]
            ),
        ]
    }

    static func frame(type: UInt16, payload: [UInt8], declaredLength: Int? = nil) -> [UInt8] {
        var w = WireWriter()
        w.u16(type)
        w.u16(0)
        w.u32(UInt32(declaredLength ?? payload.count))
        return w.bytes + payload
    }

    static func commit(_ ops: [LayerOperation]) -> [UInt8] {
        MessageCodec.encode(ClientMessage.commit(serial: 7, operations: ops))
    }

    /// The hostile inputs of Tests/LaminaIntegrationTests/Clients/HostileClientTests.swift, as bytes.
    static func hostile() -> [(String, [UInt8])] {
        var nanTransform = CATransform3DIdentity
        nanTransform.m34 = .nan
        var nanDuration = animation(1, .basic(target("opacity"), BasicValues(to: .number(0))))
        nanDuration.record.timing.duration = .nan
        var deep = AnimationRecord(timing: MediaTiming(duration: 1), content: .group([]))
        for _ in 0..<12 { deep = AnimationRecord(timing: MediaTiming(duration: 1), content: .group([deep])) }
        let transition = animation(1, .transition(TransitionParameters()))
        var renamed = transition
        renamed.key = "other"
        var unknownOperation = WireWriter()
        unknownOperation.u64(1); unknownOperation.u32(1); unknownOperation.u8(99); unknownOperation.u64(0)
        var unknownProperty = WireWriter()
        for v: UInt64 in [1] { unknownProperty.u64(v) }
        unknownProperty.u32(2); unknownProperty.u8(1); unknownProperty.u64(5); unknownProperty.u8(3)
        unknownProperty.u64(5); unknownProperty.u8(200)
        let farPath = CGMutablePath()
        farPath.move(to: .zero)
        for i in 0..<40 {
            farPath.addQuadCurve(
                to: CGPoint(x: Double(i + 1), y: 0), control: CGPoint(x: 0, y: i % 2 == 0 ? 1e40 : -1e40))
        }
        let farFlung = animation(
            1,
            .keyframe(
                target("position"),
                Keyframes(
                    values: [], path: farPath,
                    calculationMode: .paced)))
        var extreme = CATransform3DMakeScale(1e300, 1e300, 1)
        extreme.m34 = -1e-300
        extreme.m14 = 1
        return [
            ("truncated-field", frame(type: 3, payload: [1, 2, 3, 4, 5])),
            ("length-mismatch", frame(type: 5, payload: [1, 2, 3, 4, 5, 6, 7, 8], declaredLength: 12)),
            ("unknown-message", frame(type: 77, payload: [])),
            ("unknown-operation", frame(type: 3, payload: unknownOperation.bytes)),
            ("unknown-property", frame(type: 3, payload: unknownProperty.bytes)),
            ("unknown-id", commit([SetOperation.opacity(12345, 0.5)])),
            ("cycle", commit([.createLayer(1), .createLayer(2), .setSublayers(1, [2]), .setSublayers(2, [1])])),
            ("mask-cycle", commit([.createLayer(1), .createLayer(2), .setSublayers(1, [2]), .setMask(2, mask: 1)])),
            ("mask-self", commit([.createLayer(1), .setMask(1, mask: 1)])),
            ("self-sublayer", commit([.createLayer(1), .setSublayers(1, [1])])),
            (
                "nan-bounds",
                commit([.createLayer(1), SetOperation.bounds(1, CGRect(x: 0, y: 0, width: CGFloat.nan, height: 10))])
            ),
            (
                "infinite-position",
                commit([.createLayer(1), SetOperation.position(1, CGPoint(x: CGFloat.infinity, y: 0))])
            ),
            ("nan-transform", commit([.createLayer(1), SetOperation.transform(1, nanTransform)])),
            (
                "contents-properties",
                commit([
                    .createLayer(1), SetOperation.contentsRect(1, CGRect(x: 0.25, y: 0, width: 0.5, height: 1)),
                    SetOperation.contentsGravity(1, "sideways"), SetOperation.isDoubleSided(1, false),
                    SetOperation.contentsScale(1, -2), SetOperation.edgeAntialiasingMask(1, 0xFFFF_FFFF),
                    SetOperation.minificationFilterBias(1, 1e300), SetOperation.rasterizationScale(1, .nan),
                ])
            ),
            ("missing-display", commit([.createLayer(1), .setRoot(display: 3, layer: 1)])),
            ("duplicate-id", commit([.createLayer(1), .createLayer(1)])),
            (
                "wrong-value-kind",
                commit([
                    .createLayer(1),
                    .addAnimation(
                        1,
                        animation(
                            1, .basic(target("opacity"), BasicValues(to: .point(.zero))))),
                ])
            ),
            ("nan-duration", commit([.createLayer(1), .addAnimation(1, nanDuration)])),
            (
                "nan-keyframe",
                commit([
                    .createLayer(1),
                    .addAnimation(
                        1,
                        animation(
                            1, .keyframe(target("position.x"), Keyframes(values: [.number(0), .number(.nan)])))),
                ])
            ),
            ("unknown-layer-animation", commit([.addAnimation(777, transition)])),
            (
                "deep-groups",
                commit([.createLayer(1), .addAnimation(1, AttachedAnimation(id: 1, key: "deep", record: deep))])
            ),
            (
                "duplicate-animation",
                commit([.createLayer(1), .addAnimation(1, transition), .addAnimation(1, renamed)])
            ),
            (
                "scale-one-number",
                commit([
                    .createLayer(1),
                    .addAnimation(
                        1,
                        animation(
                            1, .basic(target("transform", function: .scale), BasicValues(to: .number(2))))),
                ])
            ),
            (
                "nan-vector",
                commit([
                    .createLayer(1),
                    .addAnimation(
                        1,
                        animation(
                            1,
                            .basic(
                                target("transform", function: .translate), BasicValues(to: .vector(SIMD3(1, .nan, 0)))))
                    ),
                ])
            ),
            (
                "unknown-transition",
                commit([
                    .createLayer(1),
                    .addAnimation(
                        1,
                        animation(
                            1, .transition(TransitionParameters(type: CATransitionType("spin"))))),
                ])
            ),
            ("far-flung-path", commit([.createLayer(1), .setRoot(display: 0, layer: 1), .addAnimation(1, farFlung)])),
            (
                "extreme-geometry",
                commit([
                    .createLayer(1), SetOperation.bounds(1, CGRect(x: -1e300, y: 0, width: 1e300, height: 1e18)),
                    SetOperation.cornerRadius(1, 1e300), SetOperation.borderWidth(1, 1e18),
                    SetOperation.transform(1, extreme),
                    SetOperation.masksToBounds(1, true), SetOperation.backgroundColor(1, red), .createLayer(2),
                    SetOperation.bounds(2, CGRect(x: 0, y: 0, width: 1e6, height: 1e6)), .setSublayers(1, [2]),
                    .setRoot(display: 0, layer: 1),
                ])
            ),
        ]
    }
}
