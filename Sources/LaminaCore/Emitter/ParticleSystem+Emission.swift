import Foundation

extension ParticleSystem {
    /// One frame's emission of one layer: the time, the seed and what is left of the budgets, shared
    /// by every cell and sub-cell so that nesting cannot multiply the work.
    struct Emission {
        /// The layer's local time of the frame.
        let time: Double
        /// The layer's seed.
        let seed: UInt32
        /// Live particles still allowed (`maxLiveParticlesPerLayer`).
        var budget = ParticleSystem.maxLiveParticlesPerLayer
        /// Births still to examine (`maxCandidatesPerLayer`), sub-cells' included.
        var candidates = ParticleSystem.maxCandidatesPerLayer
        /// The live particles of the current top-level cell's sub-cells.
        var children: [Particle] = []
        /// Births still to give the values of their own time (`maxTimelineBirths`); later ones take
        /// the frame's.
        var timelineBirths = ParticleSystem.maxTimelineBirths

        init(time: Double, seed: UInt32) {
            self.time = time
            self.seed = seed
        }

        /// Emits top-level cell `index` (`flat` depth first) of `emitter`, whose values hold at
        /// every time: particle k born at k / rate, newest first, into `found`.
        mutating func emitConstant(
            _ cell: EmitterCellState, index: Int, flat: Int, in emitter: EmitterLayerState,
            into found: inout [Particle]
        ) {
            let rate = Double(cell.birthRate) * Double(emitter.birthRate)
            guard cell.isEnabled, rate.isFinite, rate > 0 else { return }
            let longest = ParticleSystem.longestLife(of: cell, in: emitter)
            guard longest > 0,
                let (newest, oldest) = Self.births(of: cell, rate: rate, from: 0, to: time, longest: longest)
            else { return }
            var k = newest
            while k >= oldest, budget > 0, candidates > 0 {
                candidates -= 1
                var random = ParticleRandom(seed: seed, cell: index, particle: k)
                let born = ParticleBirth(
                    cell: cell, flatIndex: flat, index: k, birth: cell.beginTime + Double(k) / rate, in: emitter,
                    random: &random, start: nil)
                add(born, cell: cell, flat: flat, in: emitter, into: &found)
                k -= 1
            }
        }

        /// Emits top-level cell `index` (`flat` depth first) with its births from `schedule` and each
        /// particle's values from `timeline` at its birth, newest first, into `found`.
        mutating func emitScheduled(
            _ index: Int, flat: Int, schedule: BirthSchedule, timeline: EmitterTimeline, frame: EmitterLayerState,
            into found: inout [Particle]
        ) {
            guard var k = schedule.newest(of: index) else { return }
            let longest = schedule.longest[index]
            while k >= 0, budget > 0, candidates > 0, let birth = schedule.birth(of: k, cell: index),
                birth >= time - longest
            {
                candidates -= 1
                var emitter = frame
                if timelineBirths > 0 {
                    timelineBirths -= 1
                    emitter = timeline.emitter(at: birth)
                }
                guard index < emitter.cells.count else { return }
                let cell = emitter.cells[index]
                var random = ParticleRandom(seed: seed, cell: index, particle: k)
                let born = ParticleBirth(
                    cell: cell, flatIndex: flat, index: k, birth: birth, in: emitter, random: &random, start: nil)
                add(born, cell: cell, flat: flat, in: emitter, into: &found)
                k -= 1
            }
        }

        /// The newest and oldest birth numbers of `cell` to look at by `time`, at `rate` births a
        /// second from `origin` (its parent's time 0): particle k is born at origin + beginTime +
        /// k / rate while the cell is active (before its `duration` ends, when it has one) and before
        /// `until` (its parent particle's death); those born more than `longest` before `time` are
        /// gone. Nil when none is born by then.
        static func births(
            of cell: EmitterCellState, rate: Double, from origin: Double, to time: Double,
            until: Double = .infinity, longest: Double
        ) -> (newest: Int, oldest: Int)? {
            let start = origin + cell.beginTime
            var end = until
            if cell.duration > 0 { end = min(end, start + cell.duration) }
            guard time >= start, end > start else { return nil }
            var newest = ((min(time, end) - start) * rate).rounded(.down)
            if newest >= 0, start + newest / rate >= end { newest -= 1 }
            let oldest = max(0, ((time - longest - start) * rate).rounded(.down))
            guard newest >= 0, newest < 9e15, oldest <= newest else { return nil }
            return (Int(newest), Int(oldest))
        }

        /// Keeps `born` when it is alive, and emits its cell's sub-cells from it.
        private mutating func add(
            _ born: ParticleBirth, cell: EmitterCellState, flat: Int, in emitter: EmitterLayerState,
            into found: inout [Particle]
        ) {
            if let particle = born.particle(at: time) {
                found.append(particle)
                budget -= 1
            }
            if !cell.cells.isEmpty { emitSubcells(of: born, cells: cell.cells, firstFlat: flat + 1, in: emitter) }
        }

        /// Emits `cells` from particle `parent` (Apple's `CAEmitterCell.emitterCells`: each particle
        /// is an emitter of its cell's sub-cells, at its current position, with directions relative
        /// to its own): sub-cell particle j is born j / rate after the parent, while the parent
        /// lives, with the sub-cell's values (and the layer's) of the parent's birth; its draws hash
        /// the parent's with (cell, j). Newest first, into `children`.
        private mutating func emitSubcells(
            of parent: ParticleBirth, cells: [EmitterCellState], firstFlat: Int, in emitter: EmitterLayerState
        ) {
            var flat = firstFlat
            for (index, cell) in cells.enumerated() {
                defer { flat += 1 + EmitterCellState.flattened(cell.cells).count }
                let rate = Double(cell.birthRate) * Double(emitter.birthRate)
                guard cell.isEnabled, rate.isFinite, rate > 0, budget > 0, candidates > 0 else { continue }
                let longest = ParticleSystem.longestLife(of: cell, in: emitter)
                guard longest > 0,
                    let (newest, oldest) = Self.births(
                        of: cell, rate: rate, from: parent.birth, to: time, until: parent.birth + parent.lifetime,
                        longest: longest)
                else { continue }
                var j = newest
                while j >= oldest, budget > 0, candidates > 0 {
                    candidates -= 1
                    let birth = parent.birth + cell.beginTime + Double(j) / rate
                    let motion = parent.velocity(at: birth)
                    let speed = (motion * motion).sum().squareRoot()
                    let base =
                        speed > 0 && speed.isFinite
                        ? (atan2(motion.y, motion.x), asin(max(-1, min(1, motion.z / speed))))
                        : (parent.longitude, parent.latitude)
                    var random = ParticleRandom(parent: parent.key, cell: index, particle: j)
                    let born = ParticleBirth(
                        cell: cell, flatIndex: flat, index: j, birth: birth, in: emitter, random: &random,
                        start: parent.position(at: birth), base: base)
                    var found: [Particle] = []
                    add(born, cell: cell, flat: flat, in: emitter, into: &found)
                    children += found
                    j -= 1
                }
            }
        }
    }
}

extension EmitterCellState {
    /// The cells of the tree `cells`, depth first: a particle's `cell` indexes this list.
    public static func flattened(_ cells: [EmitterCellState]) -> [EmitterCellState] {
        cells.flatMap { [$0] + flattened($0.cells) }
    }
}
