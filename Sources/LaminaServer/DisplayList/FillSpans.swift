import Foundation

/// Up to three spans of one axis of a fractional interval cut at pixel boundaries: the partly
/// covered first pixel, the whole pixels, the partly covered last pixel, each with its coverage
/// (`DisplayListBuilder.spans`). Stored inline: the builder makes several per layer, and an array
/// each would be an allocation each.
struct FillSpans: RandomAccessCollection {
    typealias Span = (lo: CGFloat, hi: CGFloat, coverage: CGFloat)

    private var first: Span = (0, 0, 0)
    private var second: Span = (0, 0, 0)
    private var third: Span = (0, 0, 0)
    /// The number of spans, 0...3.
    private(set) var count = 0

    /// No spans.
    init() {}

    /// One span from `lo` to `hi` with coverage `coverage`.
    init(_ lo: CGFloat, _ hi: CGFloat, coverage: CGFloat = 1) {
        append((lo, hi, coverage))
    }

    /// Adds a span after the others (at most three).
    mutating func append(_ span: Span) {
        switch count {
        case 0: first = span
        case 1: second = span
        default: third = span
        }
        count += 1
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Span {
        switch position {
        case 0: return first
        case 1: return second
        default: return third
        }
    }
}
