import Foundation
import LaminaCore
import LaminaProtocol

/// Builds display lists and draws them on a thread of its own, so that the server's loop keeps
/// serving clients while a large scene is drawn: presented frames and captures alike.
///
/// The loop hands over the render trees as they are when the frame starts (trees are values, so this
/// costs one reference each) and learns the outcome from `takeFinished()` after the wake-up pipe
/// fires. Jobs run one at a time in the order they were started, so outputs are drawn to from this
/// thread only, never concurrently. The worker lets go of the trees before it reports a job
/// finished, so the loop's next change to a tree does not copy it.
final class FrameWorker: @unchecked Sendable {
    /// What to draw: the trees, and where and when they are shown.
    struct Scene: @unchecked Sendable {
        var trees: [RenderTree]
        /// The session id of each tree, whose imported images its layers' `contents` name.
        var sessions: [Int] = []
        /// The context id of each tree (host layers never show a context inside itself).
        var contextIds: [UInt32] = []
        /// The trees host layers may show, by context id.
        var exported: [UInt32: ExportedTree] = [:]
        /// For each tree whose animation bookkeeping this frame advances, its session's id (nil for
        /// the others, and for captures).
        var advancing: [Int?] = []
        var display: UInt32
        /// Which display with that number (`Display.instance`).
        var displayInstance = 0
        var width: Int
        var height: Int
        var clearColor: SIMD4<Float>
        var time: Double
        /// For a `captureLayer` request: the one layer drawn, of the scene's only tree (nil: the
        /// whole display).
        var subtree: Subtree?
    }

    /// One layer's subtree, drawn as `CALayer.render(in:)` draws it into the top-left
    /// `width`×`height` pixels of the display's scratch image, which are all the capture keeps.
    struct Subtree {
        var layer: LayerID
        var width: Int
        var height: Int
        var scale: Double
    }

    /// A finished job.
    enum Outcome {
        /// A frame of `display` (its `instance`) at `time` was presented, or failed with `error`; what
        /// advancing the animations of the scene's `advancing` trees to `time` found, by session id.
        /// `record` holds the frame's counters and CPU time (its `missedDeadline` is for the loop to say);
        /// `tiledViews` what the frame shows of tiled layers, by session id.
        case presented(
            display: UInt32, instance: Int, time: Double, error: (any Error)?,
            advancements: [Int: RenderTree.Advancement], record: FrameRecord, tiledViews: [Int: [TiledLayerView]])
        /// The GPU finished drawing presented frames: their times in milliseconds, for the frames drawn
        /// for `time` on display `display` (the `instance`th with that number).
        case gpuTimes([(display: UInt32, instance: Int, time: Double, milliseconds: Double)])
        /// Feedback on watched surfaces (`FrameWorker+SurfaceFeedback.swift`): reported before the
        /// `presented` of the frame that made it, or later for releases found by polling.
        case surfaceFeedback([SurfaceFeedbackEvent])
        /// A capture for the session `sessionID` was drawn and copied into shared memory.
        case captured(sessionID: Int, requestID: UInt64, time: Double, result: Result<CapturedFrame, any Error>)
    }

    /// A capture's pixels in shared memory, ready to be sent.
    struct CapturedFrame: @unchecked Sendable {
        var memory: SharedMemory
        var width: Int
        var height: Int
        var stride: Int
    }

    /// Holds a job's trees until the worker has built its display list, then lets go of them there.
    private final class Trees: @unchecked Sendable {
        var scene: Scene?
        init(_ scene: Scene) { self.scene = scene }
        func take() -> Scene {
            defer { scene = nil }
            return scene!
        }
    }

    /// An output, handed to the worker's thread; only the worker draws to it.
    private struct OutputHandle: @unchecked Sendable {
        let output: any Output
    }

    /// An image the renderer refused to import (its size is over the device's limit, its memory not
    /// what the device imports), for the loop to report to its client.
    struct ImportFailure {
        var session: Int
        var id: UInt64
        var error: any Error
        /// The error code the client is told: with `surfaceRefused` for a surface or device image, with
        /// the error it is disconnected for for an uploaded image.
        var code: ServerErrorCode = .invalidValue
        /// Whether `id` is a shared surface or device image (refused: the client stays), not an
        /// uploaded image.
        var isSurface = false
    }

