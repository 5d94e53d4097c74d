import CVulkan
import Foundation
import LaminaProtocol

/// A layer whose contents the app renders itself, frame by frame, into drawables from a small pool:
/// the analogue of Apple's `CAMetalLayer` (developer.apple.com/documentation/quartzcore/cametallayer)
/// for drawables written on the CPU. Each drawable is an `IOSurface` shared with laminad without a
/// copy (docs/surfaces.md).
///
/// ```swift
/// guard let drawable = layer.nextDrawable() else { return }   // nil after 1 s with all in use
/// draw(into: drawable.surface)
/// drawable.present()
/// ```
///
/// Presenting makes the drawable the layer's `contents` in a transaction of its own, sent at once.
/// With `displaySyncEnabled` (the default) drawables are shown in the order presented, each in a
/// frame of its own: the next is committed once the server has presented the frame showing the one
/// before (`commitPresented`). Without it, a drawable presented while another waits replaces it, and
/// the replaced one is dropped (`presentedTime` 0). A drawable returns to the pool once it is off
/// screen and the app holds no reference to it. Without a `device` the drawables are `IOSurface`s
/// written on the CPU; with one, they are images the app renders on its own Vulkan device
/// (`CAVulkanLayer+Device.swift`, docs/surfaces.md).
open class CAVulkanLayer: CALayer {
    /// The pool: slots, the presents waiting, the one committed and the one on screen.
    let pool = NSCondition()
    private var slots: [IOSurface?] = []
    var slotInUse: [Bool] = []
    /// The pool's images when the layer has a `device` (the same slots as `slotInUse`).
    var deviceSlots: [VulkanDrawableImage?] = []
    /// The device the pool's images were made on and the verdict of its compatibility check.
    var checkedDevice: (device: CAVulkanDevice, format: UInt32, compatible: Bool)?
    private var waiting: [CAVulkanDrawable] = []
    private var committed: (drawable: CAVulkanDrawable, context: CAContext, serial: UInt64)?
    private var committing = false
    private var onscreen: CAVulkanDrawable?
    var lastDrawableID = 0
    private var explicitDrawableSize: CGSize?
    private static let presentQueue = DispatchQueue(label: "lamina-vulkan-layer-present")
    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var layers: [WeakVulkanLayer] = []

    private struct WeakVulkanLayer: @unchecked Sendable {
        weak var layer: CAVulkanLayer?
    }

    /// A layer with an empty pool.
    public override init() {
        super.init()
        Self.register(self)
    }

