import LaminaCore
import LaminaProtocol

extension Server {
    /// The sessions in drawing order: ascending `level`, equal levels in connection order (older
    /// below). Sessions that exported themselves are left out: their trees show only in host layers.
    var stackedSessions: [ClientSession] {
        let shown = sessions.enumerated().filter { $0.element.exportToken == nil }
        guard shown.contains(where: { $0.element.level != 0 }) else { return shown.map(\.element) }
        return shown.sorted { ($0.element.level, $0.offset) < ($1.element.level, $1.offset) }.map(\.element)
    }

    /// The trees host layers may show, by context id: every session that exported itself.
    var exportedTrees: [UInt32: ExportedTree] {
        var trees: [UInt32: ExportedTree] = [:]
        for session in sessions where session.failure == nil {
            guard let token = session.exportToken else { continue }
            trees[session.contextId] = ExportedTree(token: token, tree: session.tree, session: session.id)
        }
        return trees
    }

    /// Gives `session` its context id at its `hello`: `claimed`, the id a context had on a server that
    /// went away, when this server has never given that id (`ContextIdAllocator.restore`), else a new
    /// one; and, when `token` is not 0, that export token (the client made its tree exported there,
    /// so it stays exported, whatever its id). Returns the warning's text when the claimed id is
    /// refused. The text is the same for a live id and for one whose context left, so a claim tells
    /// no more than that this server has given the id.
    ///
    /// - Throws: `invalidValue` for a token with no context id, or an id over
    ///   `WireLimits.maxContextId` (no server gives one).
    func assignContext(to session: ClientSession, claiming claimed: UInt32, token: UInt64) throws(SessionError)
        -> String?
    {
        if claimed == 0 && token != 0 {
            throw SessionError(.invalidValue, "hello: export token without a context id (hello.contextId is 0)")
        }
        guard claimed <= WireLimits.maxContextId else {
            throw SessionError(
                .invalidValue,
                "hello: context id \(claimed) is over \(WireLimits.maxContextId); no server gives such an id")
        }
        if token != 0 { session.exportToken = token }
        if claimed != 0 && contextIds.restore(claimed) {
            session.contextId = claimed
            logger.info("context id given back", metadata: ["client": "\(session.id)", "context": "\(claimed)"])
            return nil
        }
        let live = Set(sessions.map(\.contextId))
        session.contextId = contextIds.makeId(isLive: live.contains)
        guard claimed != 0 else { return nil }
        let reason =
            contextIds.restored.count >= ContextIdAllocator.maxRestored
            ? "this server has given back \(ContextIdAllocator.maxRestored) context ids already"
            : "this server has given it out"
        return "hello: context \(claimed) cannot be given back (\(reason)); this client is context \(session.contextId)"
    }

    /// A new export token: 64 random bits from the system's generator (`getrandom`), never 0.
    static func makeExportToken() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return UInt64.random(in: 1...UInt64.max, using: &generator)
    }

    /// The displays that a change of `session`'s tree may show on: those of its roots, and every open
    /// display when it is exported (a host layer anywhere may show it).
    func displaysShowing(_ session: ClientSession) -> Set<UInt32> {
        if session.exportToken != nil { return Set(displays.filter { !$0.isClosed }.map(\.id)) }
        return Set(session.tree.roots.keys)
    }

    /// Warns the client, once per problem, of each host layer that shows nothing: its token does not
    /// match the context it names (or no such context exports itself, which reads the same, so that
    /// a client cannot probe which context ids are in use), or it names the client's own context.
    /// Called after each of the client's commits is applied.
    func checkHosts(of session: ClientSession) {
        var warned: [LayerID: HostedContext] = [:]
        for id in session.tree.hostLayers.sorted() {
            guard let host = session.tree.layers[id]?.host else { continue }
            let problem: String?
            if host.contextId == session.contextId {
                problem =
                    "host layer \(id): context \(host.contextId) is this client's own; a context cannot host itself"
            } else if let target = sessions.first(where: { $0.contextId == host.contextId }),
                target.exportToken == host.token, target.failure == nil
            {
                problem = nil
            } else {
                problem = "host layer \(id): context \(host.contextId): token does not match"
            }
            guard let problem else { continue }
            warned[id] = host
            if session.warnedHosts[id] != host {
                deliver(.warning(code: .tokenMismatch, message: problem), to: session)
            }
        }
        session.warnedHosts = warned
    }
}
