import LaminaServer

/// Parses an output specification such as `offscreen:1280x720@60`.
public enum OutputSpecification {
    /// The kind and mode named by `text`, or a message saying what is wrong with it.
    public static func parse(_ text: String) throws(OutputSpecificationError) -> (kind: String, mode: DisplayMode) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            throw .init("expected KIND:WIDTHxHEIGHT@HZ such as offscreen:1280x720@60, got '\(text)'")
        }
        guard parts[0] == "offscreen" else {
            throw .init("unknown output kind '\(parts[0])'; this build supports 'offscreen'")
        }
        let sizeAndRate = parts[1].split(separator: "@").map(String.init)
        let size = sizeAndRate[0].split(separator: "x").compactMap { Int($0) }
        let rate = sizeAndRate.count > 1 ? Double(sizeAndRate[1]) : 60
        guard sizeAndRate.count <= 2, size.count == 2, let rate, rate > 0, rate <= 1000,
            (1...16384).contains(size[0]), (1...16384).contains(size[1])
        else {
            throw .init("bad mode '\(parts[1])': expected WIDTHxHEIGHT@HZ with sizes 1...16384 and 0 < HZ <= 1000")
        }
        return (parts[0], DisplayMode(width: size[0], height: size[1], refreshRate: rate))
    }
}
