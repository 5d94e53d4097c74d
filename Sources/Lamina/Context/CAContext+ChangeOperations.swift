import Foundation
import LaminaCore
import LaminaProtocol

/// The commit's walk over a context's tree: the operations for new, changed and departed layers,
/// with the per-layer records (`CAContext.Sent`) brought up to date in place.
extension CAContext {
    /// The operations that bring the server's copy of the tree up to date: new layers, changed
    /// properties and sublayer lists, the root, and layers that left the tree.
    ///
    /// The walk holds no reference of its own to the layers it visits: each one is held for the
    /// whole walk by the tree (its superlayer's sublayers, its owner's mask, the context's root),
    /// which the walk does not change, and a strong reference costs two atomic updates of the
    /// layer's side table (every layer has one, for the weak references to it), for every layer of
    /// every commit. Layers reached through a record's weak reference are kept in `walk.kept`.
    func changeOperations() -> [LayerOperation] {
        var walk = CommitWalk(now: CACurrentMediaTime(), committer: CATransaction.State.threadStack)
        // As many as the last commit sent: a commit that changes every layer builds its list without
        // growing it (and copying the operations) step by step.
        walk.ops.reserveCapacity(lastOperationCount)
        walk.reachable.reserveCapacity(sent.count)
        if let layer { walk.stack.append(.passUnretained(layer)) }
        while let next = walk.stack.popLast() {
            next._withUnsafeGuaranteedRef { visit($0, in: &walk) }
        }
        var ops: [LayerOperation] = []
        swap(&ops, &walk.ops)
        defer { lastOperationCount = ops.count }
        if sentRoot != layer?.layerID {
            ops.append(.setRoot(display: display, layer: layer?.layerID))
            sentRoot = layer?.layerID
        }
        ops += surfaceChangeOperations()
        // Every reachable layer has a record by now, so only a count above theirs means some left the
        // tree; their ids are found first, as iterating the records would copy each one.
        let goneIDs = sent.count > walk.reachable.count ? sent.keys.filter { !walk.reachable.contains($0) } : []
        for id in goneIDs {
            guard let gone = sent.removeValue(forKey: id) else { continue }
            ops.append(.destroyLayer(id))
            useImage(gone.state.contents, by: -1)
            releaseEmitterCellImages(of: gone.state)
            trackAnimationImages(before: gone.animationIDs, after: [])
            for animationID in gone.animationIDs { sentAnimations[animationID] = nil }
            // The layer left the tree: its animations stop, unfinished, both those the server has
            // and those added since (which would otherwise hold their transactions' completion
            // blocks forever).
            for animationID in gone.animationIDs {
                guard let entry = LayerAnimation.registry[animationID] else { continue }
                entry.layer?.attachedAnimations.removeAll { $0 === entry }
                entry.end(finished: false)
            }
            if let layer = gone.layer {
                CATransaction.lock()
                let unsent = layer.attachedAnimations.filter { !$0.committed }
                layer.attachedAnimations.removeAll { !$0.committed }
                for entry in unsent { entry.end(finished: false) }
                CATransaction.unlock()
            }
        }
        return ops
    }

    /// Appends the operations for layer `l` to `walk.ops` and pushes the layers below it.
    private func visit(_ l: CALayer, in walk: inout CommitWalk) {
        guard walk.reachable.insert(l.layerID).inserted else { return }
        if let hold = l.transactionHold {
            if hold.isOpen(besides: walk.committer), let previous = sent[l.layerID] {
                // Changed in another thread's open transaction: the server keeps the layer and
                // its sublayer list as last sent, until that transaction commits.
                walk.keepAndPush(previous.sublayers.reversed().compactMap { sent[$0]?.layer })
                if let mask = previous.mask.flatMap({ sent[$0]?.layer }) { walk.keepAndPush([mask]) }
                return
            }
            l.transactionHold = nil
        }
        let children = l.committedSublayers
        let hostLayer = l as? CALayerHost
        let host = (contextId: hostLayer?.contextId ?? 0, token: hostLayer?.token ?? 0)
        let mask = l.mask
        let index = sent.index(forKey: l.layerID)
        if let index,
            Self.unchangedLayerOperations(
                l, sent: &sent.values[index], host: host, mask: mask?.layerID, into: &walk.ops)
        {
            l.hasBeenCommitted = true
            walk.push(children, mask: mask)
            return
        }
        let childIDs = children.map(\.layerID)
        if let index {
            changedLayerOperations(
                l, sent: &sent.values[index], sublayers: childIDs, host: host, mask: mask?.layerID, now: walk.now,
                into: &walk.ops)
        } else {
            walk.ops.append(.createLayer(l.layerID, l.modelState.layerClass))
            Self.appendSendable(LayerProperty.differences(from: LayerState(), to: l.modelState), of: l, into: &walk.ops)
            l.changeMarks.clear(at: l.version)
            emitterCellOperations(l, previous: nil, into: &walk.ops)
            if !childIDs.isEmpty { walk.ops.append(.setSublayers(l.layerID, childIDs)) }
            useImage(l.modelState.contents, by: 1)
            let animationIDs = animationOperations(l, sentIDs: [], now: walk.now, into: &walk.ops)
            trackAnimationImages(before: [], after: animationIDs)
            if host != (0, 0) {
                walk.ops.append(.setHost(l.layerID, contextId: host.contextId, token: host.token))
            }
            if let mask { walk.ops.append(.setMask(l.layerID, mask: mask.layerID)) }
            sent[l.layerID] = Sent(
                version: l.version, state: l.modelState, sublayers: childIDs,
                animationIDs: animationIDs, host: host, mask: mask?.layerID, layer: l)
        }
        l.hasBeenCommitted = true
        walk.push(children, mask: mask)
    }

