import CVulkan
import Testing

@testable import LaminaVulkan

/// Records when a stand-in GPU object is freed.
final class FreeLog {
    var freed: [String] = []
}

/// A stand-in for a Vulkan owner: its `deinit` is where the handles would be destroyed.
final class FakeResource {
    let name: String
    let log: FreeLog
    init(_ name: String, _ log: FreeLog) {
        self.name = name
        self.log = log
    }
    deinit { log.freed.append(name) }
}

/// The retirement list and frame timeline, driven with made-up frames and fences (no device).
@Suite struct RetirementTests {
    @Test func collectReturnsExactlyTheFinishedFramesInRetirementOrder() {
        var queue = RetirementQueue<String>()
        queue.retire("a", lastUsedBy: 3)
        queue.retire("b", lastUsedBy: 5)
        queue.retire("c", lastUsedBy: 4)
        #expect(queue.newestFrame == 5)
        #expect(queue.collect(completedThrough: 2).isEmpty)
        #expect(queue.count == 3)
        #expect(queue.collect(completedThrough: 4) == ["a", "c"])
        #expect(queue.count == 1)
        #expect(queue.collect(completedThrough: 4).isEmpty)
        #expect(queue.collect(completedThrough: 9) == ["b"])
        #expect(queue.count == 0)
        #expect(queue.newestFrame == nil)
    }

    @Test func drainHandsBackEverything() {
        var queue = RetirementQueue<Int>()
        queue.retire(1, lastUsedBy: 10)
        queue.retire(2, lastUsedBy: 20)
        #expect(queue.drain() == [1, 2])
        #expect(queue.count == 0)
    }

    @Test func graveyardFreesAnObjectOnlyWhenItsFrameFinishes() {
        let log = FreeLog()
        let graveyard = Graveyard()
        graveyard.retire(FakeResource("texture", log), lastUsedBy: 7)
        graveyard.retire(FakeResource("staging", log), lastUsedBy: 6)
        graveyard.collect(completedThrough: 5)
        #expect(log.freed.isEmpty)
        graveyard.collect(completedThrough: 6)
        #expect(log.freed == ["staging"])
        graveyard.collect(completedThrough: 7)
        #expect(log.freed == ["staging", "texture"])
        // Retiring something whose frame already finished frees it at once.
        graveyard.retire(FakeResource("old", log), lastUsedBy: 7)
        #expect(log.freed == ["staging", "texture", "old"])
        #expect(graveyard.count == 0)
    }

    @Test func closedGraveyardFreesEverythingAndLaterRetireesAtOnce() {
        let log = FreeLog()
        let graveyard = Graveyard()
        graveyard.retire(FakeResource("a", log), lastUsedBy: 3)
        graveyard.close()
        #expect(log.freed == ["a"])
        graveyard.retire(FakeResource("b", log), lastUsedBy: 100)
        #expect(log.freed == ["a", "b"])
    }

    @Test(arguments: [1, 2, 3])
    func timelineMakesEachSlotWaitForItsPreviousFrame(framesInFlight: Int) {
        var timeline = FrameTimeline(framesInFlight: framesInFlight)
        // The first `framesInFlight` frames find their slots unused.
        for frame in 1...UInt64(framesInFlight) {
            #expect(timeline.next == frame)
            #expect(timeline.mustFinishBeforeNext == nil)
            #expect(timeline.slot(of: frame) == Int(frame % UInt64(framesInFlight)))
            #expect(timeline.didSubmit() == frame)
        }
        // The next frame reuses frame 1's slot, so frame 1 must finish first.
        #expect(timeline.slot(of: timeline.next) == timeline.slot(of: 1))
        #expect(timeline.mustFinishBeforeNext == 1)
        timeline.didFinish(through: 1)
        #expect(timeline.mustFinishBeforeNext == nil)
        #expect(timeline.hasFinished(1))
        #expect(!timeline.hasFinished(2))
        // A later fence covers every earlier frame.
        timeline.didSubmit()
        timeline.didFinish(through: timeline.submitted)
        #expect(timeline.completed == UInt64(framesInFlight) + 1)
        #expect(timeline.mustFinishBeforeNext == nil)
    }

    /// A render loop against a fake device whose fences signal `latency` submissions late: every frame
    /// retires one object; none is freed before its frame's fence has signalled, and all are freed at the end.
    @Test(arguments: [(1, 0), (2, 1), (2, 3), (3, 2)])
    func renderLoopNeverFreesWhatAFrameInFlightUses(framesInFlight: Int, latency: Int) {
        let log = FreeLog()
        let graveyard = Graveyard()
        var timeline = FrameTimeline(framesInFlight: framesInFlight)
        var signalled: UInt64 = 0
        var waits = 0
        for _ in 0..<20 {
            // The fake device finishes frames `latency` behind the newest submission.
            if timeline.submitted > UInt64(latency) { signalled = max(signalled, timeline.submitted - UInt64(latency)) }
            timeline.didFinish(through: signalled)
            if let needed = timeline.mustFinishBeforeNext {
                // Blocking on the slot's fence: the fake device finishes that frame now.
                waits += 1
                signalled = needed
                timeline.didFinish(through: signalled)
            }
            graveyard.collect(completedThrough: timeline.completed)
            let frame = timeline.didSubmit()
            graveyard.retire(FakeResource("\(frame)", log), lastUsedBy: frame)
            for name in log.freed { #expect(UInt64(name)! <= signalled, "frame \(name) freed before its fence") }
        }
        #expect(graveyard.count <= framesInFlight)
        // With the device at most `framesInFlight - 1` frames behind, the loop never waits.
        #expect((waits == 0) == (latency < framesInFlight))
        graveyard.close()
        #expect(log.freed.count == 20)
    }

    @Test func vulkanErrorNamesTheResultAndOneCall() {
        let error = VulkanError(VK_ERROR_DEVICE_LOST, call: "vkQueueSubmit")
        #expect(error.description == "vkQueueSubmit failed: VK_ERROR_DEVICE_LOST (-4)")
        #expect(error.resultName == "VK_ERROR_DEVICE_LOST")
        let unknown = VulkanError(VkResult(rawValue: -77), call: "vkCreateFence")
        #expect(unknown.description == "vkCreateFence failed: VkResult (-77)")
        #expect(
            VulkanError(VK_ERROR_OUT_OF_DEVICE_MEMORY, call: "vkAllocateMemory").description
                == "vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY (-2)")
    }
}
