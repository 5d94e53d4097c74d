import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

/// CodecTests: decoding errors name the field and the value at fault.
extension CodecTests {
    // MARK: Error descriptions name the field

    static let truncationCases: [(AnyMessage, Int, String)] = {
        // A 138-byte operation in front makes room, so the count check passes and the cut lands in the next operation.
        let pad = LayerOperation.set(1, .transform(distinctTransform))
        let at = 12 + 138
        func c(_ ops: [LayerOperation]) -> AnyMessage { .client(.commit(serial: 1, operations: [pad] + ops)) }
        return [
            (.client(.hello(version: WireLimits.protocolVersion, clientName: "abc")), 2, "hello.version"),
            (.client(.hello(version: WireLimits.protocolVersion, clientName: "abc")), 6, "hello.clientName"),
            (.client(.hello(version: WireLimits.protocolVersion, clientName: "abc")), 9, "hello.clientName"),
            (.client(.hello(version: WireLimits.protocolVersion, clientName: "abc")), 13, "hello.contextId"),
            (.client(.hello(version: WireLimits.protocolVersion, clientName: "abc")), 18, "hello.exportToken"),
            (.client(.capture(requestID: 1, display: 2, time: 3)), 4, "capture.requestID"),
            (.client(.capture(requestID: 1, display: 2, time: 3)), 10, "capture.display"),
            (.client(.capture(requestID: 1, display: 2, time: 3)), 12, "capture.hasTime"),
            (.client(.capture(requestID: 1, display: 2, time: 3)), 15, "capture.time"),
            (
                .client(.captureLayer(requestID: 1, layer: 2, width: 3, height: 4, scale: 1)), 7,
                "captureLayer.requestID"
            ),
            (.client(.captureLayer(requestID: 1, layer: 2, width: 3, height: 4, scale: 1)), 15, "captureLayer.layer"),
            (.client(.captureLayer(requestID: 1, layer: 2, width: 3, height: 4, scale: 1)), 19, "captureLayer.width"),
            (.client(.captureLayer(requestID: 1, layer: 2, width: 3, height: 4, scale: 1)), 23, "captureLayer.height"),
            (.client(.captureLayer(requestID: 1, layer: 2, width: 3, height: 4, scale: 1)), 31, "captureLayer.scale"),
            (.client(.ping(requestID: 1)), 7, "ping.requestID"),
            (.client(.describeTree(requestID: 1)), 0, "describeTree.requestID"),
            (.client(.commit(serial: 1, operations: [])), 3, "commit.serial"),
            (.client(.commit(serial: 1, operations: [])), 9, "operations"),
            (.client(.commit(serial: 1, operations: [.createLayer(1)])), 14, "operations"),
            (.client(.transactionPart([.createLayer(1)])), 2, "operations"),
            (c([.createLayer(7)]), at + 3, "createLayer.id"),
            (c([.destroyLayer(7)]), at + 5, "destroyLayer.id"),
            (c([.set(7, .opacity(1))]), at + 4, "set.id"),
            (c([.set(7, .opacity(1))]), at + 9, "set.property"),
            (c([.set(7, .opacity(1))]), at + 12, "opacity"),
            (c([.set(7, .bounds(.zero))]), at + 10 + 20, "bounds.size.width"),
            (c([.set(7, .bounds(.zero))]), at + 10 + 25, "bounds.size.height"),
            (c([.set(7, .position(.zero))]), at + 10 + 9, "position.y"),
            (c([.set(7, .anchorPoint(.zero))]), at + 10 + 1, "anchorPoint.x"),
            (c([.set(7, .anchorPointZ(0))]), at + 10 + 1, "anchorPointZ"),
            (c([.set(7, .zPosition(0))]), at + 10 + 1, "zPosition"),
            (c([.set(7, .transform(distinctTransform))]), at + 10 + 8 * 11 + 3, "transform.m34"),
            (c([.set(7, .sublayerTransform(distinctTransform))]), at + 10 + 8 * 12, "sublayerTransform.m41"),
            (c([.set(7, .isHidden(true))]), at + 10, "hidden"),
            (c([.set(7, .backgroundColor(odd))]), at + 10, "backgroundColor.present"),
            (c([.set(7, .backgroundColor(odd))]), at + 11 + 20, "backgroundColor.blue"),
            (c([.set(7, .cornerRadius(1))]), at + 10 + 7, "cornerRadius"),
            (c([.set(7, .maskedCorners(.all))]), at + 10 + 3, "maskedCorners"),
            (c([.set(7, .borderWidth(1))]), at + 10, "borderWidth"),
            (c([.set(7, .borderColor(odd))]), at + 11 + 30, "borderColor.alpha"),
            (c([.set(7, .masksToBounds(true))]), at + 10, "masksToBounds"),
            (c([.set(7, .name("hello"))]), at + 10, "name.present"),
            (c([.set(7, .name("hello"))]), at + 11 + 2, "name"),
            (c([.set(7, .name("hello"))]), at + 11 + 4 + 2, "name"),
            (c([.setSublayers(7, [1, 2])]), at + 5, "setSublayers.id"),
            (c([.setSublayers(7, [1, 2])]), at + 11, "setSublayers.sublayers"),
            (c([.setSublayers(7, [1, 2])]), at + 13 + 9, "setSublayers.sublayers"),
            (c([.setRoot(display: 2, layer: 3)]), at + 3, "setRoot.display"),
            (c([.setRoot(display: 2, layer: 3)]), at + 9, "setRoot.layer"),
            (.server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: displays)), 2, "welcome.version"),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: displays)), 6,
                "welcome.serverVersion"
            ),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: displays)), 11,
                "welcome.contextId"
            ),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: displays)), 15,
                "welcome.displays"
            ),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: displays)), 30,
                "welcome.displays"
            ),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: [displays[1]])), 17 + 28,
                "display.name"
            ),
            (
                .server(.welcome(version: 1, serverVersion: "v", contextId: 1, displays: [displays[1]])),
                17 + 24 + 4 + 8 + 2, "display.connector"
            ),
            (.server(.displaysChanged([displays[0]])), 3, "displaysChanged.displays"),
            (.server(.displaysChanged([displays[0]])), 4 + 28, "display.name"),
            (.server(.exportToken(requestID: 1, token: 2)), 12, "exportToken.token"),
            (.server(.warning(code: .tokenMismatch, message: "x")), 1, "warning.code"),
            (.server(.warning(code: .tokenMismatch, message: "x")), 4, "warning.message"),
            (.client(.setLevel(2)), 7, "setLevel.level"),
            (.client(.requestExportToken(requestID: 1)), 3, "requestExportToken.requestID"),
            (c([.setHost(7, contextId: 2, token: 3)]), at + 5, "setHost.layer"),
            (c([.setHost(7, contextId: 2, token: 3)]), at + 9 + 3, "setHost.contextId"),
            (c([.setHost(7, contextId: 2, token: 3)]), at + 13 + 7, "setHost.token"),
            (.server(.commitApplied(serial: 1)), 1, "commitApplied.serial"),
            (.server(.commitPresented(serial: 1, time: 2)), 7, "commitPresented.serial"),
            (.server(.commitPresented(serial: 1, time: 2)), 9, "commitPresented.time"),
            (.server(.error(code: .cycle, message: "x")), 1, "error.code"),
            (.server(.error(code: .cycle, message: "x")), 3, "error.message"),
            (
                .server(.captureResult(requestID: 1, width: 2, height: 3, stride: 8, time: 1)), 5,
                "captureResult.requestID"
            ),
            (.server(.captureResult(requestID: 1, width: 2, height: 3, stride: 8, time: 1)), 9, "captureResult.width"),
            (
                .server(.captureResult(requestID: 1, width: 2, height: 3, stride: 8, time: 1)), 13,
                "captureResult.height"
            ),
            (
                .server(.captureResult(requestID: 1, width: 2, height: 3, stride: 8, time: 1)), 17,
                "captureResult.stride"
            ),
            (.server(.captureResult(requestID: 1, width: 2, height: 3, stride: 8, time: 1)), 25, "captureResult.time"),
            (.server(.pong(requestID: 1, serverVersion: "1.0")), 10, "pong.serverVersion"),
            (.server(.treeDescription(requestID: 1, text: "abc")), 4, "treeDescription.requestID"),
            (.server(.treeDescription(requestID: 1, text: "abc")), 13, "treeDescription.text"),
        ]
    }()

    @Test(arguments: truncationCases)
    func truncationNamesTheField(_ message: AnyMessage, _ cut: Int, _ field: String) {
        let bytes = cutPayload(message.encoded, to: cut)
        do {
            let m = try message.decodeSameDirection(bytes)
            Issue.record("decoded \(m)")
        } catch {
            #expect(error == .truncated(field: field))
            #expect(error.description.contains("'\(field)'"))
            #expect(error.description.contains("truncated"))
        }
    }

    @Test func errorDescriptionsNameTheirValues() {
        #expect(WireError.truncated(field: "commit.serial").description.contains("commit.serial"))
        let trailing = WireError.trailingBytes(type: "commit", count: 3).description
        #expect(trailing.contains("commit") && trailing.contains("3"))
        #expect(WireError.unknownMessage(4242).description.contains("4242"))
        #expect(WireError.unknownOperation(77).description.contains("77"))
        #expect(WireError.unknownProperty(99).description.contains("99"))
        #expect(WireError.badString(field: "hello.clientName").description.contains("hello.clientName"))
        let count = WireError.countTooLarge(field: "setSublayers.sublayers", count: 123_456, limit: 100_000).description
        #expect(count.contains("setSublayers.sublayers") && count.contains("123456") && count.contains("100000"))
        let length = WireError.lengthMismatch(declared: 17, actual: 5).description
        #expect(length.contains("17") && length.contains("5"))

        // From real decodes.
        let serial = cutPayload(MessageCodec.encode(ClientMessage.commit(serial: 1, operations: [])), to: 4)
        do {
            _ = try MessageCodec.decodeClient(serial)
            Issue.record("decoded a cut commit")
        } catch {
            #expect(error.description.contains("commit.serial"))
        }
        let trailingBytes = framed(
            type: 3, payload(of: MessageCodec.encode(ClientMessage.commit(serial: 1, operations: []))) + [1, 2])
        do {
            _ = try MessageCodec.decodeClient(trailingBytes)
            Issue.record("decoded a commit with trailing bytes")
        } catch {
            #expect(error.description.contains("'commit'") && error.description.contains("2 "))
        }
    }
}
