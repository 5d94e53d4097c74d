import Foundation
import LaminaCore
import LaminaProtocol

/// Seeds for layer filters (`filters`, `backgroundFilters`, `compositingFilter`): a blurred layer with
/// its radius animated by name, and the hostile values (a NaN, infinite or negative radius, 17
/// filters, an unknown blend code, a blend code that is not whole, a radius animation naming a filter
/// the layer lacks).
extension SeedCorpus {
    /// A root holding a blurred square over a striped backdrop with a background blur and a blend mode.
    static var filterTreeOperations: [LayerOperation] {
        typealias S = SetOperation
        return [
            .createLayer(1), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(1, CGPoint(x: 32, y: 24)),
            .createLayer(2), S.bounds(2, CGRect(x: 0, y: 0, width: 20, height: 20)),
            S.position(2, CGPoint(x: 20, y: 20)), S.backgroundColor(2, red),
            S.filters(2, [("CIGaussianBlur", "blur", 3), ("CIPixellate", "CIPixellate", 0)]),
            .createLayer(3), S.bounds(3, CGRect(x: 0, y: 0, width: 30, height: 20)),
            S.position(3, CGPoint(x: 40, y: 30)), S.backgroundColor(3, blue),
            S.backgroundFilters(3, [("CIGaussianBlur", "frost", 6)]), S.compositingFilter(3, 1),
            .setSublayers(1, [2, 3]), .setRoot(display: 0, layer: 1),
        ]
    }

    static func filterClientMessages() -> [(String, ClientMessage)] {
        let radius = animation(
            70, .basic(target("filters.blur.inputRadius"), BasicValues(from: .number(1), to: .number(12))))
        let frost = animation(
            71, .basic(target("backgroundFilters.frost.inputRadius"), BasicValues(from: .number(6), to: .number(0))))
        return [
            ("commit-filters", .commit(serial: 70, operations: filterTreeOperations)),
            (
                "commit-filters-animation",
                .commit(
                    serial: 71, operations: filterTreeOperations + [.addAnimation(2, radius), .addAnimation(3, frost)])
            ),
        ]
    }

    static func filterHostile() -> [(String, [UInt8])] {
        typealias S = SetOperation
        let root: [LayerOperation] = [
            .createLayer(1), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)), .setRoot(display: 0, layer: 1),
        ]
        let many = (0..<17).map { ("CIGaussianBlur", "b\($0)", 1.0) }
        let missing = animation(
            72, .basic(target("filters.nothere.inputRadius"), BasicValues(from: .number(1), to: .number(2))))
        return [
            ("filters-nan-radius", commit(root + [S.filters(1, [("CIGaussianBlur", "blur", .nan)])])),
            ("filters-infinite-radius", commit(root + [S.filters(1, [("CIGaussianBlur", "blur", .infinity)])])),
            (
                "background-filters-negative-radius",
                commit(root + [S.backgroundFilters(1, [("CIGaussianBlur", "b", -1)])])
            ),
            ("filters-seventeen", commit(root + [S.filters(1, many)])),
            ("compositing-filter-unknown-code", commit(root + [S.compositingFilter(1, 12)])),
            ("compositing-filter-fractional-code", commit(root + [S.compositingFilter(1, 1.5)])),
            ("filters-huge-radius", commit(root + [S.filters(1, [("CIGaussianBlur", "blur", 1e300)])])),
            ("filters-animation-of-a-missing-filter", commit(root + [.addAnimation(1, missing)])),
        ]
    }
}
