import Foundation
import Lamina

/// Records the diagnostics Lamina reports (`LaminaDiagnostics`) from its creation until `stop()`,
/// beside every other live recorder: tests that run in parallel each see every diagnostic, and none
/// replaces the handler another test installed.
///
/// The first recorder installs one handler that hands each diagnostic to every live recorder, then
/// to the handler that was there before (standard error by default); it stays installed.
public final class DiagnosticsRecorder: @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var live: [ObjectIdentifier: DiagnosticsRecorder] = [:]
    nonisolated(unsafe) private static var installed = false

    private let lock = NSLock()
    private var recorded: [LaminaDiagnostic] = []

    /// Starts recording.
    public init() {
        Self.lock.withLock {
            Self.live[ObjectIdentifier(self)] = self
            guard !Self.installed else { return }
            Self.installed = true
            let previous = LaminaDiagnostics.handler
            LaminaDiagnostics.handler = { diagnostic in
                let recorders = DiagnosticsRecorder.lock.withLock { Array(DiagnosticsRecorder.live.values) }
                for recorder in recorders { recorder.lock.withLock { recorder.recorded.append(diagnostic) } }
                previous(diagnostic)
            }
        }
    }

    /// Stops recording; what was recorded stays readable.
    public func stop() {
        _ = Self.lock.withLock { Self.live.removeValue(forKey: ObjectIdentifier(self)) }
    }

    /// Everything recorded so far, in order (with other tests' diagnostics, when they run beside).
    public var diagnostics: [LaminaDiagnostic] { lock.withLock { recorded } }
}
