// laminactl tree's lines for layer filters: each list as its filters' names with a blur's radius,
// the blend mode by name, nothing when a layer has none.
import Foundation
import LaminaCore
import LaminaProtocol
import Testing

@testable import LaminaServer

@Suite struct FilterTreeTests {
    @Test func theTreePrintsFiltersAndTheBlendMode() throws {
        let tree = try RenderTree().applying(
            [
                .createLayer(1), .createLayer(2),
                .set(
                    1,
                    .filters([
                        LayerFilter(filterName: "CIGaussianBlur", name: "blur", radius: 4),
                        LayerFilter(filterName: "CIPixellate"),
                    ])),
                .set(1, .backgroundFilters([LayerFilter(filterName: "CIGaussianBlur", name: "frost", radius: 12.5)])),
                .set(1, .compositingFilter(Double(LayerBlendMode.multiply.rawValue))),
                .setSublayers(1, [2]), .setRoot(display: 0, layer: 1),
            ], displayCount: 1)
        let text = TreeDescriber.describe([("client", tree)])
        #expect(
            text.contains("filters=blur(4),CIPixellate backgroundFilters=frost(12.5) compositingFilter=multiply"),
            "\(text)")
        // Layer 2 has none: its line names no filter.
        let second = try #require(text.split(separator: "\n").first { $0.contains("layer 2") }, "\(text)")
        #expect(!second.contains("filters") && !second.contains("compositingFilter"), "\(second)")
    }
}
