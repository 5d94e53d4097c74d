import Foundation

extension AnimationRecord {
    /// The custom keys (`PropertyTarget.customKey`) the animation drives on its own layer, groups
    /// included.
    public var customKeys: Set<String> {
        switch content {
        case .basic(let target, _), .spring(let target, _, _), .keyframe(let target, _):
            guard let key = target.customKey, target.sublayerPath.isEmpty else { return [] }
            return [key]
        case .group(let children): return children.reduce(into: []) { $0.formUnion($1.customKeys) }
        case .transition: return []
        }
    }

    /// The record with every target of custom key `key` turned into a plain target of its stand-in
    /// path, and every other property animation, and any transition, turned into an empty group
    /// that changes nothing; the timing is kept at each level. Evaluating it on a state that holds
    /// the key's model value at the stand-in gives the key's presentation value.
    public func isolating(customKey key: String) -> AnimationRecord {
        var copy = self
        switch content {
        case .basic(var target, let values):
            guard target.customKey == key, target.sublayerPath.isEmpty else { return copy.emptied() }
            target.customKey = nil
            copy.content = .basic(target, values)
        case .spring(var target, let values, let spring):
            guard target.customKey == key, target.sublayerPath.isEmpty else { return copy.emptied() }
            target.customKey = nil
            copy.content = .spring(target, values, spring)
        case .keyframe(var target, let keyframes):
            guard target.customKey == key, target.sublayerPath.isEmpty else { return copy.emptied() }
            target.customKey = nil
            copy.content = .keyframe(target, keyframes)
        case .group(let children):
            copy.content = .group(children.map { $0.isolating(customKey: key) })
        case .transition:
            return copy.emptied()
        }
        return copy
    }

    private func emptied() -> AnimationRecord {
        var copy = self
        copy.content = .group([])
        return copy
    }
}
