import Foundation
import LaminaCore

/// Shared surfaces on the frame worker: their import, the copy of a new frame where the renderer
/// cannot sample them in place, and the damage a new frame makes (docs/surfaces.md).
extension FrameWorker {
    /// A shared surface the renderer imported.
    struct SurfaceEntry {
        /// The renderer's result: the image layers sample, and whether it is zero copy.
        var imported: ImportedSurface
        /// The tree revision of the surface (`RenderTree.surfaceRevisions`) its image holds: the
        /// one copied last, on the copy path.
        var revision: UInt64 = 0
    }

    /// A surface of one session.
    struct SurfaceKey: Hashable {
        var session: Int
        var id: UInt64
    }

    /// Imports a surface as image `id` of `session` (worker's thread); a refusal is reported to the
    /// loop as an import failure, which the loop answers with `surfaceRefused`.
    func importSurface(_ surface: SurfacePixels, session: Int, id: UInt64) {
        guard let renderer else { return }
        do {
            let imported = try renderer.importSurface(surface)
            // YCbCr has no alpha: such a surface is opaque, and drawn by the `video` kinds.
            images[session, default: [:]][id] = ContentsImage(
                image: imported.image, width: surface.width, height: surface.height,
                isOpaque: surface.yCbCr != nil, videoCode: surface.yCbCr?.drawCode)
            surfaces[session, default: [:]][id] = SurfaceEntry(imported: imported)
            if imported.bytesCopied > 0 {
                lock.withLock { surfaceBytesCopied[session, default: 0] += imported.bytesCopied }
            }
        } catch {
            lock.withLock {
                importFailures.append(ImportFailure(session: session, id: id, error: error, isSurface: true))
            }
            wakeup.wake()
        }
    }

    /// Forgets surface `id` of `session` (its image is released by the caller).
    func forgetSurface(session: Int, id: UInt64) {
        guard surfaces[session]?.removeValue(forKey: id) != nil else { return }
        let key = SurfaceKey(session: session, id: id)
        forgetFeedback(key)
        for display in drawnSurfaceRevisions.keys { drawnSurfaceRevisions[display]![key] = nil }
    }

    /// Forgets every surface of a session that has left, and its copy count.
    func forgetSurfaces(of session: Int) {
        for id in (surfaces[session] ?? [:]).keys { forgetSurface(session: session, id: id) }
        surfaces[session] = nil
        _ = lock.withLock { surfaceBytesCopied.removeValue(forKey: session) }
    }

    /// The bytes copied out of the session's surfaces so far (0 on the zero-copy path). Any thread.
    func surfaceBytesCopied(by session: Int) -> Int {
        lock.withLock { surfaceBytesCopied[session] ?? 0 }
    }

    /// The trees of `scene` with the session each belongs to: its own trees and the exported ones.
    private func sessionTrees(of scene: Scene) -> [(session: Int, tree: RenderTree)] {
        var out = zip(scene.sessions, scene.trees).map { (session: $0.0, tree: $0.1) }
        for exported in scene.exported.values { out.append((exported.session, exported.tree)) }
        return out
    }

    /// Brings the images of the surfaces `scene`'s trees say changed up to date before it is built:
    /// nothing for a zero-copy surface; a copy of its rows for the others, counted per session.
    func refreshSurfaces(of scene: Scene) {
        guard let renderer, !surfaces.isEmpty else { return }
        for (session, tree) in sessionTrees(of: scene) where !tree.surfaceRevisions.isEmpty {
            for (id, revision) in tree.surfaceRevisions {
                guard let entry = surfaces[session]?[id], entry.revision != revision else { continue }
                surfaces[session]![id]!.revision = revision
                guard !entry.imported.isZeroCopy else { continue }
                do {
                    let copied = try renderer.refreshSurface(entry.imported.image)
                    lock.withLock { surfaceBytesCopied[session, default: 0] += copied }
                } catch {
                    lock.withLock {
                        importFailures.append(ImportFailure(session: session, id: id, error: error, isSurface: true))
                    }
                    wakeup.wake()
                }
            }
        }
    }

    /// The images of the surfaces whose revision in `scene` differs from the one the display's last
    /// frame drew, which are remembered as drawn now.
    func surfacesChanged(in scene: Scene, since display: DisplayKey) -> Set<RenderImageID> {
        guard !surfaces.isEmpty else { return [] }
        var changed = Set<RenderImageID>()
        var drawn = drawnSurfaceRevisions[display] ?? [:]
        for (session, tree) in sessionTrees(of: scene) where !tree.surfaceRevisions.isEmpty {
            for (id, revision) in tree.surfaceRevisions {
                guard let entry = surfaces[session]?[id] else { continue }
                let key = SurfaceKey(session: session, id: id)
                if drawn[key, default: 0] != revision { changed.insert(entry.imported.image) }
                drawn[key] = revision
            }
        }
        drawnSurfaceRevisions[display] = drawn
        return changed
    }

    /// Adds to `list`'s damage the pixels of every instance that samples one of `changed`, or a pass
    /// that does, directly or through the passes before it (a rasterized layer holding a surface; a
    /// shadow drawn from a surface's alpha, whose blur passes sample the pass the layer was drawn in);
    /// nothing when the list is drawn whole anyway. `list.passes` is in drawing order, so one walk
    /// finds every pass that depends on a changed surface.
    static func damage(_ list: inout DisplayList, sampling changed: Set<RenderImageID>) {
        guard !changed.isEmpty, let damage = list.damage else { return }
        var images = changed
        for pass in list.passes
        where pass.batches.contains(where: { $0.texture.map { images.contains($0.image) } ?? false }) {
            images.insert(pass.image)
        }
        let extra = list.emitted.compactMap { instance -> DamageRect? in
            guard let texture = instance.texture, images.contains(texture.image) else { return nil }
            return instance.pixels
        }
        guard !extra.isEmpty else { return }
        list.damage = DamageTracker.collapse(
            (damage + extra).filter { !$0.isEmpty }, width: list.width, height: list.height)
    }
}
