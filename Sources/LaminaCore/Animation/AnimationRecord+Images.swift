import Foundation

extension AnimationRecord {
    /// The ids of the images the animation's values name (`contents` animations), 0 left out, each
    /// once, in the order first met; empty for animations of other properties.
    public var imageIDs: [UInt64] {
        var ids: [UInt64] = []
        collectImageIDs(into: &ids)
        return ids
    }

    private func collectImageIDs(into ids: inout [UInt64]) {
        func add(_ values: [AnimationValue]) {
            for case .image(let id) in values where id != 0 && !ids.contains(id) { ids.append(id) }
        }
        func add(_ value: AnimationValue?) {
            if case .image(let id)? = value, id != 0, !ids.contains(id) { ids.append(id) }
        }
        switch content {
        case .basic(_, let values), .spring(_, let values, _):
            // The three values read in place (`values.all` would build an array for every record).
            add(values.from)
            add(values.to)
            add(values.by)
        case .keyframe(_, let keyframes): add(keyframes.values)
        case .group(let children): for child in children { child.collectImageIDs(into: &ids) }
        case .transition: break
        }
    }
}
