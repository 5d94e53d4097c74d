import Foundation
import LaminaCore
import Testing

// Every expected number below was worked out by hand from the definitions (local time =
// (parent − beginTime) × speed + timeOffset; iterations, autoreverse and fill rules), not by
// calling the same formulas. Most are exact in binary; the comparison allows 1e-9 for the rest.

private func close(_ a: Double?, _ b: Double?, tolerance: Double = 1e-9) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case let (x?, y?):
        if x.isInfinite || y.isInfinite { return x == y }
        return abs(x - y) <= tolerance
    default: return false
    }
}

/// One row of a progress table: a timing, a time, and the expected fraction (nil = not in effect).
struct ProgressCase: Sendable, CustomTestStringConvertible {
    let name: String
    let timing: MediaTiming
    let time: Double
    let expected: Double?
    var testDescription: String { "\(name) @ \(time) → \(expected.map { "\($0)" } ?? "nil")" }
}

/// One row of a two-number table (a timing, an input and the expected output).
struct TimeCase: Sendable, CustomTestStringConvertible {
    let name: String
    let timing: MediaTiming
    let input: Double
    let expected: Double
    var testDescription: String { "\(name): \(input) → \(expected)" }
}

@Suite("MediaTimingTests")
struct MediaTimingTests {

    // MARK: Basics

    @Test func defaultsMatchCoreAnimation() {
        let t = MediaTiming()
        #expect(t.beginTime == 0)
        #expect(t.timeOffset == 0)
        #expect(t.duration == 0)
        #expect(t.speed == 1)
        #expect(t.repeatCount == 0)
        #expect(t.repeatDuration == 0)
        #expect(t.autoreverses == false)
        #expect(t.fillMode == .removed)
    }

    @Test func fillModeRawValues() {
        #expect(CAMediaTimingFillMode.removed.rawValue == "removed")
        #expect(CAMediaTimingFillMode.forwards.rawValue == "forwards")
        #expect(CAMediaTimingFillMode.backwards.rawValue == "backwards")
        #expect(CAMediaTimingFillMode.both.rawValue == "both")
        #expect(CAMediaTimingFillMode(rawValue: "both") == .both)
        #expect(CAMediaTimingFillMode.both.fillsForwards && CAMediaTimingFillMode.both.fillsBackwards)
        #expect(!CAMediaTimingFillMode.removed.fillsForwards && !CAMediaTimingFillMode.removed.fillsBackwards)
        #expect(CAMediaTimingFillMode.forwards.fillsForwards && !CAMediaTimingFillMode.forwards.fillsBackwards)
        #expect(!CAMediaTimingFillMode.backwards.fillsForwards && CAMediaTimingFillMode.backwards.fillsBackwards)
    }

    // MARK: Parent ↔ local mapping

    static let localTimeCases: [TimeCase] = [
        TimeCase(name: "defaults", timing: MediaTiming(), input: 3, expected: 3),
        TimeCase(name: "begin 2", timing: MediaTiming(beginTime: 2), input: 3, expected: 1),
        TimeCase(name: "begin 2, before start", timing: MediaTiming(beginTime: 2), input: 1.5, expected: -0.5),
        TimeCase(name: "speed 2, begin 1", timing: MediaTiming(beginTime: 1, speed: 2), input: 3, expected: 4),
        TimeCase(
            name: "speed 0.5, begin 1, offset 0.25",
            timing: MediaTiming(beginTime: 1, timeOffset: 0.25, speed: 0.5), input: 3, expected: 1.25),
        TimeCase(name: "offset 1", timing: MediaTiming(timeOffset: 1), input: 0.5, expected: 1.5),
        TimeCase(
            name: "speed 0 freezes at offset", timing: MediaTiming(timeOffset: 7, speed: 0), input: 100, expected: 7),
    ]

    @Test(arguments: localTimeCases)
    func localTimeFromParent(_ c: TimeCase) {
        #expect(close(c.timing.localTime(fromParent: c.input), c.expected))
    }

    @Test(arguments: localTimeCases.filter { $0.timing.speed != 0 })
    func parentTimeInvertsLocalTime(_ c: TimeCase) {
        #expect(close(c.timing.parentTime(fromLocal: c.expected), c.input))
    }

