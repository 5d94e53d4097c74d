import Foundation
import LaminaCore
import LaminaProtocol

/// Refused registrations: a well-formed `registerSurface` or `registerDeviceImage` whose values the
/// server or its device cannot take is answered by `surfaceRefused` and the client stays connected;
/// its layers keep what they showed (docs/surfaces.md, "Refused surfaces"; docs/protocol.md §4.1).
extension Server {
    /// How many refused ids a client's session remembers (the surfaces a client may hold); the oldest
    /// is forgotten beyond, and a commit naming a forgotten one gets the fatal `unknownImage` again.
    static let refusedSurfacesKept = 64

    /// Runs the registration of surface or device image `id`: a refusal (`SessionError.isRefusal`) is
    /// remembered and sent to the client as `surfaceRefused`; any other error is thrown (fatal).
    func registering(_ id: UInt64, for session: ClientSession, _ body: () throws -> Void) throws {
        do {
            try body()
            session.refusedSurfaces.removeAll { $0 == id }
        } catch let error as SessionError where error.isRefusal {
            refuse(id, error, for: session)
        }
    }

    /// Remembers `id` as refused for `error` and sends the client `surfaceRefused`.
    private func refuse(_ id: UInt64, _ error: SessionError, for session: ClientSession) {
        session.refusedSurfaces.removeAll { $0 == id }
        session.refusedSurfaces.append(id)
        if session.refusedSurfaces.count > Self.refusedSurfacesKept { session.refusedSurfaces.removeFirst() }
        deliver(.surfaceRefused(id: id, code: error.code, message: error.message), to: session)
    }

    /// The frame worker could not import surface or device image `failure.id`, which the loop had
    /// accepted: it is refused as a registration would have been (`surfaceRefused` with the failure's
    /// code) and freed as if released. The client's later messages waited for the import, so no
    /// commit names it yet, and the ones that follow leave it out: its layers keep what they showed.
    /// (A surface whose new frame the worker could not copy is refused the same way; the layers
    /// showing it keep its last frame.)
    func refuseImport(_ failure: FrameWorker.ImportFailure, for session: ClientSession) {
        let id = failure.id
        if let image = session.images[id], image.surfaceBytes != nil, !image.isReleased {
            session.images[id]!.isReleased = true
            session.tree.liveImages.remove(id)
            session.tree.liveSurfaces.remove(id)
            session.hasReleasedImages = true
            freeReleasedImages(of: session)
        }
        refuse(id, .refusal(failure.code, "image \(id): the renderer refused it: \(failure.error)"), for: session)
    }

    /// Whether `id` is one of the client's refused registrations.
    func isRefused(_ id: UInt64, for session: ClientSession) -> Bool {
        id != 0 && session.refusedSurfaces.contains(id)
    }

    /// `releaseSurface` of a refused id: the client forgets it too; nothing to free. False for an id
    /// that was not refused.
    func forgetRefusal(_ id: UInt64, for session: ClientSession) -> Bool {
        guard isRefused(id, for: session) else { return false }
        session.refusedSurfaces.removeAll { $0 == id }
        return true
    }

    /// The operations of a transaction without those that name a refused id: a layer's `contents`
    /// set to it, its `surfaceChanged`, an animation whose values name it, emitter cells whose
    /// contents (or their sub-cells') name it. These are every operation that names an image. The
    /// layer keeps what it showed before (an emitter layer its cells).
    func withoutRefusedSurfaces(_ parts: [[LayerOperation]], for session: ClientSession) -> [[LayerOperation]] {
        guard !session.refusedSurfaces.isEmpty else { return parts }
        let refused = Set(session.refusedSurfaces)
        return parts.map { operations in
            operations.filter { operation in
                switch operation {
                case .set(_, .contents(let id)): !refused.contains(id)
                case .surfaceChanged(let id): !refused.contains(id)
                case .addAnimation(_, let animation): refused.isDisjoint(with: animation.record.imageIDs)
                case .setEmitterCells(_, let cells): refused.isDisjoint(with: EmitterCellState.images(of: cells))
                default: true
                }
            }
        }
    }
}
