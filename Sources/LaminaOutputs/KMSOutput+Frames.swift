import CDRM
import Glibc
import LaminaServer

extension KMSOutput {
    /// Renders `list`, copies it into the buffer not on screen (after the flip in flight, if any,
    /// lands) and commits it: a mode set for the first frame and after a failure, else a page flip.
    /// Each commit is tested first. Throws the failing call; the screen is unchanged then. While the
    /// connector is disconnected the frame is kept in the buffer, to be shown when it comes back.
    public func present(_ list: DisplayList) throws {
        try renderer.render(list, into: target)
        let bitmap = try renderer.readPixels(target)
        try device.lock.withLock { () throws in
            if pending != nil && !waitForFlipLocked(timeout: 1) {
                // A flip that never completes: assume it lost, and set the mode again next time.
                pending = nil
                needsModeset = true
                throw KMSError(call: "drmHandleEvent", detail: "no page-flip event within 1 s on CRTC \(crtc)")
            }
            if let seat = device.seat {
                guard seat.isActive else {
                    needsModeset = true
                    throw KMSError(call: "libseat", detail: "seat \(seat.name) is disabled (another session has it)")
                }
                if seat.generation != seatGeneration {
                    seatGeneration = seat.generation
                    needsModeset = true
                }
            }
            let back = shown.map { 1 - $0 } ?? 0
            buffers[back].copy(bitmap.pixels, stride: bitmap.stride)
            guard isConnected else {
                // Nothing to show it on: it is shown when the connector comes back.
                shown = back
                return
            }
            let plan =
                needsModeset
                ? KMSAtomicPlan.modeset(
                    connector: connector, crtc: crtc, plane: plane, modeBlob: modeBlob,
                    framebuffer: buffers[back].framebuffer, width: mode.width, height: mode.height)
                : KMSAtomicPlan.flip(plane: plane, framebuffer: buffers[back].framebuffer)
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
        }
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

    /// Reads the connector's state after a hot-plug event and follows it: the CRTC off when it was
    /// disconnected (or lost the output's mode), the last frame shown again with a mode set when it
    /// came back. Failures are logged. Called with `device.lock` held, on the loop's thread.
    func updateConnection() {
        guard let info = drmModeGetConnectorCurrent(device.fileDescriptor, connector) else {
            logger.error(
                "KMS connector unreadable", metadata: ["call": "drmModeGetConnectorCurrent", "errno": "\(errno)"])
            return
        }
        let modes = UnsafeBufferPointer(start: info.pointee.modes, count: Int(info.pointee.count_modes))
        let hasMode = modes.contains {
            $0.hdisplay == modeInfo.hdisplay && $0.vdisplay == modeInfo.vdisplay && $0.clock == modeInfo.clock
        }
        let connected = info.pointee.connection == DRM_MODE_CONNECTED && hasMode
        drmModeFreeConnector(info)
        guard connected != isConnected else { return }
        isConnected = connected
        if pending != nil { _ = waitForFlipLocked(timeout: 0.2) }
        pending = nil
        needsModeset = true
        if !connected {
            logger.notice(
                "KMS connector disconnected: the display stays, dark", metadata: ["connector": "\(connectorName)"])
            do {
                try device.commit(
                    .disable(connector: connector, crtc: crtc, plane: plane), objectTypes: objectTypes, userData: nil)
            } catch {
                logger.error("KMS connector off failed", metadata: ["error": "\(error)"])
            }
            return
        }
        logger.notice("KMS connector reconnected", metadata: ["connector": "\(connectorName)", "mode": "\(mode)"])
        guard let shown else { return }
        let plan = KMSAtomicPlan.modeset(
            connector: connector, crtc: crtc, plane: plane, modeBlob: modeBlob,
            framebuffer: buffers[shown].framebuffer, width: mode.width, height: mode.height)
        flipRecord.pointee = CDRMFlip()
        do {
            try device.commit(plan, objectTypes: objectTypes, userData: UnsafeMutableRawPointer(flipRecord))
            needsModeset = false
            pending = shown
        } catch {
            logger.error("KMS mode set after reconnection failed", metadata: ["error": "\(error)"])
        }
    }
}