    @Test func parentTimeAtSpeedZeroIsBeginTime() {
        let paused = MediaTiming(beginTime: 4, timeOffset: 7, speed: 0)
        #expect(paused.parentTime(fromLocal: 7) == 4)
        #expect(paused.parentTime(fromLocal: 123) == 4)
    }

    // MARK: Durations

    static let activeDurationCases: [TimeCase] = [
        TimeCase(name: "one pass", timing: MediaTiming(duration: 1), input: 0, expected: 1),
        TimeCase(
            name: "autoreverse doubles", timing: MediaTiming(duration: 1, autoreverses: true), input: 0, expected: 2),
        TimeCase(name: "repeatCount 3 × 2 s", timing: MediaTiming(duration: 2, repeatCount: 3), input: 0, expected: 6),
        TimeCase(name: "repeatCount 2.5", timing: MediaTiming(duration: 1, repeatCount: 2.5), input: 0, expected: 2.5),
        TimeCase(
            name: "autoreverse, repeatCount 1.5",
            timing: MediaTiming(duration: 1, repeatCount: 1.5, autoreverses: true), input: 0, expected: 3),
        TimeCase(
            name: "repeatDuration 1.5", timing: MediaTiming(duration: 1, repeatDuration: 1.5), input: 0, expected: 1.5),
        TimeCase(
            name: "repeatDuration wins over repeatCount",
            timing: MediaTiming(duration: 1, repeatCount: 2, repeatDuration: 5), input: 0, expected: 5),
        TimeCase(
            name: "infinite repeatCount", timing: MediaTiming(duration: 1, repeatCount: .infinity), input: 0,
            expected: .infinity),
        TimeCase(
            name: "infinite repeatDuration", timing: MediaTiming(duration: 1, repeatDuration: .infinity), input: 0,
            expected: .infinity),
        TimeCase(
            name: "zero duration, infinite count", timing: MediaTiming(repeatCount: .infinity), input: 0, expected: 0),
        TimeCase(
            name: "zero duration, repeatDuration 2", timing: MediaTiming(repeatDuration: 2), input: 0, expected: 2),
        TimeCase(
            name: "negative repeatCount = one pass", timing: MediaTiming(duration: 2, repeatCount: -1), input: 0,
            expected: 2),
        TimeCase(name: "defaults", timing: MediaTiming(), input: 0, expected: 0),
    ]

    @Test(arguments: activeDurationCases)
    func activeDuration(_ c: TimeCase) {
        #expect(close(c.timing.activeDuration, c.expected))
    }

    @Test func iterationDuration() {
        #expect(MediaTiming(duration: 1.5).iterationDuration == 1.5)
        #expect(MediaTiming(duration: 1.5, autoreverses: true).iterationDuration == 3)
    }

    // MARK: Fill modes (through parent time: beginTime 2, duration 1 → active 2 ..< 3 in the parent)

    static func fillCases(_ mode: CAMediaTimingFillMode, _ expected: [Double?]) -> [ProgressCase] {
        let parentTimes: [Double] = [1.5, 2, 2.5, 3, 4]
        return zip(parentTimes, expected).map { t, e in
            ProgressCase(
                name: "fill \(mode.rawValue)", timing: MediaTiming(beginTime: 2, duration: 1, fillMode: mode),
                time: t, expected: e)
        }
    }

    static let fillModeCases: [ProgressCase] =
        //                          before  start  middle  end   later
        fillCases(.removed, [nil, 0, 0.5, nil, nil])
        + fillCases(.forwards, [nil, 0, 0.5, 1, 1])
        + fillCases(.backwards, [0, 0, 0.5, nil, nil])
        + fillCases(.both, [0, 0, 0.5, 1, 1])

    @Test(arguments: fillModeCases)
    func fillModeBeforeDuringAfter(_ c: ProgressCase) {
        let local = c.timing.localTime(fromParent: c.time)
        #expect(close(c.timing.progress(atLocal: local), c.expected))
    }

    // MARK: Repeats and autoreverse (local time)

    static let fwd = CAMediaTimingFillMode.forwards

