import Foundation
import LaminaCore
import Testing

/// Sub-cells drawn through the Vulkan renderer: each particle of a cell emits the cell's own cells
/// (Apple's `CAEmitterCell.h`: "each particle emitted by the cell will act as an emitter for each of
/// the cell's sub-cells. The emission point is the current particle position"), and each sub-particle
/// is drawn with its own cell's contents and colour.
@Suite(.serialized) struct EmitterSubcellPixelTests {
    /// A parent cell without contents (it draws nothing), one birth a second at rest at (10, 50),
    /// whose sub-cell sends one orange 4×4 sprite a second along +x at 20 points a second. At 2.25 s
    /// the parents born at 0, 1 and 2 s have emitted children at 0, 1 and 2 s (some on the same spots):
    /// they are 45, 25 and 5 points along, at x 55, 35 and 15; between them the display is black.
    @Test func subcellsAreDrawnFromTheirParentParticles() throws {
        var child = EmitterPixelTests.spark(velocity: 20)
        child.color = RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        var parent = EmitterPixelTests.spark(velocity: 0)
        parent.contents = 0
        parent.cells = [child]
        let bitmap = try EmitterPixelTests.render(
            [parent], [.emitterPosition(CGPoint(x: 10, y: 50))], time: 2.25)
        for x in [55, 35, 15] {
            EmitterPixelTests.expectClose(
                EmitterPixelTests.pixel(bitmap, x, 50), [255, 128, 0, 255], "child at x \(x)")
        }
        for x in [25, 45, 60] {
            EmitterPixelTests.expectClose(EmitterPixelTests.pixel(bitmap, x, 50), [0, 0, 0, 255], "nothing at x \(x)")
        }
        // The parents sit at (10, 50) and have no contents: nothing is drawn there (the newest child
        // covers 13..<17).
        EmitterPixelTests.expectClose(EmitterPixelTests.pixel(bitmap, 10, 50), [0, 0, 0, 255], "no parent drawn")
    }
}
