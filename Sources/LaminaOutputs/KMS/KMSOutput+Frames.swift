import CDRM
import Glibc
import LaminaServer

extension KMSOutput {
    /// Renders `list`, puts it into the buffer not on screen (after the flip in flight, if any, lands)
    /// and commits it: a mode set for the first frame and after a failure, else a page flip.
    /// The time it is called is the start of the frame's frame-to-flip latency.
    /// Each commit is tested first. Throws the failing call; the screen is unchanged then. While the
    /// connector is disconnected or the seat is away the frame is kept in the buffer, to be shown
    /// when it comes back.
    ///
    /// With imported buffers the renderer copies the frame into the buffer; with dumb buffers it is
    /// read back first and copied in by the CPU. When an imported copy fails the output moves to dumb
    /// buffers (logged) and shows the frame from those.
    public func present(_ list: DisplayList) throws {
        let start = Self.now()
        try renderer.render(list, into: target)
        let isDumb = device.lock.withLock { if case .dumb = scanout { true } else { false } }
        let bitmap = isDumb ? try renderer.readPixels(target) : nil
        try device.lock.withLock { () throws in
            if pending != nil && !waitForFlipLocked(timeout: 1) {
                // A flip that never completes: assume it lost, and set the mode again next time.
                pending = nil
                needsModeset = true
                throw KMSError(call: "drmHandleEvent", detail: "no page-flip event within 1 s on CRTC \(crtc)")
            }
            guard !closed else { return }
            bufferDamage.record(list.damage)
            var back = shown.map { 1 - $0 } ?? 0
            switch scanout {
            case .imported(let buffers, let path, let copier):
                do {
                    // Only what the back buffer lacks, as for dumb buffers below.
                    try buffers[back].fill(from: target, renderer: copier, region: bufferDamage.missing(in: back))
                } catch {
                    logger.error(
                        "KMS scan-out copy failed: moving to dumb buffers",
                        metadata: ["connector": "\(connectorName)", "path": "\(path)", "error": "\(error)"])
                    back = try moveToDumbBuffers(showing: bitmap)
                }
            case .dumb(let buffers):
                // Only what the back buffer lacks: the damage since the frame it holds.
                if let bitmap {
                    buffers[back].copy(bitmap.pixels, stride: bitmap.stride, region: bufferDamage.missing(in: back))
                }
            case .released:
                // The move to dumb buffers failed last time (the output is open): try again.
                back = try moveToDumbBuffers(showing: bitmap)
            }
            bufferDamage.filled(back)
            guard let framebuffer = scanout.framebuffer(back) else { return }
            guard isConnected && seatActive else {
                // Nothing to show it on, or the device is another session's: it is shown when the
                // connector or the seat comes back.
                shown = back
                return
            }
            let clips = needsModeset ? nil : try damageClips()
            let plan =
                needsModeset
                ? KMSAtomicPlan.modeset(
                    connector: connectorID, crtc: crtc, plane: plane, modeBlob: modeBlob,
                    framebuffer: framebuffer, width: mode.width, height: mode.height)
                : KMSAtomicPlan.flip(plane: plane, framebuffer: framebuffer, damageClips: clips)
            defer { if let blob = plan.damageClips { drmModeDestroyPropertyBlob(device.fileDescriptor, blob) } }
            flipRecord.pointee = CDRMFlip()
            do {
                try device.commit(plan, objectTypes: objectTypes, userData: UnsafeMutableRawPointer(flipRecord))
            } catch {
                needsModeset = true
                throw error
            }
            if needsModeset {
                logger.info("KMS mode set", metadata: ["connector": "\(connectorName)", "mode": "\(mode)"])
            }
            needsModeset = false
            pending = back
            pendingFrameStart = start
            pendingCommitTime = Self.now()
        }
    }

    /// A blob of the rectangles that differ between the buffer on screen and the newest frame, for the
    /// plane's `FB_DAMAGE_CLIPS`; nil (the whole plane is damaged) when the plane has no such property,
    /// nothing is on screen, the difference is unknown or empty, or it has more than 64 rectangles.
    /// Called with `device.lock` held.
    func damageClips() throws -> UInt32? {
        guard let shown, let region = bufferDamage.missing(in: shown), !region.isEmpty, region.count <= 64,
            device.hasProperty("FB_DAMAGE_CLIPS", of: plane, type: UInt32(DRM_MODE_OBJECT_PLANE))
        else { return nil }
        return try device.makeDamageBlob(region)
    }

    /// Replaces the scan-out buffers with two new dumb buffers and copies the frame drawn into `target`
    /// (`frame`, or read back now) into the first, whose index it returns; the next commit sets the
    /// mode. The old buffers go first, so the screen is dark until then. When the dumb buffers cannot
    /// be made the output has none (`released`), throws, and the next frame tries again. Called with
    /// `device.lock` held, on the frame worker.
    func moveToDumbBuffers(showing frame: Bitmap?) throws -> Int {
        scanout = .released
        shown = nil
        needsModeset = true
        let buffers = try (0..<2).map { _ in try KMSDumbBuffer(device: device, width: mode.width, height: mode.height) }
        let pixels = try frame ?? renderer.readPixels(target)
        scanout = .dumb(buffers)
        buffers[0].copy(pixels.pixels, stride: pixels.stride)
        bufferDamage.forgetBuffers()
        return 0
    }

    /// Renders `list` into the scratch target and reads it back; the screen is unchanged.
    public func capture(_ list: DisplayList) throws -> Bitmap {
        try renderer.render(list, into: scratch)
        return try renderer.readPixels(scratch)
    }

    /// Waits up to `timeout` seconds for the flip in flight to complete, reading the device's events.
    /// Called with `device.lock` held (released while waiting); returns whether no flip is in flight.
    func waitForFlipLocked(timeout: Double) -> Bool {
        let deadline = Self.now() + timeout
        while pending != nil {
            device.drainEvents()
            // The device reaches outputs weakly, so not this one while it is being released: take the
            // completion directly too.
            collectFlip()
            if pending == nil { break }
            let left = deadline - Self.now()
            if left <= 0 { return false }
            device.lock.unlock()
            // Short slices: the loop's thread may read the event first.
            var descriptor = pollfd(fd: device.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(min(left * 1000, 4).rounded(.up)))
            device.lock.lock()
        }
        return true
    }

    /// `CLOCK_MONOTONIC` in seconds: the media clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