    let queue = DispatchQueue(label: "lamina-frames")
    let lock = NSLock()
    private var finished: [Outcome] = []
    var importFailures: [ImportFailure] = []
    /// The sessions of the surface and device-image registrations imported (or refused) since the
    /// loop last looked, one entry per registration (under `lock`).
    var importsFinished: [Int] = []
    let wakeup: WakeupPipe
    /// The renderer that imports and frees clients' images (touched on the worker's thread only);
    /// nil: images are kept track of but never imported, so no layer draws contents.
    let renderer: (any Renderer)?
    /// The presented frames the GPU may still be drawing, by submission number (worker's thread only).
    private var framesOnGPU: [UInt64: (display: UInt32, instance: Int, time: Double)] = [:]
    /// Each session's imported images, by the client's image id (worker's thread only).
    var images: [Int: [UInt64: ContentsImage]] = [:]
    /// Each session's shared surfaces, by the client's id (worker's thread only).
    var surfaces: [Int: [UInt64: SurfaceEntry]] = [:]
    /// For each display, the revision of each surface its last presented frame drew (worker's
    /// thread only): a surface whose tree revision differs damages the instances sampling it.
    var drawnSurfaceRevisions: [DisplayKey: [SurfaceKey: UInt64]] = [:]
    /// Presented and release feedback on the surfaces whose clients asked for it (worker's thread only).
    var feedback = FeedbackState()
    /// Bytes copied out of each session's surfaces so far (under `lock`: the loop reads it).
    var surfaceBytesCopied: [Int: Int] = [:]
    /// Each display's damage tracker, by display number and `Display.instance` (worker's thread only).
    private var damage: [DisplayKey: DamageTracker] = [:]
    /// Each display's retained display list, patched frame to frame (worker's thread only).
    private var retained: [DisplayKey: RetainedDisplayList] = [:]

    /// A display, told apart from an earlier one with the same number.
    struct DisplayKey: Hashable {
        var display: UInt32
        var instance: Int
    }
    /// The rasters of shape layers' paths, shared by every client's trees (worker's thread only; nil
    /// without a renderer: shapes are then not drawn).
    private let shapes: ShapeRasterCache?

    /// A worker that wakes the server's loop through `wakeup` when a job is done, and imports clients'
    /// images and shape rasters with `renderer`.
    init(wakeup: WakeupPipe, renderer: (any Renderer)? = nil) {
        self.wakeup = wakeup
        self.renderer = renderer
        shapes = renderer.map { ShapeRasterCache(renderer: $0) }
    }

    /// Queues work on the renderer's images; it is done before any frame or capture started later.
    func perform(_ job: ImageJob) {
        queue.async { [self] in
            switch job {
            case .upload(let session, let id, let pixels):
                guard let renderer else { return }
                do {
                    let image = try renderer.importImage(pixels, filtering: .mipmapped)
                    images[session, default: [:]][id] = ContentsImage(
                        image: image, width: pixels.width, height: pixels.height, mipmapped: true,
                        isOpaque: pixels.isOpaque)
                } catch {
                    lock.withLock { importFailures.append(ImportFailure(session: session, id: id, error: error)) }
                    wakeup.wake()
                }
            case .registerSurface(let session, let id, let surface):
                importSurface(surface, session: session, id: id)
                finishImport(of: session)
            case .surfaceFeedback(let session, let id, let enabled):
                setFeedback(session: session, id: id, enabled: enabled)
            case .registerDeviceImage(let session, let id, let image):
                importDeviceImage(image, session: session, id: id)
                finishImport(of: session)
            case .release(let session, let id):
                forgetSurface(session: session, id: id)
                guard let image = images[session]?.removeValue(forKey: id) else { return }
                try? renderer?.releaseImage(image.image)
            case .releaseAll(let session):
                forgetSurfaces(of: session)
                for image in (images.removeValue(forKey: session) ?? [:]).values {
                    try? renderer?.releaseImage(image.image)
                }
            }
        }
    }

    /// The surface and device-image registrations imported since the last call (their sessions, one
    /// entry each), and the imports that failed since then.
    func takeImports() -> (finished: [Int], failures: [ImportFailure]) {
        lock.withLock {
            defer {
                importsFinished.removeAll()
                importFailures.removeAll()
            }
            return (importsFinished, importFailures)
        }
    }

    /// Tells the loop that a surface or device-image registration of `session` was imported or
    /// refused (worker's thread): the client's later messages waited for it.
    private func finishImport(of session: Int) {
        lock.withLock { importsFinished.append(session) }
        wakeup.wake()
    }

