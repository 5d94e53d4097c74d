import LaminaServer

/// Parses an output specification such as `offscreen:1280x720@60`, `window` or `window:640x480`.
public enum OutputSpecification {
    /// The output kinds this build knows.
    public static let kinds = ["offscreen", "window"]

    /// The mode of a bare `window`: 1280×720 at 60 Hz.
    public static let defaultWindowMode = DisplayMode(width: 1280, height: 720, refreshRate: 60)

    /// The kind and mode named by `text`, or a message saying what is wrong with it.
    ///
    /// `KIND:WIDTHxHEIGHT[@HZ]` with sizes 1...16384 and 0 < HZ <= 1000 (60 when left out); a bare
    /// `window` is a window of `defaultWindowMode`.
    public static func parse(_ text: String) throws(OutputSpecificationError) -> (kind: String, mode: DisplayMode) {
        if text == "window" { return (text, defaultWindowMode) }
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            throw .init(
                "expected KIND:WIDTHxHEIGHT@HZ such as offscreen:1280x720@60 (or a bare 'window'), got '\(text)'")
        }
        guard kinds.contains(parts[0]) else {
            throw .init("unknown output kind '\(parts[0])'; this build supports 'offscreen' and 'window'")
        }
        let sizeAndRate = parts[1].split(separator: "@", omittingEmptySubsequences: false).map(String.init)
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
