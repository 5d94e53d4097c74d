import CDRM
import Foundation
import CLaminaShims
import Glibc
import LaminaServer

extension KMSOutput {
    /// The epoll fd over the DRM fd (page-flip events), the frame timer and the seat's fd.
    public var eventFileDescriptor: Int32? { epoll }

    /// Asks for a frame event at the refresh at media time `time`: while a flip is in flight its
    /// completion is the next refresh the display can show, so the event waits for it; else the
    /// timer fires at `time`.
    public func requestFrame(at time: Double) {
        device.lock.withLock {
            armedTime = time
            if pending == nil { armTimer(at: time) }
        }
    }

    /// Reads the seat's events, the page-flip events and the timer, and returns
    /// the frame events they give: a flip's completion (at the refresh after its timestamp, where a
    /// frame presented now is shown) when a frame was asked for by then, and the timer's refresh.
    public func handleEvents() -> [FrameEvent] {
        device.handleSeat()
        return device.lock.withLock {
            device.drainEvents()
            var expirations: UInt64 = 0
            if read(timer, &expirations, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size,
                let time = armedTime, pending == nil
            {
                armedTime = nil
                undelivered.append(FrameEvent(time: time))
            }
            let events = undelivered
            undelivered = []
            return events
        }
    }

    /// Takes the completion the device's event reader wrote for this output's flip, if any: the
    /// flipped buffer is on screen, and a frame asked for by then gets its event. Called by the device
    /// with `device.lock` held, on either thread; the timer is set to fire at once so the loop wakes
    /// for the event even when the frame worker read it.
    func collectFlip() {
        guard flipRecord.pointee.completed != 0, let flipped = pending else { return }
        let record = flipRecord.pointee
        flipRecord.pointee.completed = 0
        shown = flipped
        pending = nil
        let time = device.mediaTime(seconds: record.seconds, microseconds: record.microseconds)
        lastFlipTime = time
        flipCount += 1
        if let start = pendingFrameStart {
            recordLatency(time - start)
            let format = { (seconds: Double) in String(format: "%.1f ms", seconds * 1000) }
            logger.debug(
                "KMS frame flipped",
                metadata: [
                    "connector": "\(connectorName)", "frameToFlip": "\(format(time - start))",
                    "commitToFlip": "\(format(time - (pendingCommitTime ?? start)))",
                ])
        }
        pendingFrameStart = nil
        pendingCommitTime = nil
        guard let wanted = armedTime else { return }
        if let next = Self.frameEventTime(flip: time, wanted: wanted, refreshRate: mode.refreshRate) {
            armedTime = nil
            undelivered.append(FrameEvent(time: next))
            armTimer(at: 0)
        } else {
            armTimer(at: wanted)
        }
    }

    /// The time of the frame event a page flip at media time `flip` gives a frame asked for at media
    /// time `wanted`, or nil when it gives none yet. A frame presented after the flip is shown at the
    /// next refresh (`flip` + 1/`refreshRate`); the event comes when that refresh is no more than half
    /// a refresh before `wanted` (the server's own test for a due frame), and the timer waits for
    /// `wanted` otherwise.
    public static func frameEventTime(flip: Double, wanted: Double, refreshRate: Double) -> Double? {
        let interval = 1 / max(refreshRate, 1)
        let next = flip + interval
        return next >= wanted - interval / 2 ? next : nil
    }

    /// Sets the frame timer to expire at media time `time` (at once when it has passed).
    func armTimer(at time: Double) {
        let nanoseconds = max(1, (max(0, time) * 1e9).rounded(.up))
        var spec = itimerspec()
        spec.it_value = timespec(
            tv_sec: Int(nanoseconds / 1e9), tv_nsec: Int(nanoseconds.truncatingRemainder(dividingBy: 1e9)))
        if timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil) != 0 {
            logger.error("KMS frame timer", metadata: ["call": "timerfd_settime", "errno": "\(errno)"])
        }
    }
}
