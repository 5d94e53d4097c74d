import Foundation
import LaminaTesting
import Testing

@testable import Lamina

/// A delegate that fills each tile with a colour made from its column and row, found from the
/// context's clip as E17 finds them (tile = floor(clip origin / tileSize)), and records the tiles it
/// drew. Called on the tile threads, several at once.
final class TileRecorder: NSObject, CALayerDelegate, @unchecked Sendable {
    let lock = NSLock()
    let tile: CGFloat
    private var drawn: [(column: Int, row: Int, clip: CGRect)] = []

    init(tile: CGFloat) { self.tile = tile }

    var tiles: Set<[Int]> { lock.withLock { Set(drawn.map { [$0.column, $0.row] }) } }
    var clips: [CGRect] { lock.withLock { drawn.map(\.clip) } }

    /// The colour of tile (column, row): red 30 × column, green 30 × row (both modulo 256), blue 200,
    /// in 8-bit steps.
    static func color(_ column: Int, _ row: Int) -> (Int, Int, Int) { (30 * column % 256, 30 * row % 256, 200) }

    func draw(_ layer: CALayer, in ctx: CGContext) {
        let clip = ctx.boundingBoxOfClipPath
        let column = Int((clip.minX / tile).rounded(.down))
        let row = Int((clip.minY / tile).rounded(.down))
        let (r, g, b) = Self.color(column, row)
        ctx.setFillColor(CGColor(red: CGFloat(r) / 255, green: CGFloat(g) / 255, blue: CGFloat(b) / 255, alpha: 1))
        ctx.fill(clip)
        lock.withLock { drawn.append((column, row, clip)) }
    }
}

/// `CATiledLayer` through a real laminad: the server says what the display shows of the layer and
/// the client draws just the tiles that cover it (issue 22, point 4; spec §3.7 and E17). Apple's
/// documented defaults: `tileSize` 256 × 256, `levelsOfDetail` 1, `levelsOfDetailBias` 0,
/// `fadeDuration()` 0.25 s (the CATiledLayer class reference).
@Suite final class TiledLayerTests: AnimationSuite {
    static var displaySize: CGSize { CGSize(width: 320, height: 240) }
    let server: TestServer

    init() throws {
        server = try TestServer(width: 320, height: 240)
    }

    deinit {
        server.stop()
    }

    /// Waits (at most 10 s) until `layer` has drawn `count` tiles since it was made and the commit
    /// of the last one is applied.
    func waitForTiles(_ layer: CATiledLayer, _ count: Int, _ context: CAContext) throws {
        let deadline = Date().addingTimeInterval(10)
        func drawn() -> Int {
            CATransaction.lock()
            defer { CATransaction.unlock() }
            return layer.tileStore.drawnCount
        }
        while drawn() < count, Date() < deadline { usleep(2_000) }
        #expect(drawn() == count)
        // A tile counts as drawn once installed, before its drawing thread commits the transaction
        // holding it: wait for every drawing to finish, so the flush below sends every tile (under a
        // full suite's load, a capture once went before the last tile's commit and missed it).
        CATiledLayer.tileQueue.sync(flags: .barrier) {}
        try context.synchronize()
    }

    @Test func defaultsAreApples() {
        let layer = CATiledLayer()
        #expect(layer.tileSize == CGSize(width: 256, height: 256))
        #expect(layer.levelsOfDetail == 1)
        #expect(layer.levelsOfDetailBias == 0)
        #expect(CATiledLayer.fadeDuration() == 0.25)
        #expect(CATiledLayer.defaultValue(forKey: "tileSize") as? CGSize == CGSize(width: 256, height: 256))
        #expect(layer.contents == nil)
    }

    /// E17: a 2048 × 2048 layer of 64 tiles. A 320 × 240 display showing its top-left corner needs
    /// two tiles (columns 0 and 1 of row 0); moved to show (300, 500)–(620, 740), four more.
    @Test func e17DrawsOnlyTheTilesTheDisplayShows() throws {
        let context = try server.connect()
        let recorder = TileRecorder(tile: 256)
        let tiled = CATiledLayer()
        tiled.delegate = recorder
        tiled.frame = CGRect(x: 0, y: 0, width: 2048, height: 2048)
        tiled.setNeedsDisplay()
        try makeScene(context, [tiled])
        try waitForTiles(tiled, 2, context)
        #expect(recorder.tiles == [[0, 0], [1, 0]])
        #expect(
            Set(recorder.clips) == [
                CGRect(x: 0, y: 0, width: 256, height: 256), CGRect(x: 256, y: 0, width: 256, height: 256),
            ])
        var image = try context.capture(at: CACurrentMediaTime() + 1)
        #expect(rgb(image, 10, 10) == TileRecorder.color(0, 0))
        #expect(rgb(image, 300, 230) == TileRecorder.color(1, 0))

