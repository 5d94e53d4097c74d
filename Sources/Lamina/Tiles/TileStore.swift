import Foundation
import LaminaCore

/// A `CATiledLayer`'s tiles: those drawn (each shown by a sublayer the app does not see, which
/// travels in the layer's sublayer list on the wire, below its own sublayers), those being drawn,
/// and what the server last said the display shows. Guarded by the transaction lock.
final class TileStore: @unchecked Sendable {
    /// A tile: its level of detail and its column and row in that level's grid, counted from the
    /// origin of the layer's coordinates.
    struct Key: Hashable, Comparable {
        var level: Int
        var column: Int
        var row: Int

        /// Coarser levels first (they draw below finer ones), then rows and columns.
        static func < (a: Key, b: Key) -> Bool { (-a.level, a.row, a.column) < (-b.level, b.row, b.column) }
    }

    /// A drawn tile.
    struct Tile {
        /// The sublayer that shows it.
        var layer: CALayer
        /// Its rectangle in the layer's drawing coordinates (those of `draw(in:)`).
        var rect: CGRect
        /// The bytes of its image.
        var bytes: Int
    }

    /// What a display shows of the layer, in the layer's drawing coordinates, and at what scale
    /// (device pixels per point).
    struct View: Equatable {
        var rect: CGRect
        var scale: Double
    }

    /// The tiles a layer draws for one view: their level, the scale they are drawn at (pixels per
    /// point) and their keys with their rectangles, nearest the view's centre first.
    struct Plan {
        var level: Int
        var scale: Double
        var tiles: [(key: Key, rect: CGRect)]
    }

    private(set) var tiles: [Key: Tile] = [:]
    /// Tiles being drawn, with the generation they were started in.
    private var drawing: [Key: Int] = [:]
    /// Drawn tiles that must be drawn again.
    private var stale = Set<Key>()
    /// Bumped by `invalidate`: a tile started before that is not installed.
    private var generation = 0
    /// The last view the server reported.
    private(set) var view: View?
    /// The bytes of tiles kept before the farthest are dropped (`CATiledLayer.tileMemoryBudget`).
    var budget = 64 << 20
    /// Tiles drawn since the layer was made (for tests and tools).
    private(set) var drawnCount = 0
    /// The most tiles one view asks for (the rest of a view that needs more waits for a closer one).
    static let maxTilesPerView = 1024

    /// The sublayers showing the tiles, coarse levels first: what goes before the layer's own
    /// sublayers on the wire.
    var tileLayers: [CALayer] { tiles.keys.sorted().map { tiles[$0]!.layer } }

    /// The bytes of all drawn tiles' images.
    var bytes: Int { tiles.values.reduce(0) { $0 + $1.bytes } }

    /// Marks the drawn tiles that meet `rect` (all when nil) for drawing again and forgets drawing in
    /// progress for them.
    func invalidate(_ rect: CGRect?) {
        generation += 1
        for (key, tile) in tiles where rect.map({ $0.intersects(tile.rect) }) ?? true { stale.insert(key) }
        drawing.removeAll()
    }

    /// Records what the server says the display shows.
    func report(_ view: View) { self.view = view }

