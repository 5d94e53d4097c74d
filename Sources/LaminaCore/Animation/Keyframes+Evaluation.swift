import Foundation

extension Keyframes {
    func apply(_ target: PropertyTarget, fraction: Double, iteration: Double, to state: inout LayerState) {
        if let pathTimeline {
            guard let point = pathTimeline.point(at: fraction) else { return }
            let start = pathTimeline.point(at: 0) ?? point
            let end = pathTimeline.point(at: 1) ?? point
            target.write(.point(point), start: .point(start), end: .point(end), iteration: iteration, to: &state)
            if let rotationMode, var angle = pathTimeline.tangentAngle(at: fraction) {
                if rotationMode == .rotateAutoReverse { angle += .pi }
                state.transform = CATransform3DRotate(state.transform, angle, 0, 0, 1)
            }
            return
        }
        if let valueTimeline, let fade = valueTimeline.imageFade(at: fraction) {
            target.writeImage(from: fade.from, to: fade.to, progress: fade.progress, to: &state)
            return
        }
        guard let valueTimeline, let value = valueTimeline.value(at: fraction),
            let first = values.first, let last = values.last
        else { return }
        target.write(value, start: first, end: last, iteration: iteration, to: &state)
    }
}