        CATransaction.begin()
        CATransaction.setDisableActions(true)
        tiled.frame.origin = CGPoint(x: -300, y: -500)
        CATransaction.commit()
        try waitForTiles(tiled, 6, context)
        #expect(recorder.tiles == [[0, 0], [1, 0], [1, 1], [2, 1], [1, 2], [2, 2]])
        image = try context.capture(at: CACurrentMediaTime() + 1)
        // Display (0, 0) is layer point (300, 500): column 1, row 1.
        #expect(rgb(image, 0, 0) == TileRecorder.color(1, 1))
        #expect(rgb(image, 0, 239) == TileRecorder.color(1, 2))
        #expect(rgb(image, 319, 0) == TileRecorder.color(2, 1))
        #expect(server.stop().validationMessages.isEmpty)
    }

    /// The tiles together show what one backing store of the same drawing shows: a plain layer and
    /// a tiled layer of 32-pixel tiles with one delegate, side by side, agree pixel for pixel.
    @Test func tilesShowWhatABackingStoreShows() throws {
        final class Drawing: NSObject, CALayerDelegate, @unchecked Sendable {
            func draw(_ layer: CALayer, in ctx: CGContext) {
                ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
                ctx.fill(CGRect(x: 10, y: 10, width: 50, height: 20))
                ctx.setFillColor(CGColor(red: 0, green: 0.6, blue: 0, alpha: 1))
                ctx.fill(CGRect(x: 70, y: 60, width: 60, height: 30))
            }
        }
        let context = try server.connect()
        let drawing = Drawing()
        let plain = CALayer()
        plain.frame = CGRect(x: 0, y: 0, width: 150, height: 100)
        plain.delegate = drawing
        plain.setNeedsDisplay()
        let tiled = CATiledLayer()
        tiled.tileSize = CGSize(width: 32, height: 32)
        tiled.frame = CGRect(x: 160, y: 0, width: 150, height: 100)
        tiled.delegate = drawing
        tiled.setNeedsDisplay()
        try makeScene(context, [plain, tiled])
        // 5 columns (150 / 32, rounded up) × 4 rows (100 / 32).
        try waitForTiles(tiled, 20, context)
        let image = try context.capture(at: CACurrentMediaTime() + 1)
        var differing = 0
        for y in 0..<100 {
            for x in 0..<150 where rgb(image, x, y) != rgb(image, 160 + x, y) { differing += 1 }
        }
        #expect(differing == 0)
        #expect(rgb(image, 20, 15) == (255, 0, 0))
        #expect(rgb(image, 180, 15) == (255, 0, 0))
        #expect(rgb(image, 250, 75) == (0, 153, 0))
        #expect(server.stop().validationMessages.isEmpty)
    }

    /// A new tile fades in over `fadeDuration()`: halfway through, half its colour over the white
    /// background.
    @Test func aNewTileFadesIn() throws {
        let context = try server.connect()
        let recorder = TileRecorder(tile: 256)
        let tiled = CATiledLayer()
        tiled.delegate = recorder
        tiled.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        tiled.setNeedsDisplay()
        try makeScene(context, [tiled])
        try waitForTiles(tiled, 1, context)
        CATransaction.lock()
        let fadeIn = tiled.tileStore.tiles.values.first?.layer.animation(forKey: "fadeIn")
        CATransaction.unlock()
        let fade = try #require(fadeIn)
        #expect(fade.duration == 0.25)
        let (r, g, b) = TileRecorder.color(0, 0)
        let half = try context.capture(at: fade.beginTime + 0.125)
        let got = rgb(half, 100, 100)
        #expect(
            abs(got.r - (r + 255) / 2) <= 2 && abs(got.g - (g + 255) / 2) <= 2 && abs(got.b - (b + 255) / 2) <= 2,
            "\(got)")
        #expect(rgb(try context.capture(at: fade.beginTime + 0.3), 100, 100) == (r, g, b))
        #expect(server.stop().validationMessages.isEmpty)
    }

    /// A layer wider than any image the device samples (and than a backing store may be) shows its
    /// far end: only the tiles there are drawn.
    @Test func aLayerLargerThanAnyTextureShowsItsFarEnd() throws {
        let context = try server.connect()
        let recorder = TileRecorder(tile: 256)
        let tiled = CATiledLayer()
        tiled.delegate = recorder
        tiled.frame = CGRect(x: -39_800, y: 0, width: 40_000, height: 200)
        tiled.setNeedsDisplay()
        try makeScene(context, [tiled])
        // Display x 0..<200 is layer x 39,800..<40,000: columns 155 (39,680..<39,936) and 156.
        try waitForTiles(tiled, 2, context)
        #expect(recorder.tiles == [[155, 0], [156, 0]])
        let image = try context.capture(at: CACurrentMediaTime() + 1)
        #expect(rgb(image, 10, 100) == TileRecorder.color(155, 0))
        #expect(rgb(image, 190, 100) == TileRecorder.color(156, 0))
        #expect(server.stop().validationMessages.isEmpty)
    }

    /// `setNeedsDisplay(_:)` draws again just the tiles that meet the rectangle.
    @Test func aRectangleMarkedForDisplayRedrawsItsTiles() throws {
        let context = try server.connect()
        let recorder = TileRecorder(tile: 100)
        let tiled = CATiledLayer()
        tiled.tileSize = CGSize(width: 100, height: 100)
        tiled.delegate = recorder
        tiled.frame = CGRect(x: 0, y: 0, width: 300, height: 200)
        tiled.setNeedsDisplay()
        try makeScene(context, [tiled])
        try waitForTiles(tiled, 6, context)
        tiled.setNeedsDisplay(CGRect(x: 150, y: 120, width: 10, height: 10))
        try context.synchronize()
        try waitForTiles(tiled, 7, context)
        #expect(recorder.clips.last == CGRect(x: 100, y: 100, width: 100, height: 100))
        #expect(server.stop().validationMessages.isEmpty)
    }
}