    /// The tiles covering `view` of a layer with `bounds` (drawing coordinates), `tileSize` pixels,
    /// `contentsScale` and levels of detail as given.
    static func plan(
        view: View, bounds: CGRect, tileSize: CGSize, contentsScale: Double, levels: Int, bias: Int
    ) -> Plan? {
        guard tileSize.width >= 1, tileSize.height >= 1, tileSize.width.isFinite, tileSize.height.isFinite,
            contentsScale > 0, contentsScale.isFinite, view.scale > 0, view.scale.isFinite
        else { return nil }
        let levels = min(max(levels, 1), 16)
        let bias = min(max(bias, 0), levels - 1)
        let zoom = view.scale / contentsScale
        // Level k draws at 2^(bias − k) × contentsScale; the least magnified level at or above the
        // zoom, else the most magnified.
        var level = 0
        for k in stride(from: levels - 1, through: 0, by: -1) where pow(2, Double(bias - k)) >= zoom * (1 - 1e-9) {
            level = k
            break
        }
        let scale = contentsScale * pow(2, Double(bias - level))
        let width = tileSize.width / scale
        let height = tileSize.height / scale
        let shown = view.rect.intersection(bounds)
        guard !shown.isNull, !shown.isEmpty else { return Plan(level: level, scale: scale, tiles: []) }
        let columns = Int((shown.minX / width).rounded(.down))...Int((shown.maxX / width).rounded(.up)) - 1
        let rows = Int((shown.minY / height).rounded(.down))...Int((shown.maxY / height).rounded(.up)) - 1
        var tiles: [(key: Key, rect: CGRect)] = []
        let centre = CGPoint(x: shown.midX, y: shown.midY)
        for row in rows {
            for column in columns {
                let rect = CGRect(x: Double(column) * width, y: Double(row) * height, width: width, height: height)
                    .intersection(bounds)
                guard !rect.isNull, !rect.isEmpty else { continue }
                tiles.append((Key(level: level, column: column, row: row), rect))
            }
        }
        func distance(_ r: CGRect) -> Double { hypot(r.midX - centre.x, r.midY - centre.y) }
        tiles.sort { distance($0.rect) < distance($1.rect) }
        return Plan(level: level, scale: scale, tiles: Array(tiles.prefix(maxTilesPerView)))
    }

    /// The tiles of `plan` to start drawing now (missing or stale, not being drawn), marked as being
    /// drawn, with the generation to install them in.
    func startDrawing(_ plan: Plan) -> (generation: Int, tiles: [(key: Key, rect: CGRect)]) {
        var started: [(key: Key, rect: CGRect)] = []
        for tile in plan.tiles where (tiles[tile.key] == nil || stale.contains(tile.key)) && drawing[tile.key] == nil {
            drawing[tile.key] = generation
            started.append(tile)
        }
        return (generation, started)
    }

    /// Installs a drawn tile shown by `layer`, unless the tiles were invalidated since it started;
    /// returns whether it was installed.
    func install(_ key: Key, rect: CGRect, layer: CALayer, bytes: Int, generation: Int) -> Bool {
        guard drawing[key] == generation else { return false }
        drawing[key] = nil
        stale.remove(key)
        tiles[key] = Tile(layer: layer, rect: rect, bytes: bytes)
        drawnCount += 1
        return true
    }

    /// Forgets a tile whose drawing produced nothing.
    func abandon(_ key: Key, generation: Int) {
        if drawing[key] == generation { drawing[key] = nil }
    }

    /// Drops the tiles farthest from `plan`'s (other levels first) until the tiles' bytes are within
    /// `budget`; the tiles `plan` shows are kept. Returns how many were dropped.
    @discardableResult
    func evict(keeping plan: Plan, budget: Int) -> Int {
        var total = bytes
        guard total > budget else { return 0 }
        let needed = Set(plan.tiles.map(\.key))
        let centre = plan.tiles.first.map { CGPoint(x: $0.rect.midX, y: $0.rect.midY) } ?? .zero
        let candidates = tiles.filter { !needed.contains($0.key) }.sorted { a, b in
            let da = (
                a.key.level != plan.level ? 1 : 0, hypot(a.value.rect.midX - centre.x, a.value.rect.midY - centre.y)
            )
            let db = (
                b.key.level != plan.level ? 1 : 0, hypot(b.value.rect.midX - centre.x, b.value.rect.midY - centre.y)
            )
            return da > db
        }
        var dropped = 0
        for (key, tile) in candidates where total > budget {
            tiles[key] = nil
            stale.remove(key)
            total -= tile.bytes
            dropped += 1
        }
        return dropped
    }
}
