import Foundation

/// When the particles of an emitter layer's cells are born while a birth rate is animated: particle
/// *k* of a cell is born where the integral of its rate (the cell's `birthRate` times the layer's)
/// from local time 0 first passes *k*.
///
/// The integral is a sum of pieces with one rate each, read at the piece's middle (the midpoint rule,
/// exact for a rate that changes linearly within a piece): one piece for each stretch where no
/// animation changes the emitter (the rate is constant there), and pieces `step` long on a grid from
/// time 0 where one may. At most `maxPieces` grid pieces are used: past them the step doubles until
/// they fit, so the work a frame is bounded however long the animations run. Everything is a
/// function of the timeline and the time alone, so the same time gives the same births.
struct BirthSchedule {
    /// The grid step inside animations, seconds.
    static let step = 1.0 / 120
    /// The most grid pieces one schedule evaluates.
    static let maxPieces = 2_048

    /// The pieces' ends, from 0 to the time asked for.
    private(set) var times: [Double] = [0]
    /// For each cell of the layer, the integral of its rate at each of `times`.
    private(set) var integrals: [[Double]]
    /// For each cell, the longest a particle born in 0...time may be relevant: its lifetime and its
    /// sub-cells' (the most seen in any piece).
    private(set) var longest: [Double]

    /// The schedule of the cells of `timeline`'s emitter from 0 to `time`.
    init(timeline: EmitterTimeline, upTo time: Double) {
        let count = timeline.model.emitter.cells.count
        integrals = Array(repeating: [0], count: count)
        longest = Array(repeating: 0, count: count)
        // Where a cell starts or stops emitting, pieces end, so that a piece's rate holds all along it.
        breaks = Set(
            timeline.model.emitter.cells.flatMap { cell in
                [cell.beginTime] + (cell.duration > 0 ? [cell.beginTime + cell.duration] : [])
            }
        ).filter { $0 > 0 && $0 < time }.sorted()
        let spans = timeline.changingSpans(upTo: time)
        let animated = spans.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
        var step = Self.step
        while animated / step > Double(Self.maxPieces) { step *= 2 }
        var cursor = 0.0
        for span in spans {
            if span.lowerBound > cursor { addPiece(to: span.lowerBound, timeline) }
            cursor = span.lowerBound
            // Grid points as whole multiples of the step, at most `maxPieces` of them looked at: at
            // large times neither the step added to a point nor 1 added to a multiple may move it.
            var n = (cursor / step).rounded(.down) + 1
            var looked = 0
            while n * step < span.upperBound, looked <= Self.maxPieces, n + 1 > n {
                addPiece(to: n * step, timeline)
                n += 1
                looked += 1
            }
            addPiece(to: span.upperBound, timeline)
            cursor = span.upperBound
        }
        if time > cursor || times.count == 1 { addPiece(to: time, timeline) }
    }

    /// The times where a cell of the model starts or stops emitting, sorted.
    private var breaks: [Double] = []

    /// Adds the pieces from the last end to `end`, cut where a cell starts or stops emitting.
    private mutating func addPiece(to end: Double, _ timeline: EmitterTimeline) {
        for cut in breaks where cut > times[times.count - 1] && cut < end { addOnePiece(to: cut, timeline) }
        addOnePiece(to: end, timeline)
    }

    /// Adds the piece from the last end to `end`, its rates read at its middle (0 for a cell outside
    /// its `beginTime` and `duration`).
    private mutating func addOnePiece(to end: Double, _ timeline: EmitterTimeline) {
        let start = times[times.count - 1]
        guard end > start || times.count == 1 else { return }
        let middle = (start + end) / 2
        let emitter = timeline.emitter(at: middle)
        let length = max(end - start, 0)
        for (i, cell) in emitter.cells.enumerated() where i < integrals.count {
            let active = middle >= cell.beginTime && (cell.duration <= 0 || middle < cell.beginTime + cell.duration)
            var rate = cell.isEnabled && active ? Double(cell.birthRate) * Double(emitter.birthRate) : 0
            if !rate.isFinite || rate < 0 { rate = 0 }
            let added = integrals[i][integrals[i].count - 1] + rate * length
            integrals[i].append(added.isFinite ? added : integrals[i][integrals[i].count - 1])
            longest[i] = max(longest[i], ParticleSystem.longestLife(of: cell, in: emitter))
        }
        times.append(end)
    }

    /// How far below k an integral still counts as k: the rounding of the pieces' sum, so that a
    /// birth due exactly at the end of a piece is not lost to it.
    static func tolerance(_ total: Double) -> Double { 1e-9 * max(1, abs(total)) }

    /// The newest particle of cell `cell` born by the schedule's end, or nil when none is.
    func newest(of cell: Int) -> Int? {
        guard let total = integrals[cell].last, total > 0, total < 9e15 else { return nil }
        return Int((total + Self.tolerance(total)).rounded(.down))
    }

    /// The birth of particle `k` of cell `cell`: where the integral first reaches `k` (less the
    /// tolerance; particle 0 where it first passes 0, so a rate of 0 bears nothing).
    func birth(of k: Int, cell: Int) -> Double? {
        let values = integrals[cell]
        guard let total = values.last else { return nil }
        let target = k == 0 ? 0 : Double(k) - Self.tolerance(total)
        guard total > target else { return nil }
        var low = 0
        var high = values.count - 1
        // The first piece end whose integral passes the target.
        while low < high {
            let mid = (low + high) / 2
            if values[mid] > target { high = mid } else { low = mid + 1 }
        }
        guard low > 0 else { return times[0] }
        let (a, b) = (values[low - 1], values[low])
        let (t0, t1) = (times[low - 1], times[low])
        let fraction = min(max((Double(k) - a) / (b - a), 0), 1)
        return t0 + fraction * (t1 - t0)
    }
}
