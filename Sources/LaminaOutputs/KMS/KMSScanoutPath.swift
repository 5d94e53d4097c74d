import LaminaServer

/// How a KMS output gets each frame into the buffer it scans out (`KMSOutput.scanoutPath`, logged and
/// listed by `laminactl displays`). Tried best first; `dumb` always works.
public enum KMSScanoutPath: String, CaseIterable, Sendable, CustomStringConvertible {
    /// GBM buffers imported by the renderer as dma-bufs: the GPU writes the frame into the buffer the
    /// display scans out; the CPU copies nothing. Needs `VK_EXT_external_memory_dma_buf`.
    case dmaBuf = "dma-buf"
    /// GBM buffers mapped and imported by the renderer as host memory: a CPU device (lavapipe) writes
    /// the frame straight into the scan-out buffer; nothing is read back. Needs
    /// `VK_EXT_external_memory_host`.
    case mapped
    /// Dumb buffers: each frame is read back from the renderer and copied into one by laminad.
    case dumb

    /// The name `--output kms:…,scanout=NAME` takes and logs print.
    public var description: String { rawValue }

    /// The renderer import the path needs; nil for `dumb`.
    public var scanoutImport: ScanoutImport? {
        switch self {
        case .dmaBuf: .dmaBuf
        case .mapped: .hostMapping
        case .dumb: nil
        }
    }

    /// The paths to try for `choice`, in order: every path for nil (`auto`), else the one chosen and
    /// then `dumb`.
    public static func candidates(for choice: KMSScanoutPath?) -> [KMSScanoutPath] {
        guard let choice else { return allCases }
        return choice == .dumb ? [.dumb] : [choice, .dumb]
    }
}
