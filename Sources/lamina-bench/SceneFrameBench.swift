import Foundation
import LaminaServer
import LaminaVulkan

/// The frame times of one tree drawn as the display's only tree at successive refreshes (1/60 s
/// apart from media time 100): the median display-list build and the median Vulkan render of the
/// last list, each over `iterations` runs. The rows of the layer-class benchmarks share it.
enum SceneFrameBench {
    /// The last list built, the media time it was built for, and the two medians in milliseconds.
    static func measure(_ tree: RenderTree, renderer: VulkanRenderer, target: any RenderTarget, iterations: Int)
        -> (list: DisplayList, time: Double, build: Double, render: Double)
    {
        var list = DisplayList(width: 0, height: 0)
        var time = 100.0
        var frame = 0
        let build = SoftwareReference.medianMilliseconds(iterations: iterations) {
            frame += 1
            time = 100 + Double(frame) / 60
            list = DisplayListBuilder.build(
                trees: [tree], display: 0, width: BenchSize.width, height: BenchSize.height,
                clearColor: SIMD4(0, 0, 0, 1), time: time)
        }
        let render = SoftwareReference.medianMilliseconds(iterations: iterations) {
            try! renderer.render(list, into: target)
            try! renderer.waitForAllFrames()
        }
        return (list, time, build, render)
    }
}
