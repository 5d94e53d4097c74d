import LaminaCore

/// Filter lists on the wire (`filters`, `backgroundFilters`; docs/protocol.md §7): a `u8` count, then
/// per filter its Core Image name, its name in key paths and its radius.
extension MessageCodec {
    /// Writes a filter list (at most 255 filters: the count is a byte; the server refuses more than
    /// `LayerFilter.maxFilters`, and a client never sends more).
    static func encode(_ list: [LayerFilter], into w: inout WireWriter) {
        w.u8(UInt8(clamping: list.count))
        for filter in list.prefix(Int(UInt8.max)) {
            w.string(filter.filterName)
            w.string(filter.name)
            w.f64(filter.radius)
        }
    }

    /// Reads a filter list of property `key`. Up to 255 filters are read, so that too many reach the
    /// server's validation, which names the property.
    static func filters(_ r: inout WireReader, _ key: String) throws(WireError) -> [LayerFilter] {
        let count = Int(try r.u8(key + ".count"))
        var list: [LayerFilter] = []
        for _ in 0..<count {
            let filterName = try r.string(key + ".filterName", limit: WireLimits.maxStringBytes)
            let name = try r.string(key + ".name", limit: WireLimits.maxStringBytes)
            list.append(LayerFilter(filterName: filterName, name: name, radius: try r.f64(key + ".inputRadius")))
        }
        return list
    }
}
