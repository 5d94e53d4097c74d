import Foundation
import LaminaCore
import LaminaProtocol

/// Presented and release feedback on shared surfaces, for the clients that ask for it (a
/// `CAVulkanLayer`'s pool): docs/surfaces.md, "Pacing and feedback"; docs/protocol.md §4.1.
extension Server {
    /// `surfaceFeedback`: starts or stops the feedback on surface `id` of `session`. Throws
    /// `unknownSurface` for an id that is not one of the client's registered, unreleased surfaces.
    func setSurfaceFeedback(id: UInt64, enabled: Bool, for session: ClientSession) throws {
        guard let surface = session.images[id], surface.surfaceBytes != nil, !surface.isReleased else {
            throw SessionError(
                .unknownSurface, "surfaceFeedback of surface \(id), which is not registered or already released")
        }
        frames.perform(.surfaceFeedback(session: session.id, id: id, enabled: enabled))
    }

    /// Sends each feedback event to the surface's owner only (a client that has left gets nothing).
    /// At most two events per watched surface and frame, and a client watches at most its surfaces
    /// (`ResourceLimits`), so the messages are bounded as the frames are.
    func deliver(_ events: [FrameWorker.SurfaceFeedbackEvent]) {
        for event in events {
            guard let session = sessions.first(where: { $0.id == event.session }), session.failure == nil else {
                continue
            }
            if let time = event.presentedAt {
                deliver(.surfacePresented(id: event.id, time: time), to: session)
            } else if event.discarded {
                deliver(.surfaceDiscarded(id: event.id), to: session)
            } else {
                deliver(.surfaceReleased(id: event.id), to: session)
            }
        }
    }
}
