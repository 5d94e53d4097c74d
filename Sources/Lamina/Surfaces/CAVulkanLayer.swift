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
/// Presenting makes the drawable the layer's `contents` in a transaction of its own, sent at once
/// (with `presentsWithTransaction`, in the current transaction instead). With `displaySyncEnabled`
/// (the default) drawables are shown in the order presented, each in a frame of its own: the next is
/// committed once the server has said a frame showed the one before (`surfacePresented`). Without
/// it, a drawable presented while another waits replaces it, and the replaced one is dropped
/// (`presentedTime` 0). A drawable returns to the pool once the app holds no reference to it and the
/// server has said that no frame uses it any more (`surfaceReleased`). The pool's surfaces stay
/// registered with the server while the pool keeps them. Without a `device` the drawables are
/// `IOSurface`s written on the CPU; with one, they are images the app renders on its own Vulkan
/// device (`CAVulkanLayer+Device.swift`, docs/surfaces.md).
open class CAVulkanLayer: CALayer {
    /// When a present wants its drawable shown.
    enum PresentTarget {
        /// At the first frame the server draws after the commit.
        case now
        /// At the first frame at or after this media time.
        case at(CFTimeInterval)
        /// Once the drawable on screen has been shown this long (from its `presentedTime`).
        case afterMinimumDuration(CFTimeInterval)
    }

    /// A drawable committed and waiting for the server to say a frame showed it.
    struct Committed {
        var drawable: CAVulkanDrawable
        var context: CAContext
        var serial: UInt64
        /// Whether it waits for a media time (a `present(at:)`), so that the frame presenting its
        /// commit need not show it.
        var timed: Bool
        /// The media time a timed present waits for (nil for a present at once).
        var start: CFTimeInterval?
    }

    /// The pool: slots, the presents waiting, the one committed and the one on screen.
    let pool = NSCondition()
    var slots: [IOSurface?] = []
    /// Whether the slot's drawable object is alive (held by the app or the pool's queue).
    var slotInUse: [Bool] = []
    /// Whether a frame showed the slot's surface and the server has not said it is done with it.
    var slotAwaitingRelease: [Bool] = []
    /// The context that keeps the slot's surface registered (one use of it), once known.
    var slotPinnedIn: [WeakContext] = []
    var waiting: [(drawable: CAVulkanDrawable, target: PresentTarget)] = []
    var committed: Committed?
    var committing = false
    /// Presented feedback that arrived while the commit of its drawable was being sent.
    var earlyPresented: [UInt64: CFTimeInterval] = [:]
    /// Drawables presented with a transaction, waiting for a frame to show them, with the context
    /// and serial of the commit expected to carry them (nil before the layer was first sent).
    var transactionPresents: [(drawable: CAVulkanDrawable, context: WeakContext, serial: UInt64)] = []
    /// Drawables presented in an explicit transaction still open on their thread, by its hold: they
    /// join `transactionPresents` at its outermost commit, with the serial of the commit that sent
    /// them (another thread's commit before it does not carry them).
    var heldPresents: [(drawable: CAVulkanDrawable, context: WeakContext, hold: TransactionHold)] = []
    var onscreen: CAVulkanDrawable?
    /// How many `surfaceReleased` each pool surface got, by id.
    var releaseCounts: [UInt64: Int] = [:]
    /// The pool's surfaces and device images the server refused (`surfaceRefused`): dropped once
    /// free, never handed out again.
    var refusedSurfaces: Set<UInt64> = []
    /// Refusals that arrived while the commit of their drawable was being sent.
    var earlyRefused: Set<UInt64> = []
    /// Set while `present()` assigns `contents` in the app's transaction: no implicit animation.
    var assigningInTransaction = false
    var lastDrawableID = 0
    /// The pool's images when the layer has a `device` (the same slots as `slotInUse`).
    var deviceSlots: [VulkanDrawableImage?] = []
    /// The pool's device images a frame showed and the server has not said it is done with (their
    /// ids): not handed out again until it has (`surfaceReleased`).
    var deviceImagesAwaitingRelease: Set<UInt64> = []
    /// The context that keeps each pool device image registered (one use of it), by image id.
    var devicePins: [UInt64: WeakContext] = [:]
    /// The device the pool's images were made on and the verdict of its compatibility check.
    var checkedDevice: (device: CAVulkanDevice, format: UInt32, compatible: Bool)?
    private var explicitDrawableSize: CGSize?
    static let presentQueue = DispatchQueue(label: "lamina-vulkan-layer-present")
    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var layers: [WeakVulkanLayer] = []
    nonisolated(unsafe) private static var poolSurfaceIDs: Set<UInt64> = []

    struct WeakVulkanLayer: @unchecked Sendable {
        weak var layer: CAVulkanLayer?
    }

