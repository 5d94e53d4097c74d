import Foundation
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// A surface the server cannot take is refused by name and the layer keeps its last good frame
/// (docs/surfaces.md, "Refused surfaces"), through the `Lamina` library against a real `laminad`:
/// the client stays connected, a capture still shows the previous pixels, and a later good surface
/// shows.
@Suite(.serialized) final class SurfaceRefusalTests: VictimSuite {
    typealias Log = VulkanLayerTests.Log

    /// A 16×16 layer at (8, 8) in a context of its own.
    func layer(in context: CAContext) throws -> CALayer { try VulkanLayerTests.place(CALayer(), in: context) }

    /// Makes `surface` the layer's contents without an implicit animation, and waits for the server.
    func show(_ surface: IOSurface, in layer: CALayer, of context: CAContext) throws {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.contents = surface
        CATransaction.commit()
        try context.synchronize()
    }

    /// Waits up to 5 s for a `drawableRefused` diagnostic naming surface `id`.
    func refusal(of id: UInt64, in recorder: DiagnosticsRecorder) -> LaminaDiagnostic? {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let found = recorder.diagnostics.first {
                $0.kind == .drawableRefused && $0.message.contains("surface \(id) ")
            }
            if let found { return found }
            usleep(5_000)
        }
        return nil
    }

    @Test func aRefusedSurfaceLeavesTheLayerShowingItsLastGoodContents() throws {
        let recorder = DiagnosticsRecorder()
        defer { recorder.stop() }
        let context = try server.connect(name: "refused-contents")
        let layer = try layer(in: context)
        let red = try SurfaceTests.surface(16, 16, name: "refused-red", color: (255, 0, 0))
        try show(red, in: layer, of: context)
        try SurfaceTests.expectPixel(context, 12, 12, (255, 0, 0))
        // 8,200 pixels wide: Lamina's IOSurface takes it (up to 16,384 a side), the server's limit is
        // 8,192 a side (docs/protocol.md §11). A well-formed registration it cannot take.
        let wide = try SurfaceTests.surface(8200, 1, name: "refused-wide", color: (0, 255, 0))
        try show(wide, in: layer, of: context)
        let diagnostic = try #require(refusal(of: wide.contentsID, in: recorder), "\(recorder.diagnostics)")
        #expect(diagnostic.message.contains("invalidValue") && diagnostic.message.contains("8192"), "\(diagnostic)")
        // Still connected, the layer shows what it showed before.
        try SurfaceTests.expectPixel(context, 12, 12, (255, 0, 0))
        #expect(!recorder.diagnostics.contains { $0.kind == .serverError }, "\(recorder.diagnostics)")
        // A later good surface shows.
        let blue = try SurfaceTests.surface(16, 16, name: "refused-blue", color: (0, 0, 255))
        try show(blue, in: layer, of: context)
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
        #expect(try victim.statistics().contains { $0.name == "refused-contents" })
    }

    @Test func aRefusedDrawableIsNotPresentedAndTheLayerKeepsItsLastFrame() throws {
        let recorder = DiagnosticsRecorder()
        defer { recorder.stop() }
        let context = try server.connect(name: "refused-drawable")
        let layer = try VulkanLayerTests.place(CAVulkanLayer(), in: context)
        let log = Log()
        let good = try #require(layer.nextDrawable())
        SurfaceTests.fill(good.surface, (255, 0, 0))
        good.addPresentedHandler { log.add($0) }
        good.present()
        #expect(log.wait(for: 1).count == 1)
        // A drawable over the server's 8,192 pixels a side: its buffer's registration is refused.
        layer.drawableSize = CGSize(width: 8200, height: 1)
        let refused = try #require(layer.nextDrawable())
        SurfaceTests.fill(refused.surface, (0, 255, 0))
        refused.addPresentedHandler { log.add($0) }
        refused.present()
        let shown = log.wait(for: 2)
        // Apple: a drawable never presented has presentedTime 0 and its presented handler still runs
        // (developer.apple.com/documentation/metal/mtldrawable/presentedtime).
        #expect(shown.count == 2 && shown.last?.id == refused.drawableID && shown.last?.time == 0, "\(shown)")
        #expect(refusal(of: refused.surface.contentsID, in: recorder) != nil, "\(recorder.diagnostics)")
        try SurfaceTests.expectPixel(context, 12, 12, (255, 0, 0))
        // The next present of a size the server takes shows, and nothing waits behind the refusal.
        layer.drawableSize = CGSize(width: 16, height: 16)
        let next = try #require(layer.nextDrawable())
        SurfaceTests.fill(next.surface, (0, 0, 255))
        next.addPresentedHandler { log.add($0) }
        next.present()
        #expect(log.wait(for: 3).count == 3)
        #expect(next.presentedTime > 0)
        try SurfaceTests.expectPixel(context, 12, 12, (0, 0, 255))
    }
}
