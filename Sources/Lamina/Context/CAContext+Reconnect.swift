import Foundation
import LaminaProtocol

extension CAContext {
    /// Sends a restarted server the tree as this context last committed it, as one transaction:
    /// every image in use uploaded again, every sent layer created with its sent properties,
    /// sublayers, host layers and animations (their begin times unchanged: media time is
    /// `CLOCK_MONOTONIC`, the same for every server on the machine), the context's level, the root on
    /// its display; then frame events if display links run. It asks the new server's surface
    /// capabilities first. The context id and export token need no
    /// resending: the reconnecting `hello` asked the new server to keep them, so host layers naming
    /// this context show it again as soon as this tree is back. Then counts the reconnect, calls
    /// `onReconnect` and posts `didReconnectNotification` on the main thread.
    ///
    /// Called by the connection on its event queue with the transaction lock held, once the new
    /// socket is in use: a commit made before it is already in `sent`, one made after it follows it.
    func resendState() {
        let live = Set(sent.values.flatMap(\.animationIDs))
        sentAnimations = sentAnimations.filter { live.contains($0.key) }
        let ids = sent.keys.sorted()
        var ops: [LayerOperation] = ids.map { .createLayer($0, sent[$0]?.state.layerClass ?? .layer) }
        for id in ids {
            guard let entry = sent[id] else { continue }
            ops += LayerProperty.differences(from: LayerState(), to: entry.state).compactMap { property in
                var property = property
                if case .name(let name?) = property, name.utf8.count > WireLimits.maxStringBytes {
                    property = .name(name.truncatedToUTF8(WireLimits.maxStringBytes))
                }
                // A value the server refuses was not sent the first time either.
                return property.invalidReason == nil ? .set(id, property) : nil
            }
            if entry.state.layerClass == .emitter, !entry.state.emitter.cells.isEmpty {
                ops.append(.setEmitterCells(id, entry.state.emitter.cells))
            }
            if !entry.sublayers.isEmpty { ops.append(.setSublayers(id, entry.sublayers)) }
            // A host layer keeps naming its context, which asks the new server for its id and token
            // when it reconnects: the host shows it again once both are back (if the host is back
            // first, the new server warns that the token does not match, until then).
            if entry.host.contextId != 0 {
                ops.append(.setHost(id, contextId: entry.host.contextId, token: entry.host.token))
            }
            for animationID in entry.animationIDs {
                if let animation = sentAnimations[animationID] { ops.append(.addAnimation(id, animation)) }
            }
        }
        if let root = sentRoot { ops.append(.setRoot(display: display, layer: root)) }
        uploadedImages = []
        surfaceChangesSent = [:]
        CAVulkanLayer.contextReconnected(self)
        imageUses = imageUses.filter { $0.value > 0 }
        do {
            // The new server's device may differ: ask again (the answer replaces the old one).
            requestCounter += 1
            try connection.send(.requestSurfaceCapabilities(requestID: requestCounter))
            try uploadNewImages()
            if level != 0 { try connection.send(.setLevel(level)) }
            if !ops.isEmpty {
                let serial = nextSerial
                nextSerial += 1
                try sendTransaction(ops, serial: serial)
            }
            if DisplayLinkCenter.state.enabled { try connection.send(.frameEvents(enabled: true)) }
        } catch {
            // The new server went away too: the next reconnect resends everything again.
            LaminaDiagnostics.report(.commitNotSent, "state not resent after reconnecting: \(error)")
            return
        }
        reconnections += 1
        reconnectCallback?(self)
        MainThreadDispatcher.post { [weak self] in
            guard let self else { return }
            NotificationCenter.default.post(name: Self.didReconnectNotification, object: self)
        }
    }
}
