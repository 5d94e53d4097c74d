import LaminaCore

/// The records some server messages carry (docs/protocol.md §9, §12): frame records and display
/// lists, written and read field by field.
extension MessageCodec {
    /// Writes a display list: `u32` count, then per display its id, size, refresh rate, name and
    /// connector (names cut to `WireLimits.maxDisplayNameBytes`).
    static func encode(_ displays: [DisplayInfo], into w: inout WireWriter) {
        w.u32(UInt32(displays.count))
        for d in displays {
            w.u32(d.id); w.u32(d.width); w.u32(d.height); w.f64(d.refreshRate)
            w.string(d.name.truncatedToUTF8(WireLimits.maxDisplayNameBytes))
            w.string(d.connector.truncatedToUTF8(WireLimits.maxDisplayNameBytes))
        }
    }

    /// Bytes of one frame record on the wire.
    static let frameRecordBytes = 78

    /// Writes a frame record: `f64` time, `u32` display, `u64` layers visited, instances emitted,
    /// pixels drawn and display pixels, `u32` offscreen passes, `f64` CPU milliseconds, `u8` whether a
    /// GPU time follows and its `f64` (0 when not), `u8` missed deadline, `u32` passes kept, raster
    /// cache hits and raster cache misses.
    static func encode(_ f: FrameRecord, into w: inout WireWriter) {
        w.f64(f.time); w.u32(f.display)
        w.u64(UInt64(clamping: f.layersVisited)); w.u64(UInt64(clamping: f.instancesEmitted))
        w.u64(UInt64(clamping: f.pixelsDrawn)); w.u64(UInt64(clamping: f.displayPixels))
        w.u32(UInt32(clamping: f.offscreenPasses)); w.f64(f.cpuMilliseconds)
        w.bool(f.gpuMilliseconds != nil); w.f64(f.gpuMilliseconds ?? 0); w.bool(f.missedDeadline)
        w.u32(UInt32(clamping: f.offscreenPassesKept)); w.u32(UInt32(clamping: f.rasterCacheHits))
        w.u32(UInt32(clamping: f.rasterCacheMisses))
    }

    /// Reads a frame record written by `encode(_:into:)`; counts beyond `Int.max` are clamped.
    static func frameRecord(_ r: inout WireReader) throws(WireError) -> FrameRecord {
        let time = try r.f64("frameRecord.time")
        let display = try r.u32("frameRecord.display")
        let layers = Int(clamping: try r.u64("frameRecord.layersVisited"))
        let instances = Int(clamping: try r.u64("frameRecord.instancesEmitted"))
        let pixels = Int(clamping: try r.u64("frameRecord.pixelsDrawn"))
        let displayPixels = Int(clamping: try r.u64("frameRecord.displayPixels"))
        let passes = Int(try r.u32("frameRecord.offscreenPasses"))
        let cpu = try r.f64("frameRecord.cpuMilliseconds")
        let hasGPU = try r.bool("frameRecord.hasGPUTime")
        let gpu = try r.f64("frameRecord.gpuMilliseconds")
        let missed = try r.bool("frameRecord.missedDeadline")
        let kept = Int(try r.u32("frameRecord.offscreenPassesKept"))
        let hits = Int(try r.u32("frameRecord.rasterCacheHits"))
        let misses = Int(try r.u32("frameRecord.rasterCacheMisses"))
        return FrameRecord(
            time: time, display: display, layersVisited: layers, instancesEmitted: instances, pixelsDrawn: pixels,
            displayPixels: displayPixels, offscreenPasses: passes, cpuMilliseconds: cpu,
            gpuMilliseconds: hasGPU ? gpu : nil, missedDeadline: missed, offscreenPassesKept: kept,
            rasterCacheHits: hits, rasterCacheMisses: misses)
    }

    /// Reads a display list written by `encode(_:into:)`.
    static func displays(_ r: inout WireReader, field: String) throws(WireError) -> [DisplayInfo] {
        let n = try r.count(field, limit: WireLimits.maxDisplays, minimumElementSize: 28)
        var displays: [DisplayInfo] = []
        for _ in 0..<n {
            displays.append(
                DisplayInfo(
                    id: try r.u32("display.id"), width: try r.u32("display.width"),
                    height: try r.u32("display.height"), refreshRate: try r.f64("display.refreshRate"),
                    name: try r.string("display.name", limit: WireLimits.maxDisplayNameBytes),
                    connector: try r.string("display.connector", limit: WireLimits.maxDisplayNameBytes)))
        }
        return displays
    }
}
