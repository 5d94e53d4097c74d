/// What an offscreen pass draws, as one number: two passes with the same key draw the same pixels, so
/// a renderer that still holds the image of a pass with this frame's key keeps it and does not draw the
/// pass again (docs/rendering.md, "Kept passes").
///
/// The key covers the pass's rectangle, scale, canvas and mapping (`mapsOwnTexels`), and each batch's kind, sampling and instance
/// bytes, in order. A batch that samples another pass takes that pass's key in place of its index
/// (indices move between frames, contents do not). A pass that samples an image whose pixels change
/// under the same id (a client's shared surface, an image a target draws into) has no key, nor has any
/// pass that samples it: such a pass is drawn every frame.
extension DisplayList {
    /// The content key of each pass, by index (nil: the pass is drawn every frame). `changesInPlace`
    /// says which imported images may hold other pixels under the same id. Passes before `first` are
    /// left out (nil), and so are the passes that sample them.
    public func passContentKeys(from first: Int = 0, changesInPlace: (RenderImageID) -> Bool = { _ in false })
        -> [UInt64?]
    {
        var keys = [UInt64?](repeating: nil, count: min(max(0, first), passes.count))
        keys.reserveCapacity(passes.count)
        for pass in passes[keys.count...] {
            keys.append(contentKey(of: pass, earlier: keys, changesInPlace: changesInPlace))
        }
        return keys
    }

    /// The content key of `pass`, whose batches may sample the passes before it (their keys: `earlier`).
    func contentKey(of pass: OffscreenPass, earlier: [UInt64?], changesInPlace: (RenderImageID) -> Bool)
        -> UInt64?
    {
        var h = PassHasher()
        h.mix(UInt64(bitPattern: Int64(pass.rect.x)), UInt64(bitPattern: Int64(pass.rect.y)))
        h.mix(UInt64(pass.rect.width), UInt64(pass.rect.height))
        h.mix(
            UInt64(pass.scale), UInt64(bitPattern: Int64(pass.canvas?.x ?? -1)),
            UInt64(bitPattern: Int64(pass.canvas?.y ?? -1)))
        h.mix(pass.mapsOwnTexels ? 1 : 0, 0)
        for batch in pass.batches {
            h.mix(UInt64(batch.kind), UInt64(batch.instances.count))
            if let texture = batch.texture {
                if let index = texture.image.offscreenPassIndex {
                    guard index < earlier.count, let inner = earlier[index] else { return nil }
                    h.mix(0x7061_7373, inner)
                } else {
                    guard !changesInPlace(texture.image) else { return nil }
                    h.mix(texture.image.rawValue)
                }
                let filter = TextureFilter.allCases.firstIndex(of: texture.filter) ?? 0
                h.mix(UInt64(filter), UInt64(texture.lodBias.bitPattern))
            }
            guard batch.kind < instances.count else { return nil }
            let buffer = instances[batch.kind]
            let stride = buffer.stride
            buffer.bytes.withUnsafeBytes { p in
                for index in batch.instances {
                    let start = Int(index) * stride
                    guard index >= 0, start + stride <= p.count else { continue }
                    h.mix(bytes: UnsafeRawBufferPointer(rebasing: p[start..<(start + stride)]))
                }
            }
        }
        return h.value
    }
}

/// FNV-1a over 8-byte words with a shift mixed in, as `DamageTracker.hash` does: fast, stable within
/// a process, and no seed (two lists built apart hash alike).
struct PassHasher {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Mixes in `words`, in order.
    mutating func mix(_ words: UInt64...) {
        for word in words { step(word) }
    }

    /// Mixes in `bytes`: eight at a time, then what is left one by one.
    mutating func mix(bytes: UnsafeRawBufferPointer) {
        var k = 0
        while k + 8 <= bytes.count {
            step(bytes.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            k += 8
        }
        while k < bytes.count {
            step(UInt64(bytes[k]))
            k += 1
        }
    }

    private mutating func step(_ word: UInt64) {
        value = (value ^ word) &* 0x100_0000_01b3
        value ^= value >> 29
    }
}