    /// For a layer unchanged since `record` was sent (its state, sublayers and animations), appends
    /// the operations for a new host or mask, brings `record` up to date and returns true; returns
    /// false, appending nothing, for a changed layer. The record is reached in place: reading its
    /// fields through the dictionary's values would copy the whole record, for every layer.
    static func unchangedLayerOperations(
        _ l: CALayer, sent record: inout Sent, host: (contextId: UInt32, token: UInt64), mask: LayerID?,
        into ops: inout [LayerOperation]
    ) -> Bool {
        guard record.version == l.version else { return false }
        linkOperations(l, sent: &record, host: host, mask: mask, into: &ops)
        return true
    }

    /// Appends the operations for a new host or mask of `l` and notes them in `record`.
    static func linkOperations(
        _ l: CALayer, sent record: inout Sent, host: (contextId: UInt32, token: UInt64), mask: LayerID?,
        into ops: inout [LayerOperation]
    ) {
        if host != record.host {
            ops.append(.setHost(l.layerID, contextId: host.contextId, token: host.token))
            record.host = host
        }
        if mask != record.mask {
            ops.append(.setMask(l.layerID, mask: mask))
            record.mask = mask
        }
    }

    /// Appends the operations that bring the server's copy of `l`, changed since `record` was sent,
    /// up to date (its properties, emitter cells, sublayers, animations, host and mask, in that
    /// order), and brings `record` up to date in place: a copy of the record would copy the layer's
    /// whole state and form a new weak reference to the layer, for every changed layer.
    func changedLayerOperations(
        _ l: CALayer, sent record: inout Sent, sublayers childIDs: [LayerID], host: (contextId: UInt32, token: UInt64),
        mask: LayerID?, now: Double, into ops: inout [LayerOperation]
    ) {
        // Only the properties changed since the record was sent (all of them when a write named
        // none, or the record is older than the marks): the same operations, in the same order.
        let compared = l.changeMarks.compared(sinceVersion: record.version)
        Self.appendSendable(l.modelDifferences(from: &record.state, among: compared), of: l, into: &ops)
        // Asked first: the call takes the record's state as an optional, a copy of it.
        if l.modelStorage.classState.layerClass == .emitter {
            emitterCellOperations(l, previous: record.state, into: &ops)
        }
        if record.sublayers != childIDs {
            ops.append(.setSublayers(l.layerID, childIDs))
            record.sublayers = childIDs
        }
        if record.state.contents != l.modelState.contents {
            useImage(l.modelState.contents, by: 1)
            useImage(record.state.contents, by: -1)
        }
        let before = record.animationIDs
        record.animationIDs = animationOperations(l, sentIDs: before, now: now, into: &ops)
        trackAnimationImages(before: before, after: record.animationIDs)
        Self.linkOperations(l, sent: &record, host: host, mask: mask, into: &ops)
        // The record and the committed state take the changed properties only, where the marks
        // name them: a copy of the whole state is several hundred bytes, for every changed layer.
        let sentVersion = record.version
        if !l.copyMarkedModel(compared, into: &record.state) { record.state = l.modelState }
        if l.committedVersion == sentVersion, l.copyMarkedModel(compared, into: &l.committedModelState) {
            l.committedVersion = l.version
        }
        record.version = l.version
        l.changeMarks.clear(at: l.version)
    }
}
