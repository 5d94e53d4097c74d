import Foundation
import LaminaVulkan
import Testing

/// The one Vulkan device (instance and logical device, validation on) that this process's in-process
/// renderer tests draw with, one test at a time.
///
/// An instance per test, with hundreds of tests running in parallel on a many-core machine, made
/// `vkCreateInstance` fail with `VK_ERROR_INCOMPATIBLE_DRIVER`. A device's queue may be used by one
/// thread at a time and its validation messages go to one sink, so `withRenderer` runs its callers
/// in turn, each with a renderer of its own and the messages that arrived during its turn.
enum SharedVulkanDevice {
    /// The device, made on first use; a failure to make it fails every turn.
    private final class Storage: @unchecked Sendable {
        /// Guards `made`.
        let lock = NSLock()
        /// Held for a whole turn.
        let turn = NSLock()
        var made: Result<VulkanDevice, any Error>?

        var device: Result<VulkanDevice, any Error> {
            lock.withLock {
                if let made { return made }
                let result = Result { try VulkanDevice(validation: true) }
                made = result
                return result
            }
        }
    }
    private static let storage = Storage()

    /// The validation messages of one turn.
    struct Validation {
        let sink: ValidationSink
        let start: Int

        /// The messages that arrived since the turn began.
        var messages: [String] { Array(sink.messages.dropFirst(start)) }
    }

    /// The device, for a look at what it supports (made on first use); nil when it cannot be made.
    static var device: VulkanDevice? { try? storage.device.get() }

    /// Runs `body` with a new renderer on the shared device, once every earlier turn has ended, and
    /// frees the renderer before the next turn begins. `body` reads its own validation messages
    /// from the `Validation` it is given; any that freeing the renderer causes are recorded as an
    /// issue.
    static func withRenderer<T>(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: (VulkanRenderer, Validation) throws -> T
    ) throws -> T {
        storage.turn.lock()
        defer { storage.turn.unlock() }
        let device = try storage.device.get()
        guard let sink = device.validation else { preconditionFailure("the shared device has validation on") }
        let validation = Validation(sink: sink, start: sink.messages.count)
        let result: T
        var seen = 0
        do {
            let renderer = try VulkanRenderer(device: device)
            result = try withExtendedLifetime(renderer) {
                defer { seen = validation.messages.count }
                return try body(renderer, validation)
            }
        }
        // The renderer is freed by now: its last reference ended with the block above.
        let freeing = validation.messages.dropFirst(seen)
        if !freeing.isEmpty {
            Issue.record("validation while freeing the renderer: \(Array(freeing))", sourceLocation: sourceLocation)
        }
        return result
    }
}
