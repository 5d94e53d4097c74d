import Foundation
import Lamina
import Testing

/// Transaction completion blocks (issue 10, point 6), as observed on Apple platforms.
@Suite(.serialized) struct TransactionCompletionTests {
    final class Recorder: @unchecked Sendable {
        let lock = NSLock()
        var events: [String] = []
        func record(_ e: String) { lock.withLock { events.append(e) } }
    }

    /// Apple: a second `setCompletionBlock` in one transaction adds to the first (both run, in the
    /// order set), and setting nil afterwards cancels neither, though `completionBlock()` then reads
    /// nil (GNUstep's QuartzCore tests run on macOS, issue 24).
    @Test func blocksAccumulate() {
        let recorder = Recorder()
        CATransaction.begin()
        CATransaction.setCompletionBlock { recorder.record("first") }
        CATransaction.setCompletionBlock { recorder.record("second") }
        #expect(CATransaction.completionBlock() != nil)
        CATransaction.setCompletionBlock(nil)
        #expect(CATransaction.completionBlock() == nil)
        CATransaction.commit()
        CAContext.dispatchPendingCallbacks()
        #expect(recorder.events == ["first", "second"])
    }

    /// Apple: a nested transaction's `completionBlock()` reads the enclosing transaction's block.
    @Test func nestedReadsEnclosing() {
        let recorder = Recorder()
        CATransaction.begin()
        CATransaction.setCompletionBlock { recorder.record("outer") }
        CATransaction.begin()
        let inherited = CATransaction.completionBlock()
        #expect(inherited != nil)
        inherited?()
        #expect(recorder.events == ["outer"])
        CATransaction.commit()
        CATransaction.commit()
        CAContext.dispatchPendingCallbacks()
        #expect(recorder.events == ["outer", "outer"])
    }
}
