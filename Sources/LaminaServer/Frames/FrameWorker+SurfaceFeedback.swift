import Foundation
import LaminaCore

/// Feedback on shared surfaces, for the clients that ask for it (`surfaceFeedback`): which presented
/// frame first shows a surface's revision, and when the device is done with a surface no display
/// shows any more (docs/surfaces.md, "Pacing and feedback").
extension FrameWorker {
    /// What the worker knows of the surfaces with feedback (worker's thread only).
    struct FeedbackState {
        /// The surfaces whose owner asked for feedback.
        var watched: Set<SurfaceKey> = []
        /// For each display, the watched surfaces its last presented frame sampled, with the tree
        /// revision each had then.
        var shown: [DisplayKey: [SurfaceKey: UInt64]] = [:]
        /// The renderer's number of the newest frame that sampled each watched surface.
        var lastFrame: [SurfaceKey: UInt64] = [:]
        /// Watched surfaces shown before and on no display now, whose release is not sent yet.
        var pending: Set<SurfaceKey> = []
        /// Whether a look at the device's finished frames is scheduled for `pending`.
        var pollScheduled = false
        /// The newest tree revision of each watched surface that a presented frame showed, or that
        /// was found discarded (replaced before any frame showed it).
        var settled: [SurfaceKey: UInt64] = [:]
        /// The presented frames that searched a client's trees for discarded surfaces (a counter for
        /// tests: a frame that samples every new revision searches nothing).
        var treeSearches = 0
    }

    /// One feedback message for the loop to send to the surface's owner.
    struct SurfaceFeedbackEvent {
        /// The owner's session id.
        var session: Int
        /// The surface's id.
        var id: UInt64
        /// The frame's media time for a presented surface; nil for a released or discarded one.
        var presentedAt: Double?
        /// Whether the surface's revision was replaced before any frame showed it (`surfaceDiscarded`).
        var discarded = false
    }

    /// How long the worker waits before looking again whether the device has finished the frames that
    /// sampled a surface waiting for its release.
    static let releasePollInterval = 0.002

    /// Starts (`enabled`) or stops feedback on surface `id` of `session` (worker's thread).
    func setFeedback(session: Int, id: UInt64, enabled: Bool) {
        let key = SurfaceKey(session: session, id: id)
        if enabled {
            feedback.watched.insert(key)
        } else {
            forgetFeedback(key)
        }
    }

    /// Drops everything known of `key`'s feedback (the surface is forgotten or feedback stopped).
    func forgetFeedback(_ key: SurfaceKey) {
        guard feedback.watched.remove(key) != nil else { return }
        for display in feedback.shown.keys { feedback.shown[display]![key] = nil }
        feedback.lastFrame[key] = nil
        feedback.pending.remove(key)
        feedback.settled[key] = nil
    }

    /// The tree revision of every surface of `scene`'s trees, by session and id, when some surface is
    /// watched (taken before the scene is built and let go of).
    func surfaceRevisions(of scene: Scene) -> [SurfaceKey: UInt64] {
        guard !feedback.watched.isEmpty else { return [:] }
        var revisions: [SurfaceKey: UInt64] = [:]
        // A new frame (`surfaceChanged`) or a commit naming the surface again each make a revision.
        func add(_ tree: RenderTree, session: Int) {
            for (id, revision) in tree.surfaceRevisions {
                revisions[SurfaceKey(session: session, id: id), default: 0] &+= revision
            }
            for (id, shows) in tree.surfaceShows {
                revisions[SurfaceKey(session: session, id: id), default: 0] &+= shows
            }
        }
        for (session, tree) in zip(scene.sessions, scene.trees) { add(tree, session: session) }
        for exported in scene.exported.values where !scene.sessions.contains(exported.session) {
            add(exported.tree, session: exported.session)
        }
        return revisions
    }

    /// The watched surfaces of a scene whose tree revision no presented frame showed yet, with the
    /// trees of their clients (copies that share the scene's storage): what `surfaceFeedback` looks
    /// in for the ones the frame did not sample.
    struct DiscardCandidates {
        var open: Set<SurfaceKey> = []
        /// The trees of the clients of `open` that this display draws (theirs and those they export).
        var trees: [(session: Int, tree: RenderTree)] = []

        /// The surfaces of `open` that the frame did not sample (`sampled`) and that nothing in their
        /// client's trees names any more (no layer's `contents`, no animation): no frame will show
        /// that revision. The trees are searched only for those.
        func unreachable(sampled: Set<SurfaceKey>) -> Set<SurfaceKey> {
            let unseen = open.subtracting(sampled)
            guard !unseen.isEmpty else { return [] }
            var named: [Int: Set<UInt64>] = [:]
            for (session, tree) in trees where unseen.contains(where: { $0.session == session }) {
                named[session, default: []].formUnion(tree.referencedImages())
            }
            // A client whose tree this display does not draw is judged by the displays that do.
            return unseen.filter { key in named[key.session].map { !$0.contains(key.id) } ?? false }
        }
    }

