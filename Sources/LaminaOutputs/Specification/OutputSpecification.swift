import LaminaServer

/// Parses an output specification such as `offscreen:1280x720@60`, `window`, `window:640x480`, `kms`,
/// `kms:/dev/dri/card0` or `kms:/dev/dri/card0,scanout=dumb`.
public enum OutputSpecification {
    /// The output kinds this build knows.
    public static let kinds = ["offscreen", "window", "kms"]

    /// The mode of a bare `window`: 1280×720 at 60 Hz.
    public static let defaultWindowMode = DisplayMode(width: 1280, height: 720, refreshRate: 60)

    /// The output `text` asks for, or a message saying what is wrong with it.
    ///
    /// `offscreen:WIDTHxHEIGHT[@HZ]` and `window:WIDTHxHEIGHT[@HZ]` with sizes 1...16384 and
    /// 0 < HZ <= 1000 (60 when left out); a bare `window` is a window of `defaultWindowMode`; `kms`
    /// is the first card with a connected connector and `kms:PATH` a given card, either followed by
    /// `,scanout=` and `auto` (the default), `dma-buf`, `mapped` or `dumb` (`KMSScanoutPath`).
    public static func parse(_ text: String) throws(OutputSpecificationError) -> OutputRequest {
        if text == "window" { return .window(defaultWindowMode) }
        if text == "kms" || text.hasPrefix("kms:") || text.hasPrefix("kms,") {
            return try parseKMS(String(text.dropFirst(3)))
        }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
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

    /// What follows `kms`: nothing, `:PATH`, and then `,scanout=PATH`.
    static func parseKMS(_ rest: String) throws(OutputSpecificationError) -> OutputRequest {
        var rest = Substring(rest)
        var scanout: KMSScanoutPath?
        if let comma = rest.firstIndex(of: ",") {
            let option = rest[rest.index(after: comma)...]
            rest = rest[..<comma]
            let names = ["auto"] + KMSScanoutPath.allCases.map(\.rawValue)
            guard option.hasPrefix("scanout="), names.contains(String(option.dropFirst(8))) else {
                throw .init(
                    "bad KMS option '\(option)': expected scanout= and one of \(names.joined(separator: ", "))")
            }
            scanout = KMSScanoutPath(rawValue: String(option.dropFirst(8)))
        }
        guard !rest.isEmpty else { return .kms(device: nil, scanout: scanout) }
        let path = rest.dropFirst()
        guard rest.first == ":", path.hasPrefix("/"), path.count > 1 else {
            throw .init("bad KMS device '\(path)': expected a path such as kms:/dev/dri/card0")
        }
        return .kms(device: String(path), scanout: scanout)
    }
}
