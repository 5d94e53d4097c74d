import Foundation
import Testing

@testable import LaminaCore

/// The start tables of the named timing curves (`CAMediaTimingFunction.StartTable`).
struct TimingStartTableTests {
    /// The named curves' start tables (`CAMediaTimingFunction.StartTable`) against the solve from
    /// s = t they shortcut: both run Newton to the same root, so the values agree to a few units in
    /// the last place (held to 1e-14 here; the solve itself is documented accurate to 1e-6); other
    /// curves have no table and give the solve's values bit for bit.
    @Test(arguments: [
        CAMediaTimingFunctionName.easeIn, .easeOut, .easeInEaseOut, .default,
    ])
    func startTablesGiveTheValuesOfTheSolveFromLinearStart(_ name: CAMediaTimingFunctionName) {
        let f = CAMediaTimingFunction(name: name)
        #expect(f.hasStartTable)
        var g = AnimationEvaluationTests.Generator(state: 99)
        var worst = 0.0
        for i in 0..<20_000 {
            let t = i < 1000 ? Double(i) / 1000 : Double.random(in: 0...1, using: &g)
            worst = max(worst, abs(f.evaluate(t) - f.evaluateFromLinearStart(t)))
        }
        #expect(worst <= 1e-14, "\(name.rawValue): worst difference \(worst)")
        let other = CAMediaTimingFunction(controlPoints: 0.3, -0.6, 0.7, 1.6)
        #expect(!other.hasStartTable)
        for _ in 0..<2000 {
            let t = Double.random(in: 0...1, using: &g)
            #expect(other.evaluate(t).bitPattern == other.evaluateFromLinearStart(t).bitPattern)
        }
    }
}
