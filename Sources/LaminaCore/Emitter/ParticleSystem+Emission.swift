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
            guard longest > 0 else { return }
            let newest = (time * rate).rounded(.down)
            let oldest = max(0, ((time - longest) * rate).rounded(.down))
            guard newest >= 0, newest < 9e15 else { return }
            var k = Int(newest)
            while k >= Int(oldest), budget > 0, candidates > 0 {
                candidates -= 1
                var random = ParticleRandom(seed: seed, cell: index, particle: k)
                let born = ParticleBirth(
                    cell: cell, flatIndex: flat, index: k, birth: Double(k) / rate, in: emitter, random: &random,
                    start: nil)
                add(born, cell: cell, flat: flat, in: emitter, into: &found)
                k -= 1
            }
        }

        /// Emits top-level cell `index` (`flat` depth first) with its births from `schedule` and each
        /// particle's values from `timeline` at its birth, newest first, into `found`.
        mutating func emitScheduled(
            _ index: Int, flat: Int, schedule: BirthSchedule, timeline: EmitterTimeline, into found: inout [Particle]
        ) {
            guard var k = schedule.newest(of: index) else { return }
            let longest = schedule.longest[index]
            while k >= 0, budget > 0, candidates > 0, let birth = schedule.birth(of: k, cell: index),
                birth >= time - longest
            {
                candidates -= 1
                let emitter = timeline.emitter(at: birth)
                guard index < emitter.cells.count else { return }
                let cell = emitter.cells[index]
                var random = ParticleRandom(seed: seed, cell: index, particle: k)
                let born = ParticleBirth(
                    cell: cell, flatIndex: flat, index: k, birth: birth, in: emitter, random: &random, start: nil)
                add(born, cell: cell, flat: flat, in: emitter, into: &found)
                k -= 1
            }
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
                let end = min(time, parent.birth + parent.lifetime)
                guard longest > 0, end >= parent.birth else { continue }
                var newest = ((end - parent.birth) * rate).rounded(.down)
                if newest >= 0, parent.birth + newest / rate >= parent.birth + parent.lifetime { newest -= 1 }
                let oldest = max(0, ((time - longest - parent.birth) * rate).rounded(.down))
                guard newest >= 0, newest < 9e15 else { continue }
                var j = Int(newest)
                while j >= Int(oldest), budget > 0, candidates > 0 {
                    candidates -= 1
                    let birth = parent.birth + Double(j) / rate
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
