/// What each buffer an output shows in turn (KMS scan-out buffers, a window's swapchain images)
/// lacks of the newest frame, by buffer age: a buffer that last received frame *n* needs the damage of
/// the frames drawn after *n*, and nothing else, to show the newest one (the scheme of
/// `EGL_EXT_buffer_age`, and of wlroots' and Weston's damage rings).
///
/// The output draws every frame into its own target, so the target always holds the newest frame;
/// copying a buffer's missing region from it brings the buffer up to date. The same history gives the
/// region that differs between the buffer on screen and the one flipped to, which is what a KMS
/// plane's `FB_DAMAGE_CLIPS` carries.
public struct BufferDamage: Sendable {
    /// Frames remembered; a buffer older than this is copied whole.
    public static let depth = 4

    /// The frame each buffer holds (a number from `frameCount`), nil while it holds none.
    private var holds: [Int?]
    /// The damage of the latest frames, oldest first (nil: drawn whole), the last one frame `frameCount`.
    private var history: [[DamageRect]?] = []
    /// Frames recorded so far.
    public private(set) var frameCount = 0

    /// The history of `bufferCount` buffers that hold nothing yet.
    public init(bufferCount: Int) {
        holds = Array(repeating: nil, count: bufferCount)
    }

    /// Records a new frame whose damage against the frame before it is `damage` (nil: all of it).
    public mutating func record(_ damage: [DamageRect]?) {
        frameCount += 1
        history.append(damage)
        if history.count > Self.depth { history.removeFirst(history.count - Self.depth) }
    }

    /// The region buffer `index` lacks of the newest frame: the rectangles that changed since the
    /// frame it holds (possibly overlapping; empty when it holds the newest), nil when that is
    /// unknown (it holds nothing, is too old, or a frame since was drawn whole).
    public func missing(in index: Int) -> [DamageRect]? {
        guard holds.indices.contains(index), let held = holds[index] else { return nil }
        let age = frameCount - held
        guard age <= history.count else { return nil }
        var region: [DamageRect] = []
        for damage in history.suffix(age) {
            guard let damage else { return nil }
            region += damage
        }
        return region
    }

    /// Notes that buffer `index` now holds the newest frame.
    public mutating func filled(_ index: Int) {
        guard holds.indices.contains(index) else { return }
        holds[index] = frameCount
    }

    /// Forgets what every buffer holds (new buffers, or their contents unknown).
    public mutating func forgetBuffers() {
        holds = Array(repeating: nil, count: holds.count)
    }
}
