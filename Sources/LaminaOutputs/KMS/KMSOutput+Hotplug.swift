import CDRM
import Glibc

extension KMSOutput {
    /// Whether the connector went away (`updateConnection`): the server closes the display. Read on
    /// the loop's thread.
    public var isClosed: Bool { device.lock.withLock { closed } }

    /// Reads the connector's state after a hot-plug event and follows it: when it was disconnected
    /// (or lost the output's mode) the CRTC is turned off, the buffers are freed and the output closes
    /// for good (a connector
    /// that comes back is a new output). Failures are logged. Called with `device.lock` held, on the
    /// loop's thread.
    func updateConnection() {
        guard !closed else { return }
        guard let info = drmModeGetConnectorCurrent(device.fileDescriptor, connectorID) else {
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
        guard !connected else { return }
        isConnected = false
        if pending != nil { _ = waitForFlipLocked(timeout: 0.2) }
        pending = nil
        needsModeset = true
        closed = true
        logger.notice(
            "KMS connector disconnected: its display closes", metadata: ["connector": "\(connectorName)"])
        do {
            try device.commit(
                .disable(connector: connectorID, crtc: crtc, plane: plane), objectTypes: objectTypes, userData: nil)
        } catch {
            logger.error("KMS connector off failed", metadata: ["error": "\(error)"])
        }
        // Nothing scans them out now: give the buffers (and the renderer's imports) back.
        scanout = .released
        shown = nil
    }

    /// Follows the seat when it was enabled or disabled since generation `seatGeneration`: while it
    /// is away (another session has the device) nothing is committed and frames stay in the buffers;
    /// when it comes back (even when it went and came back between two looks) the last frame is shown
    /// again with a mode set. Called with `device.lock` held, on the loop's thread.
    func followSeat(generation: Int, active: Bool) {
        guard generation != seatGeneration, !closed else { return }
        seatGeneration = generation
        seatActive = active
        // A flip in flight when the seat went may never report; the next commit sets the mode anyway.
        pending = nil
        needsModeset = true
        logger.notice(
            active ? "KMS seat back: showing the display again" : "KMS seat away: the display is paused",
            metadata: ["connector": "\(connectorName)"])
        if active && isConnected { showAgain() }
    }

    /// Shows the buffer drawn last with a mode set (after the seat came back), so
    /// the display shows its frame again without waiting for the server to draw one. Logs a failure;
    /// the next frame then sets the mode.
    func showAgain() {
        guard let shown, let framebuffer = scanout.framebuffer(shown) else { return }
        let plan = KMSAtomicPlan.modeset(
            connector: connectorID, crtc: crtc, plane: plane, modeBlob: modeBlob,
            framebuffer: framebuffer, width: mode.width, height: mode.height)
        flipRecord.pointee = CDRMFlip()
        do {
            try device.commit(plan, objectTypes: objectTypes, userData: UnsafeMutableRawPointer(flipRecord))
            needsModeset = false
            pending = shown
            pendingFrameStart = nil
            pendingCommitTime = nil
        } catch {
            logger.error("KMS mode set to show the display again failed", metadata: ["error": "\(error)"])
        }
    }
}
