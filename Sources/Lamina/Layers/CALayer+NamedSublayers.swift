import LaminaCore

extension CALayer {
    /// For a key path that starts with `sublayers.NAME`, the first sublayer named `NAME` (nil when
    /// there is none) and the rest of the key path after `NAME.` (nil when the path ends at the
    /// name); nil for any other key path. As on Apple platforms, `value(forKeyPath:
    /// "sublayers.dot.opacity")` reads the opacity of the sublayer named `dot`.
    func namedSublayer(forKeyPath keyPath: String) -> (sublayer: CALayer?, rest: String?)? {
        let prefix = "sublayers."
        guard keyPath.hasPrefix(prefix) else { return nil }
        let afterPrefix = keyPath.dropFirst(prefix.count)
        let name = afterPrefix.prefix { $0 != "." }
        guard !name.isEmpty else { return nil }
        let rest = afterPrefix.dropFirst(name.count + 1)
        let sublayer = sublayers?.first { $0.name == String(name) }
        return (sublayer, name.count == afterPrefix.count ? nil : String(rest))
    }

    /// Applies to `state` (this layer's presentation values at media time `time`), in place, the
    /// committed animations of its ancestors that drive it by sublayer names (`"sublayers.dot.opacity"`):
    /// the parent's first, then the grandparent's, as the render server applies them.
    /// Each step up needs this layer's chain to be named, each layer the first of its name.
    func applyAncestorAnimations(to state: inout LayerState, at time: Double) {
        var path: [String] = []
        var child: CALayer = presentationSource ?? self
        var ignored: [TransitionProgress] = []
        while let parent = child.superlayer, let name = child.name,
            parent.sublayers?.first(where: { $0.name == name }) === child
        {
            path.insert(name, at: 0)
            let drivers = parent.attachedAnimations.filter {
                $0.committed && $0.record.drivesSublayers(startingWith: path)
            }
            if !drivers.isEmpty {
                let parentTime = parent.localTime(atMediaTime: time)
                for driver in drivers {
                    driver.record.apply(
                        to: &state, parentTime: parentTime, id: driver.id, transitions: &ignored, sublayerPath: path)
                }
            }
            child = parent
        }
    }
}