    /// Starts building `scene`'s display list and presenting it on `output`.
    func present(_ scene: Scene, on output: any Output) {
        let sessions = scene.sessions
        let trees = Trees(scene)
        let handle = OutputHandle(output: output)
        let (display, instance, time) = (scene.display, scene.displayInstance, scene.time)
        queue.async { [self] in
            let start = DispatchTime.now().uptimeNanoseconds
            var advancements: [Int: RenderTree.Advancement] = [:]
            let key = DisplayKey(display: display, instance: instance)
            // A display given again under its number is another target: its predecessor's goes.
            for old in damage.keys where old.display == display && old.instance != instance { damage[old] = nil }
            for old in retained.keys where old.display == display && old.instance != instance { retained[old] = nil }
            for old in drawnSurfaceRevisions.keys where old.display == display && old.instance != instance {
                drawnSurfaceRevisions[old] = nil
            }
            forgetFeedback(ofReplaced: key)
            let scene = trees.take()
            let changedSurfaces = surfacesChanged(in: scene, since: key)
            let revisions = surfaceRevisions(of: scene)
            let candidates = discardCandidates(of: scene, revisions: revisions)
            var list = build(scene, advancing: &advancements, retained: &retained[key, default: .init()])
            // A patched frame says which instances it rewrote: its damage is theirs, found without
            // comparing every instance.
            list.damage = damage[key, default: DamageTracker()].damage(
                of: list, patch: retained[key]?.lastChanged, before: retained[key]?.lastReplaced)
            // A surface with a new frame looks the same in the list (same image, same place): the
            // instances sampling it are damaged too.
            Self.damage(&list, sampling: changedSurfaces)
            var failure: (any Error)?
            let drawnBefore = renderer?.lastRenderedFrame ?? 0
            do { try handle.output.present(list) } catch { failure = error }
            if failure == nil, let drawn = renderer?.lastRenderedFrame, drawn != drawnBefore {
                framesOnGPU[drawn] = (display, instance, time)
            }
            if failure != nil { damage[key]?.forget() }
            if failure == nil {
                let drawn = renderer.map { $0.lastRenderedFrame != drawnBefore ? $0.lastRenderedFrame : nil } ?? nil
                let events = surfaceFeedback(
                    of: list, revisions: revisions, candidates: candidates, display: key, time: time, frame: drawn)
                if !events.isEmpty { report(.surfaceFeedback(events), wake: false) }
            }
            // Only a frame the renderer drew has pass counters of its own.
            let counters =
                failure == nil && renderer.map({ $0.lastRenderedFrame != drawnBefore }) == true
                ? renderer!.lastRenderCounters : RenderCounters()
            let cpu = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            let record = FrameRecord(
                time: time, display: display, layersVisited: list.layersVisited, instancesEmitted: list.instanceCount,
                pixelsDrawn: list.pixelsToDraw, displayPixels: list.width * list.height,
                offscreenPasses: list.passes.count,
                cpuMilliseconds: cpu, gpuMilliseconds: nil, missedDeadline: false,
                offscreenPassesKept: counters.passesKept, rasterCacheHits: counters.rasterHits,
                rasterCacheMisses: counters.rasterMisses)
            var views: [Int: [TiledLayerView]] = [:]
            for view in list.tiledViews where view.tree < sessions.count {
                views[sessions[view.tree], default: []].append(view)
            }
            report(
                .presented(
                    display: display, instance: instance, time: time, error: failure, advancements: advancements,
                    record: record, tiledViews: views))
            reportGPUTimes()
        }
    }

    /// Starts drawing `scene` off to the side on `output` and copying its pixels into shared memory
    /// for the capture request `requestID` of session `sessionID`.
    func capture(_ scene: Scene, on output: any Output, sessionID: Int, requestID: UInt64) {
        let trees = Trees(scene)
        let handle = OutputHandle(output: output)
        let time = scene.time
        let subtree = scene.subtree
        queue.async { [self] in
            var advancements: [Int: RenderTree.Advancement] = [:]
            let list = build(trees.take(), advancing: &advancements)
            let result = Result { () throws -> CapturedFrame in
                var bitmap = try handle.output.capture(list)
                if let subtree { bitmap = Self.cropped(bitmap, width: subtree.width, height: subtree.height) }
                let memory = try SharedMemory.create(name: "lamina-capture", size: bitmap.pixels.count) { buffer in
                    bitmap.pixels.withUnsafeBytes { buffer.copyMemory(from: $0) }
                }
                return CapturedFrame(memory: memory, width: bitmap.width, height: bitmap.height, stride: bitmap.stride)
            }
            report(.captured(sessionID: sessionID, requestID: requestID, time: time, result: result))
        }
    }

    /// Runs `body` on the worker's thread once the jobs started so far have finished, and returns
    /// what it returns: work that uses the renderer (building an output's render targets) never
    /// runs beside a frame.
    func perform<T>(_ body: () throws -> T) rethrows -> T {
        try queue.sync(execute: body)
    }

    /// Returns once every job started so far has finished (their outcomes wait in `takeFinished()`).
    func waitUntilIdle() {
        queue.sync {}
    }

    /// Looks, on the worker's thread, for GPU times of presented frames the device has finished, and
    /// reports them waking the loop (a client asked for frame records: the last frame before a pause
    /// is timed by then, with no timer kept running).
    func collectGPUTimes() {
        queue.async { [self] in reportGPUTimes(wake: true) }
    }

