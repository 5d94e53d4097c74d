import Foundation

/// Timed presents, as Apple's `MTLDrawable.present(at:)` and `present(afterMinimumDuration:)`
/// (developer.apple.com/documentation/metal/mtldrawable).
extension CAVulkanDrawable {
    /// Presents the drawable at the first frame at or after `presentationTime`, never earlier. Apple's
    /// time is a host time (`CACurrentMediaTime()` on Apple platforms); Lamina's is the server's media
    /// time, the clock `CACurrentMediaTime()` reads in Lamina (`CLOCK_MONOTONIC`). With
    /// `displaySyncEnabled` it waits for the drawables presented before it; `presentedTime` is the
    /// time of the frame that showed it. A time that is not finite presents it as `present()` does.
    /// Presenting twice does nothing more.
    public func present(at presentationTime: CFTimeInterval) {
        guard claimPresent(), let layer else { return }
        layer.present(self, target: presentationTime.isFinite ? .at(presentationTime) : .now)
    }

    /// Presents the drawable once the drawable shown before it has been on screen at least `duration`
    /// seconds (from its `presentedTime`), as Apple's; at once when none was shown. A duration that is
    /// not finite, or not positive, presents it as `present()` does. Presenting twice does nothing
    /// more.
    public func present(afterMinimumDuration duration: CFTimeInterval) {
        guard claimPresent(), let layer else { return }
        layer.present(self, target: duration.isFinite && duration > 0 ? .afterMinimumDuration(duration) : .now)
    }
}
