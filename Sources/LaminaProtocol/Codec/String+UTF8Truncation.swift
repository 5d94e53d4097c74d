import Foundation
import LaminaCore

extension String {
    /// The longest prefix of the string whose UTF-8 form has at most `maxBytes` bytes, cut at a
    /// character boundary.
    public func truncatedToUTF8(_ maxBytes: Int) -> String {
        guard utf8.count > maxBytes else { return self }
        var end = utf8.index(utf8.startIndex, offsetBy: maxBytes)
        while end > startIndex && String.Index(end, within: self) == nil { end = utf8.index(before: end) }
        return String(self[..<end])
    }
}
