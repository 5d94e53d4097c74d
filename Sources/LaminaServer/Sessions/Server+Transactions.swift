import Foundation
import LaminaCore
import LaminaProtocol

/// Transactions: the parts a client sends are held (charged to its budget) until its `commit`, which
/// applies them all or none, on the loop or, when large, on the commit worker.
extension Server {
    /// `transactionPart`: holds the operations until the commit.
    func holdPart(_ operations: [LayerOperation], bytes: Int, for session: ClientSession) throws {
        guard session.pendingOperationCount + operations.count <= WireLimits.maxOperationsPerTransaction else {
            throw SessionError(
                .limitExceeded, "transaction has more than \(WireLimits.maxOperationsPerTransaction) operations")
        }
        do {
            try budget.holdPart(bytes: bytes, operations: operations.count, for: &session.budget)
        } catch {
            throw SessionError(.limitExceeded, "transactionPart: \(error)")
        }
        session.pendingParts.append(operations)
        session.pendingOperationCount += operations.count
    }

    /// `commit`: applies the held parts and the commit's own operations to a copy of the tree, here
    /// or (from `workerCommitOperations` operations on) on the commit worker, then installs it.
    func commit(serial: UInt64, _ operations: [LayerOperation], for session: ClientSession) throws {
        var parts = session.pendingParts
        parts.append(operations)
        parts = withoutRefusedSurfaces(parts, for: session)
        let count = session.pendingOperationCount + operations.count
        session.pendingParts = []
        session.pendingOperationCount = 0
        budget.releaseHeld(for: &session.budget)
        guard count <= WireLimits.maxOperationsPerTransaction else {
            throw SessionError(
                .limitExceeded, "transaction has more than \(WireLimits.maxOperationsPerTransaction) operations")
        }
        if count >= configuration.workerCommitOperations {
            session.commitInFlight = serial
            commits.apply(parts, to: session.tree, displayCount: displays.count, sessionID: session.id, serial: serial)
            return
        }
        let result = Result { () throws(TransactionError) -> RenderTree in
            try session.tree.applying(parts: parts, displayCount: displays.count)
        }
        try install(result, serial: serial, for: session)
    }

    /// Swaps in the outcome of a transaction (applied here or on the worker), charging the new tree
    /// to the client's budget, then acknowledges the commit and schedules frames.
    func install(_ result: Result<RenderTree, TransactionError>, serial: UInt64, for session: ClientSession) throws {
        let next: RenderTree
        switch result {
        case .success(let tree): next = tree
        case .failure(let error): throw SessionError(error.code, "commit \(serial): \(error)")
        }
        do {
            try budget.setTree(
                layers: next.layers.count + next.snapshotLayerCount, animations: next.animationCount,
                for: &session.budget)
        } catch {
            throw SessionError(.limitExceeded, "commit \(serial): \(error)")
        }
        let before = displaysShowing(session)
        let old = session.tree
        session.tree = next
        if old.layers.count >= configuration.workerCommitOperations { commits.release(old) }
        freeReleasedImages(of: session)
        // The commit is presented once every display that showed or shows this client's tree has
        // presented a frame after it (its home display when it shows nothing).
        var touched = before.union(displaysShowing(session))
        if touched.isEmpty { touched = [session.homeDisplay] }
        // A closed display presents nothing more: the commit is presented once the others have.
        touched = touched.filter { !displays[Int($0)].isClosed }
        session.unpresentedSerial = max(session.unpresentedSerial ?? 0, serial)
        session.awaitingDisplays.formUnion(touched)
        try send(.commitApplied(serial: serial), to: session)
        if !session.tree.hostLayers.isEmpty || !session.warnedHosts.isEmpty { checkHosts(of: session) }
        for id in touched.sorted() { scheduleFrame(on: displays[Int(id)]) }
    }

    /// Installs a transaction the worker has finished, if its client is still connected; the
    /// client's next messages are read from the next turn on.
    func finishCommit(_ outcome: CommitWorker.Outcome) {
        guard let session = sessions.first(where: { $0.id == outcome.sessionID }) else { return }
        session.commitInFlight = nil
        do {
            try install(outcome.result, serial: outcome.serial, for: session)
        } catch let error as SessionError {
            fail(session, error)
        } catch {
            fail(session, SessionError(.internalError, "\(error)"))
        }
    }
}
