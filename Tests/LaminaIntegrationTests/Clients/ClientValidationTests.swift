import Foundation
import Lamina
import LaminaTesting
import Testing

/// A value the server would refuse (NaN or infinite geometry, a negative radius or width) is not sent:
/// the client warns, stays connected, and the server keeps the last valid value.
@Suite(.serialized) final class ClientValidationTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 40, height: 30)
    }

    deinit {
        server.stop()
    }

    @Test func invalidValuesAreNotSentAndTheClientStaysConnected() throws {
        let context = try server.connect(name: "careless")
        let root = CALayer()
        root.name = "careless-root"
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        root.cornerRadius = 4
        context.layer = root
        try context.synchronize()

        root.cornerRadius = -1
        root.borderWidth = -2
        root.position = CGPoint(x: CGFloat.nan, y: 0)
        root.bounds = CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 30)
        root.name = "careless-root " + String(repeating: "é", count: 3000)
        try context.synchronize()

        let tree = try context.describeTree()
        #expect(tree.contains("cornerRadius=4"), "\(tree)")
        #expect(tree.contains("bounds=0,0,40,30 position=20,15"), "\(tree)")
        #expect(tree.contains("\"careless-root éé"), "a long name is shortened, not refused")
        let image = try context.capture()
        #expect(image.pixel(x: 20, y: 15) == (255, 255, 0, 255))
        #expect(server.isRunning)
    }
}
