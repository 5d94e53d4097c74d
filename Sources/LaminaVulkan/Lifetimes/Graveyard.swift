/// The renderer's retirement list for Vulkan objects, shared with the targets and images it made.
///
/// Each retired object is a Swift owner (`VulkanImage`, `HostBuffer`, …) whose `deinit` destroys its
/// handles; the graveyard keeps a strong reference until the frame that last used it has finished, so the
/// handles die then, never while the device may still read them. After the renderer's teardown (which
/// waits for the device) the graveyard is closed and retiring drops the reference at once.
/// Confined to the render thread.
final class Graveyard {
    private var queue = RetirementQueue<AnyObject>()
    private(set) var completed: UInt64 = 0
    private(set) var isClosed = false

    /// The number of objects waiting for their frames.
    var count: Int { queue.count }

    /// Holds `object` until frame `frame` has finished; drops it now if that is already so.
    func retire(_ object: AnyObject, lastUsedBy frame: UInt64) {
        guard !isClosed, frame > completed else { return }
        queue.retire(object, lastUsedBy: frame)
    }

    /// Frees what every frame up to `frame` last used.
    func collect(completedThrough frame: UInt64) {
        completed = max(completed, frame)
        _ = queue.collect(completedThrough: frame)
    }

    /// Frees everything and drops later retirees at once; call only when the device is idle.
    func close() {
        isClosed = true
        _ = queue.drain()
    }
}
