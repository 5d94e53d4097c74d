import Foundation

extension RGBAColor {
    /// The colour of a `CGColor` (gray colours expanded).
    init(_ color: CGColor) {
        let c = color.rgba
        self.init(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    }
}
