import Foundation
import LaminaCore
import LaminaProtocol

extension Server {
    /// Tells each client what a presented frame showed of its tiled layers, where that differs from
    /// what it was last told (the client draws the tiles that cover it). Reports of layers the
    /// client has destroyed since are dropped with them.
    func reportTiledViews(_ views: [Int: [TiledLayerView]]) {
        clients: for (sessionID, list) in views {
            guard let session = sessions.first(where: { $0.id == sessionID }) else { continue }
            session.sentTiledViews = session.sentTiledViews.filter { session.tree.layers[$0.key] != nil }
            for view in list {
                var sent = view
                sent.tree = 0
                guard session.sentTiledViews[view.layer] != sent, session.tree.layers[view.layer] != nil else {
                    continue
                }
                session.sentTiledViews[view.layer] = sent
                do {
                    try send(.tiledLayerView(layer: view.layer, rect: view.rect, scale: view.scale), to: session)
                } catch let error as SessionError {
                    fail(session, error)
                    continue clients
                } catch {
                    fail(session, SessionError(.internalError, "\(error)"))
                    continue clients
                }
            }
        }
    }
}
