import Foundation
import Glibc
@testable import Lamina
import LaminaProtocol
import LaminaTesting
import Testing

/// A shared surface's new frame under a shadow cast by its alpha, and inside a rasterized layer, shown
/// by a real `laminad` (lavapipe, validation on): each capture after a marked frame shows the new
/// frame's shadow and raster, none kept from the frame before. `SurfaceShadowFrameTests` checks the
/// damage of such a frame pixel by pixel.
///
/// Apple, `CALayer.shadowPath`: "If you specify nil for this property, the layer uses its standard
/// shadow shape" (the alpha of its content, spec App. A); `shadowRadius` default 3, `shadowOffset`
/// (0, −3), `shadowOpacity` 0, `shadowColor` opaque black (developer.apple.com/documentation/quartzcore/calayer).
@Suite(.serialized) final class SurfaceShadowTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 96, height: 48)
    }

    deinit {
        let report = server.stop()
        if !report.validationMessages.isEmpty || report.exitStatus != 0 {
            print("laminad ended badly (status \(report.exitStatus)):\n\(report.log)")
        }
    }

    /// The surface's place: 16 × 16 at (8, 16). Its shadow: white, opacity 1, radius 2, moved 40 right.
    static let place = CGRect(x: 8, y: 16, width: 16, height: 16)
    static let offset: CGFloat = 40
    static let sigma = 2.0

    /// Writes opaque red into `columns` of `surface` and transparent black elsewhere (premultiplied).
    static func paint(_ surface: IOSurface, columns: Range<Int>) {
        #expect(surface.lock(options: [], seed: nil) == KERN_SUCCESS)
        for y in 0..<surface.height {
            let row = surface.baseAddress + y * surface.bytesPerRow
            for x in 0..<surface.width {
                let on: UInt8 = columns.contains(x) ? 255 : 0
                row.storeBytes(of: UInt32(on) << 16 | UInt32(on) << 24, toByteOffset: x * 4, as: UInt32.self)
            }
        }
        #expect(surface.unlock(options: [], seed: nil) == KERN_SUCCESS)
    }

    /// A black 96 × 48 root holding `layer` at `place`, with the white shadow, shown by `context`.
    static func show(_ layer: CALayer, shadow: Bool = true, in context: CAContext) throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 96, height: 48)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        layer.frame = place
        if shadow {
            layer.shadowOpacity = 1
            layer.shadowRadius = CGFloat(sigma)
            layer.shadowColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            layer.shadowOffset = CGSize(width: offset, height: 0)
        }
        root.addSublayer(layer)
        context.layer = root
        try context.synchronize()
    }

    /// The white shadow of the surface's opaque `columns` over black at (x, y), as a byte.
    static func shadow(_ x: Int, _ y: Int, columns: Range<Int>) -> Int {
        let rect = CGRect(
            x: place.minX + offset + CGFloat(columns.lowerBound), y: place.minY, width: CGFloat(columns.count),
            height: place.height)
        return PassShadowPixelTests.expected(x, y, rect: rect, hole: nil, sigma: sigma)
    }

    /// Expects the capture to show the surface's opaque `columns` red at its place and, when `shadowed`,
    /// their shadow right of it (every pixel from x = 30 on within 2/255; black without a shadow).
    static func expectFrame(
        _ context: CAContext, columns: Range<Int>, shadowed: Bool = true, _ note: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let capture = try context.capture()
        var worst = (difference: 0, x: 0, y: 0)
        for y in 0..<48 {
            for x in 30..<96 {
                let want = shadowed ? shadow(x, y, columns: columns) : 0
                let p = capture.pixel(x: x, y: y)
                for channel in [p.red, p.green, p.blue] where abs(Int(channel) - want) > worst.difference {
                    worst = (abs(Int(channel) - want), x, y)
                }
            }
        }
        #expect(worst.difference <= 2, "\(note): largest shadow error \(worst)", sourceLocation: sourceLocation)
        for column in stride(from: 1, to: 16, by: 2) {
            let p = capture.pixel(x: Int(place.minX) + column, y: 24)
            let red: UInt8 = columns.contains(column) ? 255 : 0
            #expect(
                p.red == red && p.green == 0 && p.blue == 0 && p.alpha == 255, "\(note): column \(column): \(p)",
                sourceLocation: sourceLocation)
        }
    }

    /// The pixels whose colour the change from `old` to `new` opaque columns moves: the 16 × 16 layer's
    /// and the shadow's where the two differ.
    static func changedPixels(_ old: Range<Int>, _ new: Range<Int>) -> Int {
        var count = 256
        for y in 0..<48 {
            for x in 30..<96 where shadow(x, y, columns: old) != shadow(x, y, columns: new) { count += 1 }
        }
        return count
    }

    @Test func aMarkedSurfaceFrameMovesTheShadowOfItsAlpha() throws {
        let context = try server.connect(name: "shadowed-surface")
        let surface = try #require(
            IOSurface(properties: [.width: 16, .height: 16, .pixelFormat: UInt32(0x4247_5241), .bytesPerElement: 4]))
        Self.paint(surface, columns: 0..<8)
        let layer = CALayer()
        layer.contents = surface
        try Self.show(layer, in: context)
        try Self.expectFrame(context, columns: 0..<8, "left half")
        let before = try SurfaceTests.settledFrameTime(context)
        Self.paint(surface, columns: 8..<16)
        layer.setContentsChanged()
        try context.synchronize()
        // The marked frame draws at least every pixel that changes (its damage covers the old and the
        // new shadow), and its capture shows the new shadow only.
        let marked = try SurfaceTests.framesPresented(after: before, on: context)
        let changed = Self.changedPixels(0..<8, 8..<16)
        #expect(
            marked.contains { $0.pixelsDrawn >= changed },
            "\(changed) pixels change; drawn \(marked.map(\.pixelsDrawn))")
        try Self.expectFrame(context, columns: 8..<16, "right half")
        try context.capture().writePNG(to: NSTemporaryDirectory() + "lamina-surface-shadow.png")
    }

    @Test func aVulkanLayersNextDrawableMovesTheShadowOfItsAlpha() throws {
        let context = try server.connect(name: "shadowed-drawable")
        let layer = CAVulkanLayer()
        try Self.show(layer, in: context)
        let log = VulkanLayerTests.Log()
        for (index, columns) in [0..<8, 8..<16, 4..<12].enumerated() {
            let drawable = try #require(layer.nextDrawable())
            Self.paint(drawable.surface, columns: columns)
            drawable.addPresentedHandler { log.add($0) }
            drawable.present()
            #expect(log.wait(for: index + 1).count == index + 1)
            try Self.expectFrame(context, columns: columns, "drawable \(index)")
        }
    }

    @Test func aRasterizedLayerHoldingASurfaceShowsItsNewFrame() throws {
        let context = try server.connect(name: "rasterized-surface")
        let surface = try #require(
            IOSurface(properties: [.width: 16, .height: 16, .pixelFormat: UInt32(0x4247_5241), .bytesPerElement: 4]))
        Self.paint(surface, columns: 0..<8)
        let holder = CALayer()
        holder.shouldRasterize = true
        let shown = CALayer()
        shown.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        shown.contents = surface
        holder.addSublayer(shown)
        try Self.show(holder, shadow: false, in: context)
        try Self.expectFrame(context, columns: 0..<8, shadowed: false, "left half")
        Self.paint(surface, columns: 8..<16)
        shown.setContentsChanged()
        try context.synchronize()
        try Self.expectFrame(context, columns: 8..<16, shadowed: false, "right half")
    }
}
