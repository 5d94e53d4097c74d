import Foundation
import LaminaCore
import LaminaProtocol

/// Seeds for `CATextLayer` (issue 20): a text layer with every row set, its colour animated on the
/// server, and its hostile values (a NaN size, a string of the wire's longest, a colour outside
/// 0...1, a text row on a layer of another class).
extension SeedCorpus {
    /// A text layer with every text row set, tinting, under a plain root.
    static var textTreeOperations: [LayerOperation] {
        typealias S = SetOperation
        return [
            .createLayer(1), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(1, CGPoint(x: 32, y: 24)),
            .createLayer(2, .text), S.bounds(2, CGRect(x: 0, y: 0, width: 60, height: 20)),
            S.position(2, CGPoint(x: 32, y: 12)), S.textString(2, "Hello, 世界 مرحبا"), S.font(2, "Helvetica-Bold"),
            S.fontSize(2, 14), S.foregroundColor(2, red), S.wrapped(2, true), S.truncationMode(2, "end"),
            S.alignmentMode(2, "center"), S.allowsFontSubpixelQuantization(2, true), S.tintsContents(2, true),
            .setSublayers(1, [2]), .setRoot(display: 0, layer: 1),
        ]
    }

    static func textClientMessages() -> [(String, ClientMessage)] {
        let fade = animation(
            51, .basic(target("foregroundColor"), BasicValues(from: .color(red), to: .color(blue))))
        return [
            ("commit-text", .commit(serial: 50, operations: textTreeOperations)),
            ("commit-text-animation", .commit(serial: 51, operations: textTreeOperations + [.addAnimation(2, fade)])),
        ]
    }

    static func textHostile() -> [(String, [UInt8])] {
        typealias S = SetOperation
        let text: [LayerOperation] = [
            .createLayer(1, .text), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.tintsContents(1, true), .setRoot(display: 0, layer: 1),
        ]
        return [
            ("text-nan-size", commit(text + [S.fontSize(1, .nan)])),
            ("text-string-at-the-limit", commit(text + [S.textString(1, String(repeating: "€", count: 1365))])),
            (
                "text-colour-out-of-range",
                commit(text + [S.foregroundColor(1, RGBAColor(red: 2, green: 0, blue: 0, alpha: 1))])
            ),
            ("text-row-on-a-shape", commit([.createLayer(1, .shape), S.foregroundColor(1, red)])),
        ]
    }
}
