import CVulkan
import LaminaServer

extension VulkanRenderer {
    /// How many frames may execute on the device at once.
    public var framesInFlight: Int { timeline.framesInFlight }

    /// The newest frame submitted (0 before the first); every submission, draws and copies alike, is one.
    public var submittedFrame: UInt64 { timeline.submitted }

    /// The newest frame known to have finished on the device.
    public var completedFrame: UInt64 { timeline.completed }

    /// How many retired GPU objects still wait for the frames that last used them.
    public var retiredObjectsWaiting: Int { graveyard.count }

    /// The GPU times of the drawn frames that finished since the last call, in milliseconds by frame
    /// number (from the two timestamps around each frame's drawing; empty on a device without
    /// timestamps). Notes the frames that finished without waiting first.
    public func takeGPUTimes() throws -> [UInt64: Double] {
        try collectFinishedFrames()
        var times: [UInt64: Double] = [:]
        for slot in slots {
            if let measured = slot.measured { times[measured.frame] = measured.milliseconds }
            slot.measured = nil
        }
        return times
    }

    /// The newest frame known to have finished on the device, after noting without waiting the frames
    /// whose fences have signalled (and freeing what they retired).
    public func finishedFrame() throws -> UInt64 {
        try collectFinishedFrames()
        return timeline.completed
    }

    /// Waits until every submitted frame has finished, then frees everything retired.
    public func waitForAllFrames() throws {
        try waitUntilFinished(timeline.submitted)
    }

    /// Makes the next frame's slot free to record: waits for the slot's previous frame if it may still
    /// be running, then frees what every finished frame retired. Returns the slot.
    @discardableResult
    func prepareNextFrame() throws -> FrameSlot {
        try refuseIfDeviceLost()
        let slot = slots[timeline.slot(of: timeline.next)]
        if slot.fencePending {
            try notingDeviceLoss { try slot.waitAndReset() }
            timeline.didFinish(through: slot.frame)
        }
        graveyard.collect(completedThrough: timeline.completed)
        return slot
    }

    /// Notes, without waiting, the frames whose fences have signalled (the queue runs in order, so each
    /// also finishes every earlier frame), and frees what they retired.
    func collectFinishedFrames() throws {
        try refuseIfDeviceLost()
        for slot in slots where slot.fencePending {
            let status = vkGetFenceStatus(vk.device, slot.fence)
            if status == VK_ERROR_DEVICE_LOST { try notingDeviceLoss { try check(status, "vkGetFenceStatus") } }
            guard status == VK_SUCCESS else { continue }
            try notingDeviceLoss { try slot.waitAndReset() }
            timeline.didFinish(through: slot.frame)
        }
        graveyard.collect(completedThrough: timeline.completed)
    }

    /// Waits for frame `frame` (and so every earlier one) to finish, then frees what they retired.
    func waitUntilFinished(_ frame: UInt64) throws {
        try refuseIfDeviceLost()
        guard !timeline.hasFinished(frame) else { return }
        let slot = slots[timeline.slot(of: frame)]
        precondition(slot.frame == frame, "frame \(frame) was superseded but not marked finished")
        try notingDeviceLoss { try slot.waitAndReset() }
        timeline.didFinish(through: frame)
        graveyard.collect(completedThrough: timeline.completed)
    }
}
