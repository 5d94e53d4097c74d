import Foundation
import LaminaTesting
import Testing

@testable import Lamina

/// The client's diagnostics go through the one `LaminaDiagnostics` hook, with their kind and text.
@Suite(.serialized) struct DiagnosticsTests {
    /// A handler installed for the test receives a refused hierarchy change, a refused
    /// `setValue(_:forKeyPath:)` and a refused animation, each once, in order, with the right kind
    /// and text; none of them changes the layer. The default handler is restored afterwards.
    @Test func installedHandlerReceivesRefusals() {
        let recorder = DiagnosticsRecorder()
        defer { recorder.stop() }

        let parent = CALayer()
        let child = CALayer()
        child.name = "probe"
        parent.addSublayer(child)
        child.addSublayer(parent)
        child.setValue("half", forKeyPath: "opacity")
        let bad = CABasicAnimation(keyPath: "opacity")
        bad.toValue = 0.5
        bad.duration = -1
        child.add(bad, forKey: "bad")

        let expected = [
            LaminaDiagnostic(
                kind: .refusedHierarchy,
                message: "refusing to add layer \(parent.layerID) to its own subtree (layer \(child.layerID))"),
            LaminaDiagnostic(
                kind: .refusedValue,
                message: "setValue(_:forKeyPath:) on layer \(child.layerID): the value for 'opacity' is String "
                    + "(half), but the key path takes a number"),
            LaminaDiagnostic(
                kind: .refusedAnimation,
                message: "animation 'bad' not added to layer \(child.layerID) (probe): duration -1.0 is not a "
                    + "finite non-negative number"),
        ]
        // Suites running in parallel may report diagnostics of their own; keep this test's.
        let ours = recorder.diagnostics.filter { expected.contains($0) }
        #expect(ours == expected)
        #expect(parent.superlayer == nil)
        #expect(child.sublayers == nil)
        #expect(child.opacity == 1)
        #expect(child.animationKeys() == nil)
    }

    /// The default handler writes `Lamina: `, the message and a newline to standard error: with
    /// file descriptor 2 pointed at a file for the moment of the call, the file holds that line.
    @Test func defaultHandlerWritesOneLineToStandardError() throws {
        let diagnostic = LaminaDiagnostic(kind: .commitNotSent, message: "commit 7 not sent: probe \(UUID())")
        #expect(diagnostic.description == "Lamina: \(diagnostic.message)")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-stderr-\(UUID())").path
        let file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(file >= 0)
        defer {
            close(file)
            unlink(path)
        }
        let saved = dup(STDERR_FILENO)
        try #require(saved >= 0)
        dup2(file, STDERR_FILENO)
        LaminaDiagnostics.standardError(diagnostic)
        dup2(saved, STDERR_FILENO)
        close(saved)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        // Another suite may write to standard error in the same moment; this line is there whole.
        #expect(written.split(separator: "\n").contains { $0 == "Lamina: \(diagnostic.message)" })
        #expect(written.hasSuffix("\n"))
    }
}