    /// Reports the GPU times of the presented frames the device finished since the last report.
    /// Called on the worker's thread.
    private func reportGPUTimes(wake: Bool = false) {
        guard let renderer, !framesOnGPU.isEmpty else { return }
        guard let times = try? renderer.takeGPUTimes() else {
            // A device loss found here reaches the loop now, not at its next frame (`stopIfDeviceLost`).
            if renderer.deviceLoss != nil { wakeup.wake() }
            return
        }
        var finished: [(display: UInt32, instance: Int, time: Double, milliseconds: Double)] = []
        for (frame, milliseconds) in times.sorted(by: { $0.key < $1.key }) {
            guard let drawn = framesOnGPU.removeValue(forKey: frame) else { continue }
            finished.append((drawn.display, drawn.instance, drawn.time, milliseconds))
        }
        // A frame that finished without a reading (another submission reused its slot first) is
        // not waited for.
        if let newest = times.keys.max() { framesOnGPU = framesOnGPU.filter { $0.key > newest } }
        if framesOnGPU.count > 16 { framesOnGPU.removeAll() }
        // After a frame, GPU times do not wake the loop (an idle server stays asleep): the records are
        // filled in at its next turn (a frame, a message).
        if !finished.isEmpty { report(.gpuTimes(finished), wake: wake) }
    }

    /// The jobs finished since the last call, in the order they finished.
    func takeFinished() -> [Outcome] {
        lock.withLock {
            defer { finished.removeAll() }
            return finished
        }
    }

    /// Hands `outcome` to the loop, waking it unless `wake` is false (the loop takes it at its next
    /// turn, whatever wakes it).
    func report(_ outcome: Outcome, wake: Bool = true) {
        lock.withLock { finished.append(outcome) }
        if wake { wakeup.wake() }
    }

    /// The display list of `scene`, and in `advancements` what advancing its `advancing` trees'
    /// animations to its time finds. The scene is consumed: its trees are released here, on this
    /// thread, before the job reports.
    private func build(_ scene: consuming Scene, advancing advancements: inout [Int: RenderTree.Advancement])
        -> DisplayList
    {
        var unretained = RetainedDisplayList()
        return build(scene, advancing: &advancements, retained: &unretained, retaining: false)
    }

    /// `build(_:advancing:)` for a presented frame: the display's list is patched in `retained` where
    /// it can be (a capture, at any time, is built in full: `retaining` false).
    private func build(
        _ scene: consuming Scene, advancing advancements: inout [Int: RenderTree.Advancement],
        retained: inout RetainedDisplayList, retaining: Bool = true
    ) -> DisplayList {
        refreshSurfaces(of: scene)
        for (index, session) in scene.sessions.enumerated() where index < scene.trees.count {
            scene.trees[index].contentsImages = images[session] ?? [:]
        }
        for (index, session) in scene.advancing.enumerated() {
            guard let session, index < scene.trees.count else { continue }
            advancements[session] = scene.trees[index].advancement(to: scene.time)
        }
        for contextId in scene.exported.keys {
            let session = scene.exported[contextId]!.session
            scene.exported[contextId]!.tree.contentsImages = images[session] ?? [:]
            if scene.exported[contextId]!.advancing {
                advancements[session] = scene.exported[contextId]!.tree.advancement(to: scene.time)
            }
        }
        defer { shapes?.endFrame() }
        if let subtree = scene.subtree {
            return DisplayListBuilder.buildSubtree(
                tree: scene.trees[0], layer: subtree.layer, scale: subtree.scale, width: scene.width,
                height: scene.height,
                clipWidth: subtree.width, clipHeight: subtree.height, time: scene.time,
                contextId: scene.contextIds.first, exported: scene.exported, shapes: shapes)
        }
        guard retaining else {
            return DisplayListBuilder.build(
                trees: scene.trees, display: scene.display, width: scene.width, height: scene.height,
                clearColor: scene.clearColor, time: scene.time, contextIds: scene.contextIds, exported: scene.exported,
                shapes: shapes)
        }
        return retained.build(
            trees: scene.trees, display: scene.display, width: scene.width, height: scene.height,
            clearColor: scene.clearColor, time: scene.time, contextIds: scene.contextIds, exported: scene.exported,
            shapes: shapes)
    }

    /// The top-left `width`×`height` pixels of `bitmap` (no larger than it), rows packed.
    static func cropped(_ bitmap: Bitmap, width: Int, height: Int) -> Bitmap {
        let width = min(width, bitmap.width)
        let height = min(height, bitmap.height)
        let stride = width * 4
        var pixels = [UInt8](repeating: 0, count: stride * height)
        for row in 0..<height {
            let source = row * bitmap.stride
            pixels[(row * stride)..<(row * stride + stride)] = bitmap.pixels[source..<(source + stride)]
        }
        return Bitmap(width: width, height: height, stride: stride, pixels: pixels)
    }
}
