import Foundation

extension LayerPropertyDescriptor {
    /// `CATextLayer`'s rows (codes 59–67), stored in `TextLayerState`. As in Apple's `CATextLayer.h`,
    /// `fontSize` and `foregroundColor` animate. `foregroundColor` is a row like any other, animated on
    /// the server's clock (the server tints the glyph coverage with it); the others are kept by the
    /// client (`isClientKept`), which draws the text and animates `fontSize` by redrawing, and their
    /// rows carry copies for `laminactl tree`. `tintsContents` is Lamina's own: whether the contents
    /// are coverage to tint.
    static let textRows: [LayerPropertyDescriptor] = [
        .init(.textString, "string", .string, of: .text, tree: .unlessDefault("string"), clientKept: true),
        .init(.font, "font", .string, of: .text, tree: .unlessDefault("font"), clientKept: true),
        .init(.fontSize, "fontSize", .number, of: .text, tree: .unlessDefault("fontSize"), clientKept: true),
        .init(
            .foregroundColor, "foregroundColor", .color, of: .text, animation: .basic(code: 40),
            tree: .unlessDefault("foreground")),
        .init(.wrapped, "wrapped", .bool, of: .text, tree: .flag("wrapped"), clientKept: true),
        .init(
            .truncationMode, "truncationMode", .string, of: .text, tree: .unlessDefault("truncation"),
            clientKept: true),
        .init(
            .alignmentMode, "alignmentMode", .string, of: .text, tree: .unlessDefault("alignment"),
            clientKept: true),
        .init(
            .allowsFontSubpixelQuantization, "allowsFontSubpixelQuantization", .bool, of: .text,
            tree: .flag("subpixelQuantization"), clientKept: true),
        .init(.tintsContents, "lamina.tintsContents", .bool, of: .text, tree: .flag("tinted"), clientKept: true),
    ]
}
