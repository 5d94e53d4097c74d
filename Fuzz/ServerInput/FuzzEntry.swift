// libFuzzer's entry points for the in-process server-input fuzzer; built by Tools/fuzz with
// `-sanitize=fuzzer,address` and never part of the SwiftPM package.
import Foundation

/// Messages (frames) played through the harness in this process, printed at exit.
nonisolated(unsafe) var messagesPlayed = 0

/// Called by libFuzzer once per input: plays `size` bytes at `data` through the server's input path.
/// A trap, an ASan report or a broken invariant (reported by a trap) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    messagesPlayed += ServerInputHarness.run(bytes)
    return 0
}

/// Called by libFuzzer before fuzzing: arranges for the message count to be printed at exit.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutableRawPointer) -> CInt {
    atexit { print("lamina-fuzz: messages played: \(messagesPlayed)") }
    return 0
}