    /// The watched surfaces of `scene` whose tree revision (in `revisions`) is not settled (shown by a
    /// presented frame or found discarded), with their clients' trees. Taken before the scene is
    /// built (the build consumes it); cheap: the trees are shared, not walked.
    func discardCandidates(of scene: Scene, revisions: [SurfaceKey: UInt64]) -> DiscardCandidates {
        let open = feedback.watched.filter { key in
            let revision = revisions[key] ?? 0
            return revision > 0 && revision != feedback.settled[key]
        }
        guard !open.isEmpty else { return DiscardCandidates() }
        var candidates = DiscardCandidates(open: open)
        for (session, tree) in zip(scene.sessions, scene.trees) where open.contains(where: { $0.session == session }) {
            candidates.trees.append((session, tree))
        }
        for exported in scene.exported.values where open.contains(where: { $0.session == exported.session }) {
            candidates.trees.append((exported.session, exported.tree))
        }
        return candidates
    }

    /// Notes which watched surfaces `list`, presented on `display` at `time` as the renderer's frame
    /// `frame` (nil when the renderer drew nothing), samples, their tree revisions in `revisions`, and
    /// returns the feedback it makes: a presented event for each whose revision the display's last
    /// frame did not show (nor another display's), a discarded event for each of `candidates` that
    /// this frame did not sample and no tree names (`DiscardCandidates.unreachable`), and the releases
    /// now due.
    func surfaceFeedback(
        of list: DisplayList, revisions: [SurfaceKey: UInt64], candidates: DiscardCandidates = DiscardCandidates(),
        display: DisplayKey, time: Double, frame: UInt64?
    ) -> [SurfaceFeedbackEvent] {
        guard !feedback.watched.isEmpty else { return [] }
        var byImage: [RenderImageID: SurfaceKey] = [:]
        for key in feedback.watched {
            if let entry = surfaces[key.session]?[key.id] { byImage[entry.imported.image] = key }
        }
        var sampled = Set<SurfaceKey>()
        for batch in list.batches + list.passes.flatMap(\.batches) {
            if let image = batch.texture?.image, let key = byImage[image] { sampled.insert(key) }
        }
        var events: [SurfaceFeedbackEvent] = []
        let before = feedback.shown[display] ?? [:]
        var now: [SurfaceKey: UInt64] = [:]
        for key in sampled.sorted(by: { ($0.session, $0.id) < ($1.session, $1.id) }) {
            let revision = revisions[key] ?? 0
            now[key] = revision
            if let frame { feedback.lastFrame[key] = max(feedback.lastFrame[key] ?? 0, frame) }
            feedback.pending.remove(key)
            // Shown by another display's frame already: presented once, by the first frame.
            let elsewhere = feedback.shown.contains { $0.key != display && $0.value[key] == revision }
            if before[key] != revision, !elsewhere {
                events.append(SurfaceFeedbackEvent(session: key.session, id: key.id, presentedAt: time))
            }
            feedback.settled[key] = revision
        }
        feedback.shown[display] = now
        // Replaced before any frame showed it: once per revision.
        if !candidates.open.isSubset(of: sampled) { feedback.treeSearches += 1 }
        let unreachable = candidates.unreachable(sampled: sampled)
        for key in unreachable.sorted(by: { ($0.session, $0.id) < ($1.session, $1.id) })
        where feedback.watched.contains(key) && !sampled.contains(key) {
            let revision = revisions[key] ?? 0
            guard revision != feedback.settled[key] else { continue }
            feedback.settled[key] = revision
            events.append(SurfaceFeedbackEvent(session: key.session, id: key.id, presentedAt: nil, discarded: true))
        }
        for key in before.keys where now[key] == nil {
            if !feedback.shown.values.contains(where: { $0[key] != nil }) { feedback.pending.insert(key) }
        }
        return events + dueReleases()
    }

    /// The releases of pending surfaces whose last sampling frame has finished on the device; when
    /// some still wait, a later look is scheduled (the worker polls the device's fences, it never
    /// blocks on them).
    func dueReleases() -> [SurfaceFeedbackEvent] {
        guard !feedback.pending.isEmpty else { return [] }
        let finished = (try? renderer?.finishedFrame()) ?? .max
        var events: [SurfaceFeedbackEvent] = []
        for key in feedback.pending.sorted(by: { ($0.session, $0.id) < ($1.session, $1.id) })
        where feedback.lastFrame[key, default: 0] <= finished {
            feedback.pending.remove(key)
            feedback.lastFrame[key] = nil
            events.append(SurfaceFeedbackEvent(session: key.session, id: key.id, presentedAt: nil))
        }
        if !feedback.pending.isEmpty, !feedback.pollScheduled {
            feedback.pollScheduled = true
            queue.asyncAfter(deadline: .now() + Self.releasePollInterval) { [self] in
                feedback.pollScheduled = false
                let due = dueReleases()
                if !due.isEmpty { report(.surfaceFeedback(due)) }
            }
        }
        return events
    }

    /// Forgets the shown surfaces of a display given again under its number (worker's thread).
    func forgetFeedback(ofReplaced display: DisplayKey) {
        for old in feedback.shown.keys where old.display == display.display && old.instance != display.instance {
            let keys = feedback.shown.removeValue(forKey: old)?.keys.map { $0 } ?? []
            for key in keys where !feedback.shown.values.contains(where: { $0[key] != nil }) {
                feedback.pending.insert(key)
            }
        }
    }
}
