import Foundation

/// A layer that shows a queue of timed frames, each an `IOSurface` (BGRA or NV12) with the media
/// time at which it appears: Lamina's analogue of AVFoundation's `AVSampleBufferDisplayLayer`
/// (developer.apple.com/documentation/avfoundation/avsamplebufferdisplaylayer), named for Lamina
/// because its frames are surfaces and its times media times (`CACurrentMediaTime()`), not
/// `CMSampleBuffer`s on a `CMTimebase`.
///
/// ```swift
/// let t0 = CACurrentMediaTime() + 0.5
/// for (i, frame) in frames.enumerated() { try layer.enqueue(frame, at: t0 + Double(i) / 30) }
/// ```
///
/// The server shows, at each frame and at each capture, the latest entry whose time is at or before
/// that frame's media time, and the layer's `contents` before the first: the client sends entries
/// ahead and does not tick. The queue travels as a discrete keyframe animation of `contents` under
/// the key `CAVideoLayer.queueAnimationKey`, which the server already evaluates on its own clock; an
/// enqueue replaces it in the next commit. Entries a later entry has superseded by now are dropped
/// at each enqueue; at most `maximumQueuedFrames` entries are kept (`enqueue` throws
/// `CAVideoLayerError.queueFull` beyond). Use on the thread that changes the layer's tree.
open class CAVideoLayer: CALayer {
    /// The most entries the queue holds (the frame on screen now and those waiting).
    public static let maximumQueuedFrames = 16
    /// The animation key under which the queue is sent.
    public static let queueAnimationKey = "lamina.videoQueue"

    /// One timed frame.
    private struct Entry {
        var surface: IOSurface
        var time: CFTimeInterval
    }

    /// The entries, in time order.
    private var entries: [Entry] = []

    /// An empty layer.
    public override init() { super.init() }

    /// A copy of `layer` (a presentation copy): not its queue.
    public override init(layer: Any) { super.init(layer: layer) }

    /// A layer from an archive (the queue is not archived).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The number of entries queued now (including the one on screen), after dropping those a later
    /// entry has superseded by `CACurrentMediaTime()`.
    public var queuedFrameCount: Int {
        prune(now: CACurrentMediaTime())
        return entries.count
    }

    /// Whether `enqueue(_:at:)` would accept another entry now, as `AVSampleBufferDisplayLayer`'s
    /// `isReadyForMoreMediaData`.
    public var isReadyForMoreMediaData: Bool { queuedFrameCount < Self.maximumQueuedFrames }

    /// Queues `surface` to be shown from media time `time` (the server's clock, as
    /// `CACurrentMediaTime()`) until the next entry's time. An entry at the same time as one queued
    /// replaces it; one earlier than the entries queued goes in its place in time order. Sent with
    /// the next commit. Throws `CAVideoLayerError.queueFull` when `maximumQueuedFrames` entries wait,
    /// and `.invalidTime` for a time that is not finite.
    public func enqueue(_ surface: IOSurface, at time: CFTimeInterval) throws {
        guard time.isFinite else { throw CAVideoLayerError.invalidTime(time) }
        prune(now: CACurrentMediaTime())
        if let same = entries.firstIndex(where: { $0.time == time }) {
            entries[same].surface = surface
        } else {
            guard entries.count < Self.maximumQueuedFrames else {
                throw CAVideoLayerError.queueFull(limit: Self.maximumQueuedFrames)
            }
            let at = entries.firstIndex(where: { $0.time > time }) ?? entries.count
            entries.insert(Entry(surface: surface, time: time), at: at)
        }
        sendQueue()
    }

    /// Drops every entry but the one shown now, which becomes the layer's `contents` (without an
    /// implicit animation), as `AVSampleBufferDisplayLayer.flush()` keeps the image on screen.
    public func flush() {
        let now = CACurrentMediaTime()
        let current = entries.last { $0.time <= now }
        entries = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        if let current { contents = current.surface }
        removeAnimation(forKey: Self.queueAnimationKey)
        CATransaction.commit()
    }

    /// Drops every entry and the layer's `contents`, as `AVSampleBufferDisplayLayer.flushAndRemoveImage()`.
    public func flushAndRemoveImage() {
        entries = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        contents = nil
        removeAnimation(forKey: Self.queueAnimationKey)
        CATransaction.commit()
    }

    /// Drops the entries that a later entry has superseded by `now`.
    private func prune(now: CFTimeInterval) {
        guard let shown = entries.lastIndex(where: { $0.time <= now }), shown > 0 else { return }
        entries.removeFirst(shown)
    }

    /// Replaces the queue's animation: discrete, from the first entry's time to the last's, each
    /// surface held from its key time, the last one filled forwards.
    private func sendQueue() {
        guard let first = entries.first, let last = entries.last else {
            removeAnimation(forKey: Self.queueAnimationKey)
            return
        }
        let span = last.time - first.time
        let duration = span > 0 ? span : 1e-3
        let animation = CAKeyframeAnimation(keyPath: "contents")
        animation.values = entries.map(\.surface)
        animation.keyTimes = entries.map { NSNumber(value: ($0.time - first.time) / duration) }
        animation.calculationMode = .discrete
        animation.beginTime = first.time
        animation.duration = duration
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        add(animation, forKey: Self.queueAnimationKey)
    }
}

/// Why `CAVideoLayer.enqueue(_:at:)` refused an entry.
public enum CAVideoLayerError: Error, Equatable {
    /// The queue already holds `limit` entries (`CAVideoLayer.maximumQueuedFrames`).
    case queueFull(limit: Int)
    /// The time is not finite.
    case invalidTime(CFTimeInterval)
}
