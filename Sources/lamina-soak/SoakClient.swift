import Foundation
import Lamina
import LaminaTesting

/// The churning client that `lamina-soak --client` runs in a child process: connects, builds a
/// tree of random layers, animates some, commits a few transactions (large ones split into several
/// parts) and disconnects. The parent kills some of these processes while they commit.
struct SoakClient {
    /// The server's socket.
    var socketPath: String
    /// Seeds the layer counts, positions and colours.
    var seed: UInt64
    /// Commits before leaving; 0 commits until killed.
    var commits: Int

    /// Runs the client; returns the process's exit status.
    func run() -> Int32 {
        var random = SplitMix64(seed: seed)
        let context: CAContext
        do {
            context = try CAContext(socketPath: socketPath, clientName: "soak-\(seed)")
        } catch {
            FileHandle.standardError.write(Data("lamina-soak client: \(error)\n".utf8))
            return 1
        }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        context.layer = root
        var round = 0
        while commits == 0 || round < commits {
            round += 1
            CATransaction.begin()
            // Some rounds are large enough to go as several transaction parts, so a kill can land
            // between the parts of one transaction.
            let count = random.below(8) == 0 ? 3_000 + random.below(3_000) : 20 + random.below(200)
            root.sublayers = (0..<count).map { _ in Self.randomLayer(&random) }
            for layer in root.sublayers?.prefix(16) ?? [] {
                let animation = CABasicAnimation(keyPath: "position.x")
                animation.toValue = Double(random.below(320))
                animation.duration = 0.2 + Double(random.below(10)) / 10
                layer.add(animation, forKey: "move")
            }
            CATransaction.commit()
            CATransaction.flush()
            if random.below(4) == 0 { _ = try? context.capture() }
            if (try? context.ping()) == nil { return 2 }
            Thread.sleep(forTimeInterval: Double(random.below(200)) / 1000)
        }
        return 0
    }

    static func randomLayer(_ random: inout SplitMix64) -> CALayer {
        let layer = CALayer()
        layer.frame = CGRect(
            x: Double(random.below(300)), y: Double(random.below(220)),
            width: Double(4 + random.below(60)), height: Double(4 + random.below(60)))
        layer.backgroundColor = CGColor(
            red: Double(random.below(256)) / 255, green: Double(random.below(256)) / 255,
            blue: Double(random.below(256)) / 255, alpha: 0.5 + Double(random.below(128)) / 255)
        layer.cornerRadius = Double(random.below(8))
        layer.borderWidth = Double(random.below(3))
        layer.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        layer.name = "soak"
        return layer
    }
}
