import Logging
import LaminaServer

/// The two buffers a KMS output scans out, and how frames get into them (`KMSScanoutPath`).
enum KMSScanout {
    /// Dumb buffers, filled by the CPU from the read-back frame.
    case dumb([KMSDumbBuffer])
    /// GBM buffers the renderer copies each frame into.
    case imported([KMSGBMBuffer], path: KMSScanoutPath, renderer: any ScanoutCopying)
    /// None: the output closed and gave its buffers back.
    case released

    /// The path frames take.
    var path: KMSScanoutPath {
        switch self {
        case .imported(_, let path, _): path
        case .dumb, .released: .dumb
        }
    }

    /// The framebuffer of buffer `index`, or nil once released.
    func framebuffer(_ index: Int) -> UInt32? {
        switch self {
        case .dumb(let buffers): buffers[index].framebuffer
        case .imported(let buffers, _, _): buffers[index].framebuffer
        case .released: nil
        }
    }

    /// Two `width` × `height` buffers on `device` by the first of `candidates` that works with
    /// `renderer`; each path that fails is logged with the call that failed. Throws only when dumb
    /// buffers fail too (or were not among the candidates).
    static func make(
        device: KMSDevice, width: Int, height: Int, candidates: [KMSScanoutPath], renderer: any Renderer,
        logger: Logger
    ) throws -> KMSScanout {
        var failure: (any Error)?
        for path in candidates {
            do {
                guard let kind = path.scanoutImport else {
                    return .dumb(
                        try (0..<2).map { _ in try KMSDumbBuffer(device: device, width: width, height: height) })
                }
                guard let copier = renderer as? any ScanoutCopying, copier.scanoutImports.contains(kind) else {
                    logger.info(
                        "KMS scan-out path unavailable",
                        metadata: ["path": "\(path)", "reason": "the renderer cannot import a \(kind)"])
                    continue
                }
                guard let gbm = device.gbm() else { continue }
                let buffers = try (0..<2).map { _ in
                    try KMSGBMBuffer(
                        kms: device, gbm: gbm, width: width, height: height, kind: kind, renderer: copier)
                }
                return .imported(buffers, path: path, renderer: copier)
            } catch {
                logger.warning("KMS scan-out path failed", metadata: ["path": "\(path)", "error": "\(error)"])
                failure = error
            }
        }
        throw failure ?? KMSError(call: "KMSScanout.make", detail: "no scan-out path among \(candidates)")
    }
}
