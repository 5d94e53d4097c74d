import Foundation
import LaminaCore
import LaminaProtocol

/// Vulkan-device drawables on the frame worker: imported like shared surfaces, so that
/// `surfaceChanged`, damage and release work for them the same way (docs/surfaces.md).
extension FrameWorker {
    /// Imports a client's device image as image `id` of `session` (worker's thread); a refusal is
    /// reported to the loop, which answers it with `surfaceRefused` (`deviceImageRefused`).
    func importDeviceImage(_ image: DeviceImageMemory, session: Int, id: UInt64) {
        guard let renderer else { return }
        do {
            let imported = try renderer.importDeviceImage(image)
            images[session, default: [:]][id] = ContentsImage(
                image: imported.image, width: image.width, height: image.height)
            surfaces[session, default: [:]][id] = SurfaceEntry(imported: imported)
        } catch {
            lock.withLock {
                importFailures.append(
                    ImportFailure(session: session, id: id, error: error, code: .deviceImageRefused, isSurface: true))
            }
            wakeup.wake()
        }
    }
}
