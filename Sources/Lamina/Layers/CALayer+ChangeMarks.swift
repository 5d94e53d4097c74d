import LaminaCore

/// The model state as the rest of the client reads and writes it: any write through `modelState`
/// marks every property changed (`LayerChangeMarks`); the property setter writes `modelStorage` and
/// marks only the property it sets, so a commit compares that one.
extension CALayer {
    /// Model values, as the render server will receive them. Read in place (no copy of the state);
    /// a write marks every property for the next commit's comparison.
    var modelState: LayerState {
        _read { yield modelStorage }
        _modify {
            changeMarks.all = true
            yield &modelStorage
        }
    }
}
