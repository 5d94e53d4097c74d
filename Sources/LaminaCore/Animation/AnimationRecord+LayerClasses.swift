import Foundation

extension AnimationRecord {
    /// The first property this record (or a child of its group) animates on its own layer that a layer
    /// of class `owner` does not have, or nil when there is none: the server refuses such an
    /// animation (`wrongLayerClass`). Custom keys and targets that drive named sublayers are not
    /// checked: the layers they reach are found at each frame, and a property a layer lacks is not
    /// applied there.
    public func propertyOfAnotherClass(than owner: LayerClass) -> LayerPropertyDescriptor? {
        switch content {
        case .basic(let target, _), .spring(let target, _, _), .keyframe(let target, _):
            guard target.customKey == nil, target.sublayerPath.isEmpty else { return nil }
            let row = target.keyPath.property.descriptor
            return row.belongs(to: owner) ? nil : row
        case .group(let children):
            for child in children {
                if let row = child.propertyOfAnotherClass(than: owner) { return row }
            }
            return nil
        case .transition:
            return nil
        }
    }
}
