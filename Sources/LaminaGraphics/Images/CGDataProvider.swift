import Foundation

/// The release callback of `CGDataProvider(dataInfo:data:size:releaseData:)`, as Apple declares it:
/// the info pointer, the data pointer and the size.
public typealias CGDataProviderReleaseDataCallback =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer, Int) -> Void

/// A source of bytes for images, mirroring Core Graphics' `CGDataProvider`.
///
/// Lamina's provider holds its bytes in memory: a file or URL is read once, when the provider is
/// created (nil when it cannot be read), and bytes handed in by pointer are copied then. Instances
/// never change, so sharing one across threads is safe.
public final class CGDataProvider: @unchecked Sendable {
    /// The bytes.
    let bytes: Data
    /// The release callback and its arguments, for providers made from a pointer.
    private let release:
        (
            callback: CGDataProviderReleaseDataCallback, info: UnsafeMutableRawPointer?,
            data: UnsafeRawPointer, size: Int
        )?

    /// A provider of `bytes`.
    init(bytes: Data) {
        self.bytes = bytes
        release = nil
    }

    /// A provider of the bytes of `data` (`CGDataProvider(data: d as CFData)`).
    ///
    /// Apple's initialiser is failable; Lamina's never fails.
    public init?(data: CFData) {
        bytes = data as Data
        release = nil
    }

    /// A provider of the contents of the file at `url` (`CGDataProvider(url: u as CFURL)`); nil
    /// when the file cannot be read.
    public convenience init?(url: CFURL) {
        guard let contents = try? Data(contentsOf: url as URL) else { return nil }
        self.init(bytes: contents)
    }

    /// A provider of the contents of the file at `filename`; nil when it cannot be read.
    public convenience init?(filename: UnsafePointer<CChar>) {
        guard let contents = FileManager.default.contents(atPath: String(cString: filename)) else { return nil }
        self.init(bytes: contents)
    }

    /// A provider of `size` bytes at `data`, copied now; `releaseData` is called with `info`,
    /// `data` and `size` when the provider is freed, as Apple calls it when it no longer needs the
    /// bytes. Nil for a negative size.
    public init?(
        dataInfo info: UnsafeMutableRawPointer?, data: UnsafeRawPointer, size: Int,
        releaseData: CGDataProviderReleaseDataCallback
    ) {
        guard size >= 0 else { return nil }
        bytes = Data(bytes: data, count: size)
        release = (releaseData, info, data, size)
    }

    deinit {
        if let release { release.callback(release.info, release.data, release.size) }
    }

    /// A copy of the provider's bytes.
    public var data: CFData? { bytes as CFData }
}
