import LaminaOutputs
import Testing

/// The nearest-rank percentile behind the KMS output's frame-to-flip latency line (docs/kms.md): the
/// smallest value with at least that fraction of the values at or below it.
@Suite struct KMSLatencyTests {
    @Test func nearestRankPercentiles() {
        let values: [Double] = [0.05, 0.01, 0.04, 0.02, 0.03, 0.10, 0.06, 0.09, 0.07, 0.08]
        #expect(KMSOutput.percentile(0.5, of: values) == 0.05)
        #expect(KMSOutput.percentile(0.9, of: values) == 0.09)
        #expect(KMSOutput.percentile(1, of: values) == 0.10)
        #expect(KMSOutput.percentile(0, of: values) == 0.01)
        #expect(KMSOutput.percentile(0.5, of: [0.2]) == 0.2)
        #expect(KMSOutput.percentile(0.5, of: []) == nil)
    }
}
