import LaminaServer

/// Parses an output specification such as `offscreen:1280x720@60`, `window`, `window:640x480`, `kms`
/// or `kms:/dev/dri/card0`.
public enum OutputSpecification {
    /// The output kinds this build knows.
    public static let kinds = ["offscreen", "window", "kms"]

    /// The mode of a bare `window`: 1280×720 at 60 Hz.
    public static let defaultWindowMode = DisplayMode(width: 1280, height: 720, refreshRate: 60)

    /// The output `text` asks for, or a message saying what is wrong with it.
    ///
    /// `offscreen:WIDTHxHEIGHT[@HZ]` and `window:WIDTHxHEIGHT[@HZ]` with sizes 1...16384 and
    /// 0 < HZ <= 1000 (60 when left out); a bare `window` is a window of `defaultWindowMode`; `kms`
    /// is the first card with a connected connector and `kms:PATH` a given card.
    public static func parse(_ text: String) throws(OutputSpecificationError) -> OutputRequest {
        if text == "window" { return .window(defaultWindowMode) }
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
                "expected offscreen:WIDTHxHEIGHT@HZ such as offscreen:1280x720@60, window[:WIDTHxHEIGHT[@HZ]] "
                    + "or kms[:DEVICE], got '\(text)'")
        }
        guard parts[0] == "offscreen" || parts[0] == "window" else {
            throw .init("unknown output kind '\(parts[0])'; this build supports 'offscreen', 'window' and 'kms'")
        }
        let sizeAndRate = parts[1].split(separator: "@", omittingEmptySubsequences: false).map(String.init)
        let size = sizeAndRate[0].split(separator: "x").compactMap { Int($0) }
        let rate = sizeAndRate.count > 1 ? Double(sizeAndRate[1]) : 60
        guard sizeAndRate.count <= 2, size.count == 2, let rate, rate > 0, rate <= 1000,
            (1...16384).contains(size[0]), (1...16384).contains(size[1])
        else {
            throw .init("bad mode '\(parts[1])': expected WIDTHxHEIGHT@HZ with sizes 1...16384 and 0 < HZ <= 1000")
        }
        let mode = DisplayMode(width: size[0], height: size[1], refreshRate: rate)
        return parts[0] == "window" ? .window(mode) : .offscreen(mode)
    }
}
