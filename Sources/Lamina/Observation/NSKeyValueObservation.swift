import Foundation

/// The registration that `observe(_:options:changeHandler:)` returns (Foundation's
/// `NSKeyValueObservation`): the handler is called while the observation lives, until `invalidate()`.
///
/// As on Apple platforms, keep a strong reference to it; it invalidates itself when released.
public final class NSKeyValueObservation: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private weak var list: KeyValueObserverList?
    private var id: Int?

    init(list: KeyValueObserverList, id: Int) {
        self.list = list
        self.id = id
        super.init()
    }

    /// Stops the observation: the handler is not called again. Calling it twice does nothing.
    public func invalidate() {
        let taken: Int? = lock.withLock {
            defer { id = nil }
            return id
        }
        if let taken { list?.remove(id: taken) }
    }

    deinit { invalidate() }
}
