import LaminaServer

/// Parses an output specification such as `offscreen:1280x720@60`, `kms` or `kms:/dev/dri/card0`.
public enum OutputSpecification {
    /// The output `text` asks for, or a message saying what is wrong with it.
    public static func parse(_ text: String) throws(OutputSpecificationError) -> OutputRequest {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if parts[0] == "kms" {
            guard parts.count == 2 else { return .kms(device: nil) }
            guard parts[1].hasPrefix("/"), parts[1].count > 1 else {
                throw .init("bad KMS device '\(parts[1])': expected a path such as kms:/dev/dri/card0")
            }
            return .kms(device: parts[1])
        }
        guard parts.count == 2 else {
            throw .init(
                "expected offscreen:WIDTHxHEIGHT@HZ such as offscreen:1280x720@60, or kms[:DEVICE], got '\(text)'")
        }
        guard parts[0] == "offscreen" else {
            throw .init("unknown output kind '\(parts[0])'; this build supports 'offscreen' and 'kms'")
        }
        let sizeAndRate = parts[1].split(separator: "@").map(String.init)
        let size = sizeAndRate.first.map { $0.split(separator: "x").compactMap { Int($0) } } ?? []
        let rate = sizeAndRate.count > 1 ? Double(sizeAndRate[1]) : 60
        guard sizeAndRate.count <= 2, size.count == 2, let rate, rate > 0, rate <= 1000,
            (1...16384).contains(size[0]), (1...16384).contains(size[1])
        else {
            throw .init("bad mode '\(parts[1])': expected WIDTHxHEIGHT@HZ with sizes 1...16384 and 0 < HZ <= 1000")
        }
        return .offscreen(DisplayMode(width: size[0], height: size[1], refreshRate: rate))
    }
}
