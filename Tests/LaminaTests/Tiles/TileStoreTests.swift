import Foundation
import Testing

@testable import Lamina

/// Which tiles a `CATiledLayer` draws for a view, at which level of detail, and which it drops under
/// its memory budget (`TileStore`).
@Suite struct TileStoreTests {
    static let bounds = CGRect(x: 0, y: 0, width: 2048, height: 2048)

    static func plan(_ rect: CGRect, scale: Double = 1, contentsScale: Double = 1, levels: Int = 1, bias: Int = 0)
        -> TileStore.Plan
    {
        TileStore.plan(
            view: TileStore.View(rect: rect, scale: scale), bounds: bounds, tileSize: CGSize(width: 256, height: 256),
            contentsScale: contentsScale, levels: levels, bias: bias)!
    }

    /// E17's grid: tile = floor(point / 256); a view on a tile's edge does not take the next tile.
    @Test func theViewsTilesAreThoseItMeets() {
        let plan = Self.plan(CGRect(x: 300, y: 0, width: 212, height: 256))
        #expect(plan.level == 0 && plan.scale == 1)
        #expect(Set(plan.tiles.map { [$0.key.column, $0.key.row] }) == [[1, 0]])
        let wide = Self.plan(CGRect(x: 0, y: 0, width: 2048, height: 2048))
        #expect(wide.tiles.count == 64)
        let centre: Set<[Int]> = [[3, 3], [3, 4], [4, 3], [4, 4]]
        #expect(Set(wide.tiles.prefix(4).map { [$0.key.column, $0.key.row] }) == centre, "nearest the centre first")
    }

    /// Tiles at the bounds' edge are cut to the bounds.
    @Test func edgeTilesAreCut() throws {
        let plan = try #require(
            TileStore.plan(
                view: TileStore.View(rect: CGRect(x: 0, y: 0, width: 100, height: 100), scale: 1),
                bounds: CGRect(x: 0, y: 0, width: 100, height: 70), tileSize: CGSize(width: 64, height: 64),
                contentsScale: 1, levels: 1, bias: 0))
        #expect(
            Set(plan.tiles.map(\.rect)) == [
                CGRect(x: 0, y: 0, width: 64, height: 64), CGRect(x: 64, y: 0, width: 36, height: 64),
                CGRect(x: 0, y: 64, width: 64, height: 6), CGRect(x: 64, y: 64, width: 36, height: 6),
            ])
    }

    /// Level k draws at 2^(bias − k) × contentsScale: shown at half size, a layer with 3 levels draws
    /// level 1 (tiles of 512 points); shown at 4× with bias 2, level 0 (tiles of 64 points); and the
    /// most magnified level when shown larger still.
    @Test func theLevelIsTheLeastDetailedThatIsSharp() {
        let half = Self.plan(CGRect(x: 0, y: 0, width: 600, height: 600), scale: 0.5, levels: 3)
        #expect(half.level == 1 && half.scale == 0.5)
        #expect(half.tiles.count == 4, "600 points of 512-point tiles: 2 × 2")
        let zoomed = Self.plan(CGRect(x: 0, y: 0, width: 100, height: 100), scale: 4, levels: 3, bias: 2)
        #expect(zoomed.level == 0 && zoomed.scale == 4)
        #expect(zoomed.tiles.count == 4, "100 points of 64-point tiles: 2 × 2")
        let beyond = Self.plan(CGRect(x: 0, y: 0, width: 100, height: 100), scale: 16, levels: 3, bias: 2)
        #expect(beyond.level == 0 && beyond.scale == 4)
        let oneLevel = Self.plan(CGRect(x: 0, y: 0, width: 100, height: 100), scale: 0.25)
        #expect(oneLevel.level == 0 && oneLevel.scale == 1, "one level: always contentsScale")
    }

    /// Over budget, the tiles farthest from the view go first and the view's own stay.
    @Test func evictionDropsTheFarthestTiles() {
        let store = TileStore()
        let all = Self.plan(Self.bounds)
        let (generation, started) = store.startDrawing(all)
        #expect(started.count == 64)
        for tile in started {
            #expect(store.install(tile.key, rect: tile.rect, layer: CALayer(), bytes: 1000, generation: generation))
        }
        let corner = Self.plan(CGRect(x: 0, y: 0, width: 300, height: 300))
        #expect(store.evict(keeping: corner, budget: 10_000) == 54)
        let kept = Set(store.tiles.keys.map { [$0.column, $0.row] })
        #expect(kept.isSuperset(of: [[0, 0], [1, 0], [0, 1], [1, 1]]))
        #expect(!kept.contains([7, 7]), "the farthest tile went first")
        #expect(store.evict(keeping: corner, budget: 0) == 6, "the view's four stay whatever the budget")
        #expect(store.tiles.count == 4)
    }

    /// A tile started before `invalidate` is not installed; the invalidated tiles are drawn again.
    @Test func invalidationRedrawsAndDropsStaleWork() {
        let store = TileStore()
        let plan = Self.plan(CGRect(x: 0, y: 0, width: 100, height: 100))
        let first = store.startDrawing(plan)
        #expect(first.tiles.count == 1)
        #expect(store.startDrawing(plan).tiles.isEmpty, "already being drawn")
        store.invalidate(nil)
        #expect(
            !store.install(
                first.tiles[0].key, rect: first.tiles[0].rect, layer: CALayer(), bytes: 1, generation: first.generation)
        )
        let second = store.startDrawing(plan)
        #expect(second.tiles.count == 1)
        #expect(
            store.install(
                second.tiles[0].key, rect: second.tiles[0].rect, layer: CALayer(), bytes: 1,
                generation: second.generation))
        #expect(store.startDrawing(plan).tiles.isEmpty, "drawn")
        store.invalidate(CGRect(x: 500, y: 500, width: 10, height: 10))
        #expect(store.startDrawing(plan).tiles.isEmpty, "a rectangle elsewhere leaves it")
        store.invalidate(CGRect(x: 10, y: 10, width: 10, height: 10))
        #expect(store.startDrawing(plan).tiles.count == 1, "one that meets it marks it")
    }
}