    static let repeatCases: [ProgressCase] = [
        // repeatCount 2, duration 1: 0→1, 0→1 over 2 s.
        ProgressCase(
            name: "rc 2", timing: MediaTiming(duration: 1, repeatCount: 2, fillMode: fwd), time: 0, expected: 0),
        ProgressCase(
            name: "rc 2", timing: MediaTiming(duration: 1, repeatCount: 2, fillMode: fwd), time: 0.5, expected: 0.5),
        ProgressCase(
            name: "rc 2 (boundary starts pass 2)", timing: MediaTiming(duration: 1, repeatCount: 2, fillMode: fwd),
            time: 1, expected: 0),
        ProgressCase(
            name: "rc 2", timing: MediaTiming(duration: 1, repeatCount: 2, fillMode: fwd), time: 1.25, expected: 0.25),
        ProgressCase(
            name: "rc 2", timing: MediaTiming(duration: 1, repeatCount: 2, fillMode: fwd), time: 1.75, expected: 0.75),
        ProgressCase(
            name: "rc 2 end, forwards", timing: MediaTiming(duration: 1, repeatCount: 2, fillMode: fwd), time: 2,
            expected: 1),
        ProgressCase(
            name: "rc 2 later, forwards", timing: MediaTiming(duration: 1, repeatCount: 2, fillMode: fwd), time: 5,
            expected: 1),
        ProgressCase(
            name: "rc 2 end, removed", timing: MediaTiming(duration: 1, repeatCount: 2), time: 2, expected: nil),
        ProgressCase(
            name: "rc 2, removed", timing: MediaTiming(duration: 1, repeatCount: 2), time: 1.75, expected: 0.75),
        // repeatCount 2.5: third pass stops half-way.
        ProgressCase(
            name: "rc 2.5", timing: MediaTiming(duration: 1, repeatCount: 2.5, fillMode: fwd), time: 2.25,
            expected: 0.25),
        ProgressCase(
            name: "rc 2.5 end, forwards", timing: MediaTiming(duration: 1, repeatCount: 2.5, fillMode: fwd), time: 2.5,
            expected: 0.5),
        ProgressCase(
            name: "rc 2.5 later, forwards", timing: MediaTiming(duration: 1, repeatCount: 2.5, fillMode: fwd), time: 3,
            expected: 0.5),
        ProgressCase(
            name: "rc 2.5, removed", timing: MediaTiming(duration: 1, repeatCount: 2.5), time: 2.375, expected: 0.375),
        ProgressCase(
            name: "rc 2.5 end, removed", timing: MediaTiming(duration: 1, repeatCount: 2.5), time: 2.5, expected: nil),
        // repeatDuration 1.5, duration 1.
        ProgressCase(
            name: "rd 1.5", timing: MediaTiming(duration: 1, repeatDuration: 1.5, fillMode: fwd), time: 0.5,
            expected: 0.5),
        ProgressCase(
            name: "rd 1.5", timing: MediaTiming(duration: 1, repeatDuration: 1.5, fillMode: fwd), time: 1, expected: 0),
        ProgressCase(
            name: "rd 1.5", timing: MediaTiming(duration: 1, repeatDuration: 1.5, fillMode: fwd), time: 1.25,
            expected: 0.25),
        ProgressCase(
            name: "rd 1.5 end, forwards", timing: MediaTiming(duration: 1, repeatDuration: 1.5, fillMode: fwd),
            time: 1.5, expected: 0.5),
        ProgressCase(
            name: "rd 1.5 later, forwards", timing: MediaTiming(duration: 1, repeatDuration: 1.5, fillMode: fwd),
            time: 9, expected: 0.5),
        ProgressCase(
            name: "rd 1.5 end, removed", timing: MediaTiming(duration: 1, repeatDuration: 1.5), time: 1.5, expected: nil
        ),
        // autoreverses, repeatCount 1, duration 1: 0→1→0 over 2 s, ends at the start value.
        ProgressCase(
            name: "ar rc 1", timing: MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: fwd),
            time: 0, expected: 0),
        ProgressCase(
            name: "ar rc 1", timing: MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: fwd),
            time: 0.25, expected: 0.25),
        ProgressCase(
            name: "ar rc 1 (turn)", timing: MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: fwd),
            time: 1, expected: 1),
        ProgressCase(
            name: "ar rc 1", timing: MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: fwd),
            time: 1.25, expected: 0.75),
        ProgressCase(
            name: "ar rc 1", timing: MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: fwd),
            time: 1.5, expected: 0.5),
        ProgressCase(
            name: "ar rc 1", timing: MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: fwd),
            time: 1.75, expected: 0.25),
        ProgressCase(
            name: "ar rc 1 end, forwards",
            timing: MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: fwd), time: 2, expected: 0),
        ProgressCase(
            name: "ar rc 1 later, forwards",
            timing: MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: fwd), time: 3, expected: 0),
        ProgressCase(
            name: "ar rc 1 end, removed", timing: MediaTiming(duration: 1, repeatCount: 1, autoreverses: true), time: 2,
            expected: nil),
        ProgressCase(
            name: "ar, no repeatCount = 1 cycle", timing: MediaTiming(duration: 2, autoreverses: true, fillMode: fwd),
            time: 3, expected: 0.5),
        ProgressCase(
            name: "ar, no repeatCount end", timing: MediaTiming(duration: 2, autoreverses: true, fillMode: fwd),
            time: 4, expected: 0),
        // autoreverses, repeatCount 1.5: a full cycle, then one more forward pass; ends at the end value.
        ProgressCase(
            name: "ar rc 1.5 (cycle 2 starts)",
            timing: MediaTiming(duration: 1, repeatCount: 1.5, autoreverses: true, fillMode: fwd), time: 2, expected: 0),
        ProgressCase(
            name: "ar rc 1.5", timing: MediaTiming(duration: 1, repeatCount: 1.5, autoreverses: true, fillMode: fwd),
            time: 2.25, expected: 0.25),
        ProgressCase(
            name: "ar rc 1.5", timing: MediaTiming(duration: 1, repeatCount: 1.5, autoreverses: true, fillMode: fwd),
            time: 2.5, expected: 0.5),
        ProgressCase(
            name: "ar rc 1.5 end, forwards",
            timing: MediaTiming(duration: 1, repeatCount: 1.5, autoreverses: true, fillMode: fwd), time: 3, expected: 1),
        ProgressCase(
            name: "ar rc 1.5 later, forwards",
            timing: MediaTiming(duration: 1, repeatCount: 1.5, autoreverses: true, fillMode: fwd), time: 4, expected: 1),
        ProgressCase(
            name: "ar rc 1.5 end, removed", timing: MediaTiming(duration: 1, repeatCount: 1.5, autoreverses: true),
            time: 3, expected: nil),
        // autoreverses with counts that stop inside a pass.
        ProgressCase(
            name: "ar rc 0.75 (half-way back)",
            timing: MediaTiming(duration: 1, repeatCount: 0.75, autoreverses: true, fillMode: fwd), time: 1.25,
            expected: 0.75),
        ProgressCase(
            name: "ar rc 0.75 end",
            timing: MediaTiming(duration: 1, repeatCount: 0.75, autoreverses: true, fillMode: fwd), time: 1.5,
            expected: 0.5),
        ProgressCase(
            name: "ar rc 1.25 end",
            timing: MediaTiming(duration: 1, repeatCount: 1.25, autoreverses: true, fillMode: fwd), time: 2.5,
            expected: 0.5),
        ProgressCase(
            name: "ar rd 3 end", timing: MediaTiming(duration: 1, repeatDuration: 3, autoreverses: true, fillMode: fwd),
            time: 3, expected: 1),
        ProgressCase(
            name: "ar rd 3", timing: MediaTiming(duration: 1, repeatDuration: 3, autoreverses: true, fillMode: fwd),
            time: 2.5, expected: 0.5),
        // Infinite repeats.
        ProgressCase(
            name: "rc ∞", timing: MediaTiming(duration: 1, repeatCount: .infinity), time: 1000.25, expected: 0.25),
        ProgressCase(
            name: "rc ∞ before start", timing: MediaTiming(duration: 1, repeatCount: .infinity), time: -1, expected: nil
        ),
        ProgressCase(name: "rd ∞", timing: MediaTiming(duration: 2, repeatDuration: .infinity), time: 7, expected: 0.5),
        ProgressCase(
            name: "ar rc ∞", timing: MediaTiming(duration: 1, repeatCount: .infinity, autoreverses: true), time: 101.25,
            expected: 0.75),
        // Rounding: 3 × 0.1 is 0.30000000000000004, which must still end at 1.
        ProgressCase(
            name: "rc 3 of 0.1 s, end", timing: MediaTiming(duration: 0.1, repeatCount: 3, fillMode: fwd), time: 0.31,
            expected: 1),
        ProgressCase(
            name: "rc 3 of 0.1 s", timing: MediaTiming(duration: 0.1, repeatCount: 3, fillMode: fwd), time: 0.25,
            expected: 0.5),
        ProgressCase(
            name: "rc 3 of 0.1 s, at 0.3", timing: MediaTiming(duration: 0.1, repeatCount: 3, fillMode: fwd), time: 0.3,
            expected: 1),
    ]

    @Test(arguments: repeatCases)
    func repeatsAndAutoreverse(_ c: ProgressCase) {
        #expect(close(c.timing.progress(atLocal: c.time), c.expected))
    }

    // MARK: Zero duration ("no progress": 1 whenever in effect)

    static let zeroDurationCases: [ProgressCase] = [
        ProgressCase(name: "d 0 removed, at 0", timing: MediaTiming(), time: 0, expected: nil),
        ProgressCase(name: "d 0 removed, before", timing: MediaTiming(), time: -1, expected: nil),
        ProgressCase(name: "d 0 forwards, at 0", timing: MediaTiming(fillMode: .forwards), time: 0, expected: 1),
        ProgressCase(name: "d 0 forwards, later", timing: MediaTiming(fillMode: .forwards), time: 5, expected: 1),
        ProgressCase(name: "d 0 backwards, before", timing: MediaTiming(fillMode: .backwards), time: -1, expected: 1),
        ProgressCase(name: "d 0 backwards, at 0", timing: MediaTiming(fillMode: .backwards), time: 0, expected: nil),
        ProgressCase(name: "d 0, rd 2, inside", timing: MediaTiming(repeatDuration: 2), time: 1, expected: 1),
        ProgressCase(name: "d 0, rd 2, end", timing: MediaTiming(repeatDuration: 2), time: 2, expected: nil),
    ]

    @Test(arguments: zeroDurationCases)
    func zeroDuration(_ c: ProgressCase) {
        #expect(close(c.timing.progress(atLocal: c.time), c.expected))
    }

    // MARK: Speed and timeOffset (through parent time)

    static let speedCases: [ProgressCase] = [
        // speed 2, begin 1, duration 1: active for parent 1 ..< 1.5.
        ProgressCase(name: "speed 2", timing: MediaTiming(beginTime: 1, duration: 1, speed: 2), time: 1, expected: 0),
        ProgressCase(
            name: "speed 2", timing: MediaTiming(beginTime: 1, duration: 1, speed: 2), time: 1.25, expected: 0.5),
        ProgressCase(
            name: "speed 2", timing: MediaTiming(beginTime: 1, duration: 1, speed: 2), time: 1.375, expected: 0.75),
        ProgressCase(
            name: "speed 2 done", timing: MediaTiming(beginTime: 1, duration: 1, speed: 2), time: 1.5, expected: nil),
        ProgressCase(
            name: "speed 2 done, forwards",
            timing: MediaTiming(beginTime: 1, duration: 1, speed: 2, fillMode: .forwards), time: 1.5, expected: 1),
        // speed 0.5, begin 1, duration 1: active for parent 1 ..< 3.
        ProgressCase(
            name: "speed 0.5 before", timing: MediaTiming(beginTime: 1, duration: 1, speed: 0.5), time: 0.5,
            expected: nil),
        ProgressCase(
            name: "speed 0.5", timing: MediaTiming(beginTime: 1, duration: 1, speed: 0.5), time: 2, expected: 0.5),
        ProgressCase(
            name: "speed 0.5", timing: MediaTiming(beginTime: 1, duration: 1, speed: 0.5), time: 2.5, expected: 0.75),
        ProgressCase(
            name: "speed 0.5 done", timing: MediaTiming(beginTime: 1, duration: 1, speed: 0.5), time: 3, expected: nil),
        // timeOffset 1, duration 2: starts in the middle; its active interval is parent −1 ..< 1.
        ProgressCase(name: "offset 1", timing: MediaTiming(timeOffset: 1, duration: 2), time: 0, expected: 0.5),
        ProgressCase(name: "offset 1", timing: MediaTiming(timeOffset: 1, duration: 2), time: 0.5, expected: 0.75),
        ProgressCase(name: "offset 1 done", timing: MediaTiming(timeOffset: 1, duration: 2), time: 1, expected: nil),
        ProgressCase(name: "offset 1, start", timing: MediaTiming(timeOffset: 1, duration: 2), time: -1, expected: 0),
        ProgressCase(
            name: "offset 1, before", timing: MediaTiming(timeOffset: 1, duration: 2), time: -1.5, expected: nil),
        ProgressCase(
            name: "offset 0.5 with begin 3, speed 2",
            timing: MediaTiming(beginTime: 3, timeOffset: 0.5, duration: 2, speed: 2), time: 3.5, expected: 0.75),
        // speed 0 + timeOffset: scrubbing; the same frame at any parent time.
        ProgressCase(
            name: "scrub 0.25", timing: MediaTiming(timeOffset: 0.25, duration: 1, speed: 0), time: 0, expected: 0.25),
        ProgressCase(
            name: "scrub 0.25", timing: MediaTiming(timeOffset: 0.25, duration: 1, speed: 0), time: 42, expected: 0.25),
    ]

    @Test(arguments: speedCases)
    func speedAndTimeOffset(_ c: ProgressCase) {
        let local = c.timing.localTime(fromParent: c.time)
        #expect(close(c.timing.progress(atLocal: local), c.expected))
    }

    // MARK: Three levels of hierarchy

    // root: speed 2; middle: beginTime 1, timeOffset 0.5; leaf: speed 0.5.
    // global g → root 2g → middle 2g − 1 + 0.5 = 2g − 0.5 → leaf (2g − 0.5) × 0.5 = g − 0.25.
    static let root = MediaTiming(speed: 2)
    static let middle = MediaTiming(beginTime: 1, timeOffset: 0.5)
    static let leaf = MediaTiming(speed: 0.5)
    static let leafChain = [root, middle, leaf]

    /// (global, root local, middle local, leaf local)
    static let hierarchyRows: [(Double, Double, Double, Double)] = [
        (0, 0, -0.5, -0.25),
        (1, 2, 1.5, 0.75),
        (2.5, 5, 4.5, 2.25),
        (10, 20, 19.5, 9.75),
    ]

    @Test(arguments: hierarchyRows)
    func threeLevelsDown(_ row: (Double, Double, Double, Double)) {
        let (g, r, m, l) = row
        #expect(close(MediaTiming.convert(g, through: [Self.root]), r))
        #expect(close(MediaTiming.convert(g, through: [Self.root, Self.middle]), m))
        #expect(close(MediaTiming.convert(g, through: Self.leafChain), l))
        #expect(close(MediaTiming.convertTime(g, from: [], to: Self.leafChain), l))
        // From the middle's local time down to the leaf only.
        #expect(close(MediaTiming.convertTime(m, from: [Self.root, Self.middle], to: Self.leafChain), l))
    }

    @Test(arguments: hierarchyRows)
    func threeLevelsBackUp(_ row: (Double, Double, Double, Double)) {
        let (g, r, m, l) = row
        #expect(close(MediaTiming.parentTime(l, fromLocalOf: Self.leafChain), g))
        #expect(close(MediaTiming.parentTime(l, fromLocalOf: [Self.leaf]), m))
        #expect(close(MediaTiming.parentTime(l, fromLocalOf: [Self.middle, Self.leaf]), r))
        #expect(close(MediaTiming.convertTime(l, from: Self.leafChain, to: []), g))
    }

    @Test func convertBetweenCousins() {
        // A sibling of the middle layer with speed 3: its local time is 3 × root = 6g.
        let sibling = [Self.root, MediaTiming(speed: 3)]
        // leaf 0.75 ↔ g 1 ↔ sibling 6; leaf 2.25 ↔ g 2.5 ↔ sibling 15.
        #expect(close(MediaTiming.convertTime(0.75, from: Self.leafChain, to: sibling), 6))
        #expect(close(MediaTiming.convertTime(2.25, from: Self.leafChain, to: sibling), 15))
        #expect(close(MediaTiming.convertTime(15, from: sibling, to: Self.leafChain), 2.25))
        #expect(MediaTiming.convertTime(1.234, from: Self.leafChain, to: Self.leafChain) == 1.234)
    }

    @Test func convertInsidePausedSubtree() {
        // A paused ancestor (speed 0) with two children; the conversion must not go through
        // global time, which would collapse every time to the frozen one.
        let paused = MediaTiming(timeOffset: 4, speed: 0)
        let a = [paused, MediaTiming(beginTime: 1)]  // a = p − 1
        let b = [paused, MediaTiming(speed: 2)]  // b = 2p
        // a 5 → p 6 → b 12.
        #expect(close(MediaTiming.convertTime(5, from: a, to: b), 12))
        #expect(close(MediaTiming.convertTime(12, from: b, to: a), 5))
        // From global time everything inside is frozen: p = 4, so a = 3, b = 8.
        #expect(close(MediaTiming.convertTime(100, from: [], to: a), 3))
        #expect(close(MediaTiming.convertTime(100, from: [], to: b), 8))
    }

    // MARK: §4.10 pause / resume, exactly as the Apple recipe does it

    @Test func pauseAndResumeTopLevelLayer() {
        var layer = MediaTiming()
        let ancestors: [MediaTiming] = []
        // An animation on the layer: begins at layer time 8, lasts 4 s (ends at 12 if never paused).
        let animation = MediaTiming(beginTime: 8, duration: 4)
        func convertFromNil(_ t: Double) -> Double {
            MediaTiming.convertTime(t, from: [], to: ancestors + [layer])
        }
        func animationProgress(atGlobal t: Double) -> Double? {
            animation.progress(atLocal: animation.localTime(fromParent: convertFromNil(t)))
        }

        // Pause at T1 = 10.
        let pausedTime = convertFromNil(10)
        #expect(pausedTime == 10)
        layer.speed = 0
        layer.timeOffset = pausedTime
        for t in [10.0, 11, 25] {
            #expect(close(convertFromNil(t), 10))
            #expect(close(animationProgress(atGlobal: t), 0.5))
        }

        // Resume at T2 = 15.
        let resumePaused = layer.timeOffset
        layer.speed = 1
        layer.timeOffset = 0
        layer.beginTime = 0
        let timeSincePause = convertFromNil(15) - resumePaused
        #expect(timeSincePause == 5)
        layer.beginTime = timeSincePause

        // Continues from 10 at T2 and advances 1:1.
        for (t, local) in [(15.0, 10.0), (16, 11), (17.5, 12.5)] {
            #expect(close(convertFromNil(t), local))
        }
        // The animation picks up at 0.5 and ends 5 s (the pause) later than planned: at 17.
        #expect(close(animationProgress(atGlobal: 15), 0.5))
        #expect(close(animationProgress(atGlobal: 16), 0.75))
        #expect(animationProgress(atGlobal: 17) == nil)
    }

    @Test func pauseAndResumeLayerInsideFastParent() {
        // Parent at speed 2; the layer starts with beginTime 1 (in parent time).
        let ancestors = [MediaTiming(speed: 2)]
        var layer = MediaTiming(beginTime: 1)
        func convertFromNil(_ t: Double) -> Double {
            MediaTiming.convertTime(t, from: [], to: ancestors + [layer])
        }

        // Pause at T1 = 3: parent 6, layer 6 − 1 = 5.
        let pausedTime = convertFromNil(3)
        #expect(close(pausedTime, 5))
        layer.speed = 0
        layer.timeOffset = pausedTime
        #expect(close(convertFromNil(4), 5))
        #expect(close(convertFromNil(4.75), 5))

        // Resume at T2 = 5: after the reset the layer reads parent time, 10; 10 − 5 = 5.
        let resumePaused = layer.timeOffset
        layer.speed = 1
        layer.timeOffset = 0
        layer.beginTime = 0
        let timeSincePause = convertFromNil(5) - resumePaused
        #expect(close(timeSincePause, 5))
        layer.beginTime = timeSincePause

        // At T2 the layer reads 5 again, then follows parent time 1:1 (2 per global second).
        for (t, local) in [(5.0, 5.0), (5.5, 6), (6, 7)] {
            #expect(close(convertFromNil(t), local))
        }
    }
}
