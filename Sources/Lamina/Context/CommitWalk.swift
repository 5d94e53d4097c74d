import LaminaProtocol

/// One commit's walk over a context's tree (`CAContext.changeOperations`): the operations found so
/// far, the layers reached, and the layers still to visit.
///
/// The layers to visit are unretained: the tree holds each of them for the whole walk (see
/// `changeOperations`). A layer the walk reaches only through a record's weak reference, which the
/// tree may no longer hold, is kept alive in `kept` until the walk ends.
struct CommitWalk {
    /// The operations found so far, in the order they are sent.
    var ops: [LayerOperation] = []
    /// The ids of the layers visited.
    var reachable = Set<LayerID>()
    /// The layers still to visit, the next one last.
    var stack: [Unmanaged<CALayer>] = []
    /// The layers on `stack` that the tree may not hold.
    private(set) var kept: [CALayer] = []
    /// The media time of the commit.
    let now: Double
    /// The committing thread's transaction stack.
    let committer: CATransaction.State.Stack

    init(now: Double, committer: CATransaction.State.Stack) {
        self.now = now
        self.committer = committer
    }

    /// Pushes `sublayers` (back to front) and `mask`, held by the tree, so that they are visited
    /// next: the mask first, then the sublayers front to back.
    mutating func push(_ sublayers: [CALayer], mask: CALayer?) {
        // Read through the buffer, so that no layer is retained on the way.
        sublayers.withUnsafeBufferPointer { buffer in
            var index = buffer.count
            while index > 0 {
                index -= 1
                stack.append(.passUnretained(buffer[index]))
            }
        }
        if let mask { stack.append(.passUnretained(mask)) }
    }

    /// Pushes `layers`, in that order, keeping each alive until the walk ends.
    mutating func keepAndPush(_ layers: [CALayer]) {
        kept += layers
        for layer in layers { stack.append(.passUnretained(layer)) }
    }
}
