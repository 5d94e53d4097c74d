import Foundation
import LaminaCore
import LaminaProtocol

/// Set-property operations of the filter rows every layer has (codes 90–92), from their wire bytes.
extension SetOperation {
    /// A filter list: a `u8` count, then per filter its Core Image name, its name and its radius.
    static func filterList(_ id: LayerID, code: UInt8, _ list: [(String, String, Double)]) -> LayerOperation {
        make(id, code: code) { w in
            w.u8(UInt8(list.count))
            for (filterName, name, radius) in list {
                w.string(filterName); w.string(name); w.f64(radius)
            }
        }
    }
    static func filters(_ id: LayerID, _ list: [(String, String, Double)]) -> LayerOperation {
        filterList(id, code: 90, list)
    }
    static func backgroundFilters(_ id: LayerID, _ list: [(String, String, Double)]) -> LayerOperation {
        filterList(id, code: 91, list)
    }
    static func compositingFilter(_ id: LayerID, _ code: Double) -> LayerOperation {
        make(id, code: 92) { $0.f64(code) }
    }
}
