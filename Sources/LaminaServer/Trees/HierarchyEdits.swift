import LaminaCore

/// What one transaction did to the hierarchy, as `RenderTree.applying` met it: the layers it
/// created and destroyed and those whose sublayer list or mask it set (an id once per operation,
/// so possibly more than once). The incremental hierarchy check (`IncrementalRelink`) starts from
/// these; appending costs a few nanoseconds an operation, whichever check then runs.
struct HierarchyEdits: Sendable {
    /// Layers created (`createLayer`).
    var created: [LayerID] = []
    /// Layers destroyed (`destroyLayer`); one may have been created again after.
    var destroyed: [LayerID] = []
    /// Layers whose sublayer list was set (`setSublayers`).
    var listed: [LayerID] = []
    /// Layers whose mask was set or cleared (`setMask`).
    var masked: [LayerID] = []

    /// About how many layers the incremental check reads before any walk: the edited layers and the
    /// entries of their sublayer lists before (`old`) and after (`new`). When that is about the tree,
    /// the full check is as cheap and is made instead.
    func estimatedReads(old: LayerTable, new: LayerTable) -> Int {
        var reads = created.count + destroyed.count + masked.count
        for id in listed { reads += 1 + (old[id]?.sublayers.count ?? 0) + (new[id]?.sublayers.count ?? 0) }
        for id in destroyed { reads += old[id]?.sublayers.count ?? 0 }
        return reads
    }
}
