import CVulkan
import Foundation

/// A buffer of a `CAVulkanLayer`'s pool, handed out by `nextDrawable()`: the analogue of Apple's
/// `CAMetalDrawable` (developer.apple.com/documentation/quartzcore/cametaldrawable).
///
/// Without a layer `device`, write the pixels through `surface` (BGRA premultiplied,
/// `surface.bytesPerRow` bytes a row); with one, render into `image` on that device
/// (`CAVulkanDrawable+Device.swift` says how to hand it over). Then call `present()` (or
/// `present(at:)`, `present(afterMinimumDuration:)`) once. The drawable goes back to the pool when the
/// app holds no reference to it and the server has said no frame uses it any more, as Apple's goes
/// back once off screen; one dropped without being presented goes back at once. Thread-safe.
public final class CAVulkanDrawable: @unchecked Sendable {
    /// The layer whose pool it belongs to.
    public private(set) weak var layer: CAVulkanLayer?
    /// The surface to draw into; its size is the layer's `drawableSize` when it was handed out. Nil
    /// for a drawable of a layer with a `device` (draw into `image`).
    public let surface: IOSurface!
    /// The image behind a Vulkan-device drawable (nil for a CPU drawable).
    let deviceImage: VulkanDrawableImage?
    /// The value the app's rendering signals on `signalSemaphore` (0 for a CPU drawable).
    public let signalValue: UInt64
    /// A positive number that tells the drawables apart, as Apple's `drawableID` does.
    public let drawableID: Int
    /// The pool slot it stands for.
    let slot: Int
    private let lock = NSLock()
    private var presented = false
    private var time: CFTimeInterval = 0
    private var handlers: [(CAVulkanDrawable) -> Void] = []

    init(layer: CAVulkanLayer, surface: IOSurface, drawableID: Int, slot: Int) {
        self.layer = layer
        self.surface = surface
        deviceImage = nil
        signalValue = 0
        self.drawableID = drawableID
        self.slot = slot
    }

    /// A drawable of a layer with a `device`: `image`'s next frame, signalled at `signalValue`.
    init(layer: CAVulkanLayer, image: VulkanDrawableImage, signalValue: UInt64, drawableID: Int, slot: Int) {
        self.layer = layer
        surface = nil
        deviceImage = image
        self.signalValue = signalValue
        self.drawableID = drawableID
        self.slot = slot
    }

    deinit {
        layer?.drawableReleased(slot: slot, presented: presented)
    }

    /// The media time of the frame that first showed the drawable (the server's `surfacePresented`),
    /// or 0 if it has not been shown yet or was dropped (a newer drawable replaced it before any
    /// frame showed it), as Apple's `presentedTime`.
    public var presentedTime: CFTimeInterval { lock.withLock { time } }

    /// Presents the drawable as soon as possible: with `displaySyncEnabled` after the drawables
    /// presented before it, each shown for at least one frame; without it, in place of any still
    /// waiting. Presenting twice does nothing more.
    public func present() {
        guard claimPresent(), let layer else { return }
        layer.present(self, target: .now)
    }

    /// Whether this is the drawable's first present (each drawable is presented once).
    func claimPresent() -> Bool {
        lock.withLock {
            defer { presented = true }
            return !presented
        }
    }

    /// What the layer's `contents` becomes when it is presented: the surface, or the device image.
    var contentsObject: Any { surface ?? deviceImage! }

    /// The id of `contentsObject` in the image id space.
    var contentsID: UInt64 { surface?.contentsID ?? deviceImage!.contentsID }

    /// Counts a new frame of the drawable's buffer: the commit that shows it carries `surfaceChanged`.
    func noteChanged() {
        if let surface { surface.noteChanged() } else { deviceImage?.noteChanged() }
    }

    /// Adds a block called once the drawable has been shown (or dropped: `presentedTime` is then 0),
    /// on the thread that applies the server's events, as Apple's `addPresentedHandler(_:)` does.
    public func addPresentedHandler(_ handler: @escaping (CAVulkanDrawable) -> Void) {
        lock.withLock { handlers.append(handler) }
    }

    /// Records the time it was shown (0: dropped) and calls the presented handlers.
    func finish(at presentedTime: CFTimeInterval) {
        let blocks = lock.withLock {
            time = presentedTime
            defer { handlers = [] }
            return handlers
        }
        for block in blocks { block(self) }
    }
}
