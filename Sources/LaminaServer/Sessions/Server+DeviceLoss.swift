import Foundation

extension Server {
    /// Stops the server when the renderer's device is lost (`Renderer.deviceLoss`): records the loss
    /// in `deviceLoss`, logs it once and asks `run()` to return, which closes every client without an
    /// error (they take it for a restart and reconnect to the next server). Returns whether the
    /// device is lost (found now or in an earlier turn). The loop calls it after taking the frame worker's outcomes and refused imports and
    /// before handling them: the renderer marks the loss before it throws, so whatever the loss made
    /// fail is taken in the same turn and dropped with it, never reported to a client.
    func stopIfDeviceLost() -> Bool {
        guard deviceLoss == nil else { return true }
        guard let loss = frames.renderer?.deviceLoss else { return false }
        deviceLoss = loss
        logger.critical("device lost: no more frames; stopping", metadata: ["error": "\(loss)"])
        stop()
        return true
    }
}