    /// A copy of `layer` (a presentation copy): its settings, not its pool.
    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAVulkanLayer {
            explicitDrawableSize = other.explicitDrawableSize
            maximumDrawableCount = other.maximumDrawableCount
            displaySyncEnabled = other.displaySyncEnabled
            allowsNextDrawableTimeout = other.allowsNextDrawableTimeout
            device = other.device
            pixelFormat = other.pixelFormat
            colorspace = other.colorspace
            framebufferOnly = other.framebufferOnly
        }
    }

    /// A layer from an archive (the pool is not archived).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        Self.register(self)
    }

    /// The size in pixels of the drawables `nextDrawable()` makes: `bounds.size × contentsScale`
    /// (rounded) until set, as Apple's default. Drawables already handed out keep their size; pool
    /// buffers of another size are dropped once free.
    open var drawableSize: CGSize {
        get {
            explicitDrawableSize
                ?? CGSize(
                    width: (bounds.width * contentsScale).rounded(), height: (bounds.height * contentsScale).rounded())
        }
        set { pool.withLock { explicitDrawableSize = newValue } }
    }

    /// How many drawables the pool holds at most: 2 or 3 (the default), as Apple's; any other value
    /// is a precondition failure (Core Animation raises an exception).
    open var maximumDrawableCount: Int = 3 {
        didSet {
            precondition(
                (2...3).contains(maximumDrawableCount),
                "maximumDrawableCount must be 2 or 3, not \(maximumDrawableCount)")
            pool.withLock { pool.broadcast() }
        }
    }

    /// Whether presents wait their turn (true, the default: each shown for a frame, in order, as a
    /// display-synchronised `CAMetalLayer`) or a newer present replaces one still waiting (false:
    /// the replaced drawable is dropped). Lamina never tears either way.
    open var displaySyncEnabled = true

    /// Whether `nextDrawable()` gives up after one second with every drawable in use (true, the
    /// default, as Apple's) or waits as long as it takes (false).
    open var allowsNextDrawableTimeout = true

    /// The app's Vulkan device the drawables are made on (Apple's `device`); nil (the default):
    /// drawables are `IOSurface`s written on the CPU. Free drawables made for another device or
    /// format are dropped.
    open var device: CAVulkanDevice?

    /// The format of Vulkan-device drawables (Apple's `pixelFormat`; its default `.bgra8Unorm` is
    /// `VK_FORMAT_B8G8R8A8_UNORM`). One of `DrawableFormat.allowed`: B8G8R8A8 and R8G8B8A8 UNORM and
    /// SRGB, A2B10G10R10_UNORM_PACK32, R16G16B16A16_SFLOAT; another is a precondition failure, as
    /// Apple raises for a format a layer cannot show. The server shows only those it lists
    /// (`SurfaceCapabilities.drawableFormats`). CPU drawables are always BGRA8.
    open var pixelFormat: VkFormat = VK_FORMAT_B8G8R8A8_UNORM {
        didSet {
            precondition(
                DrawableFormat.allowed.contains(pixelFormat.rawValue),
                "CAVulkanLayer.pixelFormat \(pixelFormat.rawValue) is not one of \(DrawableFormat.allowed)")
        }
    }

    /// The colour space of the drawables' pixels (Apple's `colorspace`, default nil). Kept for
    /// source compatibility; the server shows the values as they are (docs/apple-differences.md).
    open var colorspace: CGColorSpace?

    /// Whether the app only renders into the drawables (true, the default, as Apple's): their images
    /// have colour-attachment, transfer-destination and sampled usage. False adds transfer-source and
    /// storage usage, for apps that copy from or compute into them.
    open var framebufferOnly = true

    /// The next drawable of the pool: a free one of `drawableSize`, or a new one while the pool holds
    /// fewer than `maximumDrawableCount`; otherwise it waits for one to come back, at most one second
    /// when `allowsNextDrawableTimeout` is set, and returns nil then. Nil too for an empty
    /// `drawableSize` or one over 16,384 pixels a side.
    open func nextDrawable() -> CAVulkanDrawable? {
        if let device { return nextDeviceDrawable(on: device) }
        let size = drawableSize
        guard size.width.isFinite, size.height.isFinite else { return nil }
        let (width, height) = (Int(size.width), Int(size.height))
        guard (1...16384).contains(width), (1...16384).contains(height) else { return nil }
        // Without the timeout it waits with no deadline (Foundation's wait(until: .distantFuture) traps
        // on Linux).
        let deadline = allowsNextDrawableTimeout ? Date().addingTimeInterval(1) : nil
        pool.lock()
        defer { pool.unlock() }
        while true {
            // Free buffers of another size are not reused.
            for i in slots.indices where !slotInUse[i] {
                if let s = slots[i], s.width != width || s.height != height { slots[i] = nil }
            }
            if let i = slots.indices.first(where: { !slotInUse[$0] && slots[$0] != nil }) {
                return handOut(slot: i)
            }
            if slots.compactMap({ $0 }).count < maximumDrawableCount {
                let properties: [IOSurfacePropertyKey: Any] = [.width: width, .height: height, .name: "drawable"]
                guard let surface = IOSurface(properties: properties) else { return nil }
                if let i = slots.firstIndex(where: { $0 == nil }) {
                    slots[i] = surface
                    return handOut(slot: i)
                }
                slots.append(surface)
                slotInUse.append(false)
                return handOut(slot: slots.count - 1)
            }
            if let deadline {
                guard pool.wait(until: deadline) else { return nil }
            } else {
                pool.wait()
            }
        }
    }

    /// Marks slot `i` in use and makes its drawable (the pool's lock is held).
    private func handOut(slot i: Int) -> CAVulkanDrawable {
        slotInUse[i] = true
        lastDrawableID += 1
        return CAVulkanDrawable(layer: self, surface: slots[i]!, drawableID: lastDrawableID, slot: i)
    }

    /// A drawable object went away (the app and the pool let go of it): its slot is free again.
    func drawableReleased(slot: Int, presented: Bool) {
        pool.withLock {
            if slot < slotInUse.count { slotInUse[slot] = false }
            pool.broadcast()
        }
    }

    /// `present()`: queues the drawable (replacing a waiting one without display sync) and commits
    /// the next when none is waiting for its frame.
    func enqueue(_ drawable: CAVulkanDrawable) {
        var dropped: [CAVulkanDrawable] = []
        pool.withLock {
            if !displaySyncEnabled { dropped = waiting.filter { $0 !== drawable } }
            if !displaySyncEnabled { waiting = [] }
            waiting.append(drawable)
        }
        for d in dropped { d.finish(at: 0) }
        dropped = []
        commitNext()
    }

    /// Commits the first waiting drawable as the layer's contents, unless one is committed and not
    /// yet presented; remembers the commit's serial to learn when a frame showed it.
    private func commitNext() {
        pool.lock()
        guard committed == nil, !committing, !waiting.isEmpty else {
            pool.unlock()
            return
        }
        let next = waiting.removeFirst()
        committing = true
        pool.unlock()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        contents = next.contentsObject
        CATransaction.commit()
        CATransaction.flush()
        CATransaction.lock()
        let context = CAContext.liveContexts().first { $0.sent[layerID] != nil }
        let serial = context.map { $0.nextSerial - 1 } ?? 0
        CATransaction.unlock()
        pool.lock()
        committing = false
        if let context, serial > 0 {
            committed = (next, context, serial)
            pool.unlock()
            return
        }
        pool.unlock()
        // Shown on no display: dropped.
        next.finish(at: 0)
        commitNext()
    }

    /// `commitPresented(serial, time)` reached `context`: the layer whose committed drawable that
    /// frame shows has it on screen now; the one it replaced goes back once the app lets go of it.
    private func presented(serial: UInt64, time: Double, in context: CAContext) {
        pool.lock()
        guard let current = committed, current.context === context, serial >= current.serial else {
            pool.unlock()
            return
        }
        var replaced = onscreen
        onscreen = current.drawable
        committed = nil
        pool.unlock()
        current.drawable.finish(at: time)
        replaced = nil
        withExtendedLifetime(replaced) {}
        let box = WeakVulkanLayer(layer: self)
        Self.presentQueue.async { box.layer?.commitNext() }
    }

    private static func register(_ layer: CAVulkanLayer) {
        registryLock.withLock {
            layers.removeAll { $0.layer == nil }
            layers.append(WeakVulkanLayer(layer: layer))
        }
    }

    /// Tells every live layer that `context`'s commits up to `serial` reached a frame at `time`.
    static func commitPresented(serial: UInt64, time: Double, in context: CAContext) {
        let live = registryLock.withLock { layers.compactMap(\.layer) }
        for layer in live { layer.presented(serial: serial, time: time, in: context) }
    }
}
