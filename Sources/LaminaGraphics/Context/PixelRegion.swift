import Foundation

/// A rectangle of whole pixels in a bitmap: the columns and memory rows (row 0 first) a painting
/// call may change, so converted layouts copy only those.
struct PixelRegion: Equatable {
    /// The columns, left to right.
    var columns: Range<Int>
    /// The memory rows, first to last.
    var rows: Range<Int>

    /// Whether the region holds no pixel.
    var isEmpty: Bool { columns.isEmpty || rows.isEmpty }
}
