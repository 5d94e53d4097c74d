/// The display size every scene of one run is drawn at (`--size`, default 1280×720), set once by
/// `Bench.run()` before any scene is built.
enum BenchSize {
    nonisolated(unsafe) static var width = 1280
    nonisolated(unsafe) static var height = 720
}