    struct WeakContext {
        weak var context: CAContext?
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
            presentsWithTransaction = other.presentsWithTransaction
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

    deinit {
        for i in slots.indices { dropSlot(i) }
        for (id, pin) in devicePins { unpinDeviceImage(id, from: pin.context) }
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

    /// Whether `present()` makes the drawable the layer's contents in the current transaction, shown
    /// in the same frame as the transaction's other changes (true), or at once in a transaction of
    /// its own (false, the default), as Apple's `presentsWithTransaction`.
    open var presentsWithTransaction = false

    /// No implicit animation for the contents a `present()` assigns in the app's transaction.
    open override func action(forKey event: String) -> (any CAAction)? {
        if event == "contents", pool.withLock({ assigningInTransaction }) { return nil }
        return super.action(forKey: event)
    }

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
    /// `drawableSize` or one over 16,384 pixels a side. A buffer is free once its drawable object is
    /// gone and the server has said no frame samples it (`surfaceReleased`).
    open func nextDrawable() -> CAVulkanDrawable? {
        if let device { return nextDeviceDrawable(on: device) }
        let size = drawableSize
        guard size.width.isFinite, size.height.isFinite else { return nil }
        let (width, height) = (Int(size.width), Int(size.height))
        guard (1...16384).contains(width), (1...16384).contains(height) else { return nil }
        // Without the timeout it waits with no deadline (Foundation's wait(until: .distantFuture) traps
        // on Linux).
        let deadline = allowsNextDrawableTimeout ? Date().addingTimeInterval(1) : nil
        var dropped: [Int] = []
        defer { for i in dropped { dropSlot(i) } }
        pool.lock()
        defer { pool.unlock() }
        while true {
            let free = slots.indices.filter { !slotInUse[$0] && !slotAwaitingRelease[$0] && slots[$0] != nil }
            // Free buffers of another size are not reused: dropped (unregistered) once free.
            for i in free
            where slots[i]!.width != width || slots[i]!.height != height
                || refusedSurfaces.contains(slots[i]!.contentsID)
            {
                dropped.append(i)
                slotInUse[i] = true
            }
            if let i = free.first(where: { !dropped.contains($0) }) { return handOut(slot: i) }
            let kept = slots.indices.filter { slots[$0] != nil && !dropped.contains($0) }.count
            if kept < maximumDrawableCount {
                let properties: [IOSurfacePropertyKey: Any] = [.width: width, .height: height, .name: "drawable"]
                guard let surface = IOSurface(properties: properties) else { return nil }
                Self.registryLock.withLock { _ = Self.poolSurfaceIDs.insert(IOSurfaceRegistry.remember(surface)) }
                if let i = slots.firstIndex(where: { $0 == nil }) {
                    slots[i] = surface
                    slotAwaitingRelease[i] = false
                    slotPinnedIn[i] = WeakContext()
                    return handOut(slot: i)
                }
                slots.append(surface)
                slotInUse.append(false)
                slotAwaitingRelease.append(false)
                slotPinnedIn.append(WeakContext())
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

    /// A drawable object went away (the app and the pool let go of it): its slot is free again once
    /// the server is done with its surface.
    func drawableReleased(slot: Int, presented: Bool) {
        pool.withLock {
            if slot < slotInUse.count { slotInUse[slot] = false }
            pool.broadcast()
        }
    }

    /// `present()` and its timed forms: queues the drawable (replacing a waiting one without display
    /// sync) and commits the next when none is waiting for its frame; with `presentsWithTransaction`,
    /// assigns it to `contents` in the current transaction instead.
    func enqueue(_ drawable: CAVulkanDrawable, target: PresentTarget = .now) {
        if presentsWithTransaction, case .now = target {
            return presentInTransaction(drawable)
        }
        var dropped: [CAVulkanDrawable] = []
        pool.withLock {
            if !displaySyncEnabled {
                dropped = waiting.map(\.drawable).filter { $0 !== drawable }
                waiting = []
            }
            waiting.append((drawable, target))
        }
        for d in dropped { d.finish(at: 0) }
        dropped = []
        commitNext()
    }

    private static func register(_ layer: CAVulkanLayer) {
        registryLock.withLock {
            layers.removeAll { $0.layer == nil }
            layers.append(WeakVulkanLayer(layer: layer))
        }
    }

    /// The live layers.
    static var liveLayers: [CAVulkanLayer] { registryLock.withLock { layers.compactMap(\.layer) } }

    /// Whether surface `id` is a pool's buffer, whose registration asks for the server's feedback.
    static func isPoolSurface(_ id: UInt64) -> Bool { registryLock.withLock { poolSurfaceIDs.contains(id) } }

    /// Forgets that surface `id` is a pool's buffer.
    static func forgetPoolSurface(_ id: UInt64) { _ = registryLock.withLock { poolSurfaceIDs.remove(id) } }
}
