/// Numbers the frames (submissions) a renderer makes and says which frame slot each uses and what it must
/// wait for, with up to `framesInFlight` frames executing at once.
///
/// Frame values start at 1 and increase by one per submission; 0 means "no frame". Frame `f` uses slot
/// `f % framesInFlight`, so before frame `f` is recorded, frame `f - framesInFlight` (the slot's previous
/// user) must have finished. Plain Swift: the renderer feeds it fence results, tests feed it made-up ones.
public struct FrameTimeline: Sendable {
    /// How many frames may execute on the device at once (at least 1).
    public let framesInFlight: Int
    /// The newest frame submitted, or 0 before the first.
    public private(set) var submitted: UInt64 = 0
    /// Every frame up to and including this one has finished on the device.
    public private(set) var completed: UInt64 = 0

    /// A timeline with nothing submitted.
    public init(framesInFlight: Int) {
        precondition(framesInFlight >= 1, "framesInFlight must be at least 1")
        self.framesInFlight = framesInFlight
    }

    /// The value the next submission will get.
    public var next: UInt64 { submitted + 1 }

    /// The slot frame `frame` records into.
    public func slot(of frame: UInt64) -> Int { Int(frame % UInt64(framesInFlight)) }

    /// The frame that must finish before `next` may reuse its slot, or `nil` when none must (the slot was
    /// never used, or its previous frame is already known to have finished).
    public var mustFinishBeforeNext: UInt64? {
        let inFlight = UInt64(framesInFlight)
        guard next > inFlight else { return nil }
        let previous = next - inFlight
        return previous > completed ? previous : nil
    }

    /// Whether frame `frame` is known to have finished.
    public func hasFinished(_ frame: UInt64) -> Bool { frame <= completed }

    /// Records that `next` was submitted and returns its value.
    ///
    /// The caller must first have waited for `mustFinishBeforeNext`.
    @discardableResult
    public mutating func didSubmit() -> UInt64 {
        precondition(mustFinishBeforeNext == nil, "frame \(next) would reuse a slot still in flight")
        submitted += 1
        return submitted
    }

    /// Records that frame `frame`'s fence has signalled, so it and every earlier frame have finished.
    public mutating func didFinish(through frame: UInt64) {
        precondition(frame <= submitted, "frame \(frame) was never submitted")
        completed = max(completed, frame)
    }
}
