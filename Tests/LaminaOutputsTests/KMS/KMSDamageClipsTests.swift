import LaminaOutputs
import Testing

/// The KMS plane's `FB_DAMAGE_CLIPS` in an atomic flip plan.
@Suite struct KMSDamageClipsTests {
    /// A flip with damage names the blob in the plane's `FB_DAMAGE_CLIPS`, after `FB_ID`; without,
    /// the plan is the plain flip (the whole plane damaged, as the kernel reads a missing property).
    @Test func aFlipCarriesItsDamageClips() {
        let plan = KMSAtomicPlan.flip(plane: 51, framebuffer: 72, damageClips: 9)
        #expect(plan.assignments.map(\.property) == ["FB_ID", "FB_DAMAGE_CLIPS"])
        #expect(plan.assignments.last?.object == 51)
        #expect(plan.damageClips == 9)
        #expect(plan.flags == KMSAtomicPlan.flip(plane: 51, framebuffer: 72).flags)
        #expect(KMSAtomicPlan.flip(plane: 51, framebuffer: 72).damageClips == nil)
    }
}
