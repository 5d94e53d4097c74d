import LaminaOutputs
import Testing

/// The atomic commits the KMS output makes, as data, and how it restores the CRTC it took.
@Suite struct KMSAtomicPlanTests {
    typealias Assignment = KMSAtomicPlan.Assignment

    @Test func modesetSetsConnectorCrtcAndTheWholePlane() {
        let plan = KMSAtomicPlan.modeset(
            connector: 31, crtc: 41, plane: 51, modeBlob: 61, framebuffer: 71, width: 1280, height: 800)
        #expect(plan.flags == KMSAtomicPlan.allowModeset | KMSAtomicPlan.pageFlipEvent)
        #expect(plan.flags & KMSAtomicPlan.nonBlocking == 0)
        #expect(
            plan.assignments == [
                Assignment(object: 31, property: "CRTC_ID", value: 41),
                Assignment(object: 41, property: "MODE_ID", value: 61),
                Assignment(object: 41, property: "ACTIVE", value: 1),
                Assignment(object: 51, property: "FB_ID", value: 71),
                Assignment(object: 51, property: "CRTC_ID", value: 41),
                Assignment(object: 51, property: "SRC_X", value: 0),
                Assignment(object: 51, property: "SRC_Y", value: 0),
                Assignment(object: 51, property: "SRC_W", value: 1280 << 16),
                Assignment(object: 51, property: "SRC_H", value: 800 << 16),
                Assignment(object: 51, property: "CRTC_X", value: 0),
                Assignment(object: 51, property: "CRTC_Y", value: 0),
                Assignment(object: 51, property: "CRTC_W", value: 1280),
                Assignment(object: 51, property: "CRTC_H", value: 800),
            ])
    }

    @Test func flipChangesOnlyTheFramebufferWithoutBlocking() {
        let plan = KMSAtomicPlan.flip(plane: 51, framebuffer: 72)
        #expect(plan.assignments == [Assignment(object: 51, property: "FB_ID", value: 72)])
        #expect(plan.flags == KMSAtomicPlan.pageFlipEvent | KMSAtomicPlan.nonBlocking)
        #expect(plan.flags & KMSAtomicPlan.allowModeset == 0)
    }

    @Test func flagsAreTheKernelValues() {
        // drm_mode.h: DRM_MODE_PAGE_FLIP_EVENT 0x01, DRM_MODE_ATOMIC_TEST_ONLY 0x0100,
        // DRM_MODE_ATOMIC_NONBLOCK 0x0200, DRM_MODE_ATOMIC_ALLOW_MODESET 0x0400.
        #expect(KMSAtomicPlan.pageFlipEvent == 0x01)
        #expect(KMSAtomicPlan.testOnly == 0x0100)
        #expect(KMSAtomicPlan.nonBlocking == 0x0200)
        #expect(KMSAtomicPlan.allowModeset == 0x0400)
    }

    @Test func restoreReappliesTheFramebufferThatWasShown() {
        let saved = KMSSavedCrtc(crtc: 41, framebuffer: 90, x: 0, y: 16, modeValid: true)
        #expect(
            saved.restore(connector: 31, plane: 51) == .reapply(crtc: 41, framebuffer: 90, x: 0, y: 16, connector: 31))
    }

    @Test(arguments: [(UInt32(0), true), (UInt32(90), false), (UInt32(0), false)])
    func restoreTurnsOffACrtcThatWasOff(framebuffer: UInt32, modeValid: Bool) {
        let saved = KMSSavedCrtc(crtc: 41, framebuffer: framebuffer, x: 0, y: 0, modeValid: modeValid)
        let restore = saved.restore(connector: 31, plane: 51)
        #expect(restore == .disable(.disable(connector: 31, crtc: 41, plane: 51)))
        guard case .disable(let plan) = restore else { return }
        #expect(plan.flags == KMSAtomicPlan.allowModeset)
        #expect(plan.assignments.contains(Assignment(object: 41, property: "ACTIVE", value: 0)))
        #expect(plan.assignments.contains(Assignment(object: 51, property: "FB_ID", value: 0)))
        #expect(plan.assignments.contains(Assignment(object: 31, property: "CRTC_ID", value: 0)))
    }

    @Test func errorNamesTheCall() {
        let error = KMSError(call: "drmModeAtomicCommit(TEST_ONLY)", errno: 22, detail: "CRTC 41")
        #expect("\(error)" == "drmModeAtomicCommit(TEST_ONLY) failed: Invalid argument (errno 22): CRTC 41")
        #expect(
            "\(KMSError(call: "open /dev/dri/card*", detail: "no DRM device"))"
                == "open /dev/dri/card* failed: no DRM device")
    }
}
