import LaminaCore
import LaminaProtocol

/// One display the server drives: an output, the display's id, and its own frame schedule.
///
/// Each display presents on its own refresh grid (multiples of 1/Hz in media time), only when
/// something shown on it changed, an animation on it runs, a display link waits for it or its output
/// lost the visible frame (`Output.takeRedrawRequest()`, a window that was exposed). Its frames
/// are drawn on the server's frame worker, one at a time. Owned and used by the server on its loop's
/// thread only; tests read its counters.
public final class Display {
    /// The display's number: its index in the server's outputs, as clients name it. A closed
    /// display's number may be given to a display added later (`Server.addOutput`), which then
    /// replaces it.
    public let id: UInt32
    /// How many displays had this number before this one (0 for the first): a frame drawn for an
    /// earlier one, which closed and whose number was given again, is told apart by it.
    let instance: Int
    /// Where this display's frames go.
    public let output: any Output
    /// Whether a frame is waiting to be presented.
    public internal(set) var needsFrame = true
    /// The media time of the waiting frame (nil: as soon as possible).
    public internal(set) var nextFrameTime: Double?
    /// The media time of the last presented frame.
    public internal(set) var lastPresented: Double?
    /// Frames presented since start.
    public internal(set) var framesPresented = 0
    /// The time of the output's frame event that made the waiting frame due (the refresh a frame
    /// presented now is shown at, such as the next vertical blank after a page flip), used as that
    /// frame's time; nil when the server's clock made it due.
    var dueEventTime: Double?
    /// The media time of the frame the frame worker is drawing, if any.
    public internal(set) var frameInFlight: Double?
    /// Whether the display's output has closed (`Output.isClosed`): it gets no more frames.
    public internal(set) var isClosed = false
    /// For the frame being drawn: each client's newest applied serial when the frame started (the
    /// commits the frame shows), by session id.
    var serialsInFlight: [Int: UInt64] = [:]
    /// The newest frames' records (`keep`), a ring whose oldest entry is at `frameRecordHead`.
    private var frameRecordRing: [FrameRecord] = []
    private var frameRecordHead = 0
    /// Whether the frame being drawn started for a later refresh than it was scheduled for.
    private var frameStartedLate = false

    /// A display `id` showing frames on `output`, the `instance`th to have that number.
    init(id: UInt32, output: any Output, instance: Int = 0) {
        self.id = id
        self.output = output
        self.instance = instance
    }

    /// The display as the handshake describes it.
    var info: DisplayInfo {
        DisplayInfo(
            id: id, width: UInt32(output.mode.width), height: UInt32(output.mode.height),
            refreshRate: output.mode.refreshRate, name: "\(output.kind)-\(id)", connector: output.connector)
    }

    /// The time between refreshes in seconds.
    var interval: Double { 1 / max(output.mode.refreshRate, 1) }

    /// Asks for a frame at the next tick of the refresh grid at or after `now` (after `previous`, the
    /// time of the frame just presented, when given), or at the first tick at or after `wake`. A
    /// frame already asked for at an earlier time stays.
    func scheduleFrame(now: Double, after previous: Double? = nil, notBefore wake: Double? = nil) {
        // A failed frame is retried at the next tick, since needsFrame stays set until a frame succeeds.
        guard !isClosed else { return }
        var due = (now / interval).rounded(.up) * interval
        if let previous, due <= previous + interval / 2 { due = previous + interval }
        if let wake, wake > due { due = (wake / interval).rounded(.up) * interval }
        if needsFrame, nextFrameTime.map({ $0 <= due }) ?? true { return }
        needsFrame = true
        setFrameTime(due)
    }

    /// Sets the waiting frame's time and asks the output for an event at that refresh.
    func setFrameTime(_ time: Double) {
        guard !isClosed else { return }
        nextFrameTime = time
        output.requestFrame(at: time)
    }

    /// Whether `event` is the refresh the waiting frame is for (or a later one).
    func isDue(_ event: FrameEvent) -> Bool {
        guard needsFrame, !isClosed, let due = nextFrameTime else { return false }
        return event.time >= due - interval / 2
    }

    /// Records that the waiting frame, for `time`, is being drawn: no other frame of this display
    /// starts until it ends, and a frame asked for meanwhile waits.
    func beginFrame(at time: Double, scheduledFor scheduled: Double) {
        frameStartedLate = time > scheduled + interval / 2
        dueEventTime = nil
        needsFrame = false
        nextFrameTime = nil
        frameInFlight = time
    }

    /// Keeps `record` among the display's newest frame records (`WireLimits.maxFrameRecords`).
    func keep(_ record: FrameRecord) {
        if frameRecordRing.count < WireLimits.maxFrameRecords {
            frameRecordRing.append(record)
        } else {
            frameRecordRing[frameRecordHead] = record
            frameRecordHead = (frameRecordHead + 1) % frameRecordRing.count
        }
    }

    /// Sets the GPU time of the kept record of the frame drawn for `time`, if it is still kept.
    func setGPUTime(_ milliseconds: Double, ofFrameAt time: Double) {
        guard let index = frameRecordRing.lastIndex(where: { $0.time == time }) else { return }
        frameRecordRing[index].gpuMilliseconds = milliseconds
    }

    /// The newest `count` frame records, oldest first.
    func newestFrameRecords(_ count: Int) -> [FrameRecord] {
        let ordered = frameRecordRing[frameRecordHead...] + frameRecordRing[..<frameRecordHead]
        return Array(ordered.suffix(count))
    }

    /// Whether the frame drawn for `time`, finished at `now`, missed its refresh: it started for a
    /// later refresh than it was scheduled for, or finished after the refresh that follows `time`.
    func frameMissedDeadline(at time: Double, now: Double) -> Bool {
        frameStartedLate || now > time + interval
    }

    /// Records the frame being drawn as presented at `time`.
    func didPresent(at time: Double) {
        frameInFlight = nil
        lastPresented = time
        framesPresented += 1
    }

    /// Records that the frame being drawn, for `time`, failed: a frame is asked for at the next
    /// refresh tick after it (or earlier, when one was asked for meanwhile).
    func didFail(at time: Double) {
        frameInFlight = nil
        let retry = time + interval
        if !needsFrame || (nextFrameTime ?? .infinity) > retry {
            needsFrame = true
            nextFrameTime = retry
        }
    }
}
