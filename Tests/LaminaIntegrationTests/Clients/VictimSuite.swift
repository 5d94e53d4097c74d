import Foundation
import Lamina
import LaminaTesting

/// What the hostile-input suites share: a laminad with a 64×48 display and a victim client whose blue
/// root must keep rendering while other clients are refused. Stopping the server at the end reports a
/// bad exit or validation messages with its log.
class VictimSuite {
    let server: TestServer
    let victim: CAContext
    let victimRoot: CALayer

    init() throws {
        server = try TestServer(width: 64, height: 48)
        victim = try server.connect(name: "victim")
        victimRoot = CALayer()
        victimRoot.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        victimRoot.backgroundColor = CGColor(red: 0, green: 0.5, blue: 1, alpha: 1)
        victim.layer = victimRoot
        try victim.synchronize()
    }

    deinit {
        let report = server.stop()
        if !report.validationMessages.isEmpty || report.exitStatus != 0 {
            print("laminad ended badly (status \(report.exitStatus)):\n\(report.log)")
        }
    }
}
