import LaminaCore
import LaminaProtocol

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

extension CALayer {
    /// Brings `state`, a copy of the model state at a version the marks `marked` cover (what
    /// `LayerChangeMarks.compared(sinceVersion:)` gave for it), up to date by copying only the
    /// marked properties, each field as the model stores it, and returns true. Returns false when the
    /// whole state must be copied instead: every property is marked, an emitter layer's cells (not
    /// a property) may have changed, or a marked property's stored value would not come back as it
    /// is through `LayerState.subscript(_:)`.
    func copyMarkedModel(_ marked: SIMD2<UInt64>, into state: inout LayerState) -> Bool {
        guard marked != SIMD2(repeating: .max), marked & LayerState.notCopiedByValue == SIMD2(repeating: 0),
            modelStorage.classState.layerClass != .emitter
        else { return false }
        Self.copy(marked, from: &modelStorage, into: &state)
        return true
    }

    /// Copies the properties among `marked` from `source` into `state`. Both are taken `inout` so
    /// that each field is read where it is: a read of the model through the layer loads the whole
    /// state (a copy of every field) to read one.
    private static func copy(_ marked: SIMD2<UInt64>, from source: inout LayerState, into state: inout LayerState) {
        for word in 0..<2 {
            var bits = marked[word]
            while bits != 0 {
                let code = word << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                if let name = LayerPropertyName(rawValue: UInt8(code)) { state[name] = source[name] }
            }
        }
    }

    /// The properties among `compared` in which the model differs from `old`
    /// (`LayerProperty.differences(from:to:among:)`), the model read where it is (see `copy`).
    func modelDifferences(from old: inout LayerState, among compared: SIMD2<UInt64>) -> [LayerProperty] {
        Self.differences(from: &old, to: &modelStorage, among: compared)
    }

    private static func differences(
        from old: inout LayerState, to new: inout LayerState, among compared: SIMD2<UInt64>
    ) -> [LayerProperty] {
        LayerProperty.differences(from: old, to: new, among: compared)
    }
}

extension LayerState {
    /// The properties (as change-mark bits) whose stored value the subscript does not give back as
    /// it is when written with what it read: masks keep four bits, a corner curve only the names it
    /// draws, a replicator's count is read clamped, a compositing filter by its code.
    static let notCopiedByValue: SIMD2<UInt64> = {
        var marks = LayerChangeMarks()
        for name in [
            LayerPropertyName.maskedCorners, .edgeAntialiasingMask, .cornerCurve, .instanceCount, .compositingFilter,
        ] {
            marks.mark(name)
        }
        return marks.properties
    }()
}
