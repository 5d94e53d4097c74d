import Foundation

extension DisplayList {
    /// The batches with only the instances that may touch one of `regions` (by the pixels they were
    /// emitted with), in the same order; batches left empty are dropped. Drawing these inside the
    /// regions gives the same pixels there as drawing every batch, since an instance that touches
    /// none of a region's pixels changes none of them.
    public func batches(touching regions: [DamageRect]) -> [DrawBatch] {
        var touches = instances.map { [Bool](repeating: false, count: $0.count) }
        for instance in emitted where regions.contains(where: { $0.intersects(instance.pixels) }) {
            touches[instance.kind][instance.index] = true
        }
        var result: [DrawBatch] = []
        result.reserveCapacity(batches.count)
        for batch in batches {
            let kept = batch.instances.filter { touches[batch.kind][Int($0)] }
            if !kept.isEmpty { result.append(DrawBatch(kind: batch.kind, instances: kept, texture: batch.texture)) }
        }
        return result
    }
}
