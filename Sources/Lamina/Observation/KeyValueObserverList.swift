import Foundation

/// The key-value observers registered on one layer or animation, and the changes in flight.
///
/// A registration under `anyKey` (a typed observation of a key path Lamina cannot name, such as a
/// subclass's own property) takes part in the change of every key: it reads its value before and
/// after, and sends the change when the two differ (for values that are not `Hashable`, whenever a
/// key of the object changed).
///
/// Each registration watches one key and carries two steps: before a change (it reads the old value
/// when it needs one, and sends the prior change when asked) and after it (it sends the change).
/// Steps run synchronously on the thread that sets the value, outside the list's lock, so a handler
/// may add or remove observers. A change that `willChange(_:)` opened is closed by the next
/// `didChange(_:posting:)` of the same key (they nest, innermost first).
final class KeyValueObserverList: @unchecked Sendable {
    /// One registration.
    final class Registration {
        let id: Int
        let key: String
        /// The observer of a registration made with `addObserver`; nil for `observe`'s.
        weak var observer: AnyObject?
        let context: UnsafeMutableRawPointer?
        let before: () -> Void
        let after: (_ post: Bool) -> Void

        init(
            id: Int, key: String, observer: AnyObject?, context: UnsafeMutableRawPointer?,
            before: @escaping () -> Void, after: @escaping (Bool) -> Void
        ) {
            self.id = id
            self.key = key
            self.observer = observer
            self.context = context
            self.before = before
            self.after = after
        }
    }

    /// Which change a registration sends.
    enum Phase {
        /// Before the value changes (`.prior`).
        case prior
        /// After it changed.
        case change
        /// At registration (`.initial`): no old value.
        case initial
    }

    /// Old values read before a change, until the change is sent.
    private final class Olds {
        var values: [Any?] = []
    }

    /// The key of registrations that watch every key.
    static let anyKey = "\u{0}any"

    private let lock = NSLock()
    private var registrations: [Registration] = []
    private var inFlight: [String: [[Registration]]] = [:]
    private var nextID = 1

    /// Whether any registration watches `key`.
    func observes(_ key: String) -> Bool {
        lock.withLock { registrations.contains { $0.key == key || $0.key == Self.anyKey } }
    }

    /// Registers a watcher of `key`: `read` gives the current value (boxed), `deliver` sends a
    /// change with the old value (when `.old` asked for it), the new value (with `.new`) and its
    /// phase. With `.initial` a first change is sent at once.
    @discardableResult
    func register(
        key: String, options: NSKeyValueObservingOptions, observer: AnyObject?, context: UnsafeMutableRawPointer?,
        read: @escaping () -> Any?, deliver: @escaping (_ old: Any?, _ new: Any?, _ phase: Phase) -> Void
    ) -> Int {
        let olds = Olds()
        let compares = key == Self.anyKey
        let wantsOld = options.contains(.old) || compares
        let wantsNew = options.contains(.new) || compares
        let wantsPrior = options.contains(.prior)
        let registration: Registration = lock.withLock {
            defer { nextID += 1 }
            return Registration(
                id: nextID, key: key, observer: observer, context: context,
                before: {
                    let old = wantsOld ? read() : nil
                    olds.values.append(old)
                    if wantsPrior { deliver(old, nil, .prior) }
                },
                after: { post in
                    let old = olds.values.popLast() ?? nil
                    guard post else { return }
                    let new = wantsNew ? read() : nil
                    if compares, let a = old as? AnyHashable, let b = new as? AnyHashable, a == b { return }
                    deliver(
                        options.contains(.old) ? old : nil, options.contains(.new) ? new : nil, .change)
                })
        }
        lock.withLock { registrations.append(registration) }
        if options.contains(.initial) { deliver(nil, wantsNew ? read() : nil, .initial) }
        return registration.id
    }

    /// Removes the registration `id` (an `NSKeyValueObservation`'s).
    func remove(id: Int) {
        lock.withLock { registrations.removeAll { $0.id == id } }
    }

    /// Removes the most recent registration of `observer` for `key` (and `context`, when
    /// `matchingContext`); false when there is none.
    @discardableResult
    func remove(
        observer: AnyObject, key: String, context: UnsafeMutableRawPointer?, matchingContext: Bool
    ) -> Bool {
        lock.withLock {
            guard
                let index = registrations.lastIndex(where: {
                    $0.observer === observer && $0.key == key && (!matchingContext || $0.context == context)
                })
            else { return false }
            registrations.remove(at: index)
            return true
        }
    }

    /// Opens a change of `key`: every registration watching it takes its step before the change.
    func willChange(_ key: String) {
        let watching: [Registration] = lock.withLock {
            let list = registrations.filter { $0.key == key || $0.key == Self.anyKey }
            inFlight[key, default: []].append(list)
            return list
        }
        for registration in watching { registration.before() }
    }

    /// Closes the innermost open change of `key`: the registrations that saw it open send the change,
    /// unless `posting` is false (the value did not change).
    func didChange(_ key: String, posting: Bool = true) {
        let watching: [Registration] = lock.withLock {
            guard var stack = inFlight[key], let list = stack.popLast() else { return [] }
            inFlight[key] = stack.isEmpty ? nil : stack
            return list
        }
        for registration in watching { registration.after(posting) }
    }

    /// Registers `observer` for `keyPath` of `object` (the work of `addObserver(_:forKeyPath:options:context:)`):
    /// the change dictionary carries the values `read` gives. The registration watches the key path's
    /// first key. An observer that does not conform to `NSKeyValueObserving` cannot be called: it is
    /// reported to `LaminaDiagnostics` and not registered (Apple raises an exception when such an
    /// observer is sent a change).
    func add(
        _ observer: NSObject, keyPath: String, of object: AnyObject, options: NSKeyValueObservingOptions,
        context: UnsafeMutableRawPointer?, read: @escaping () -> Any?
    ) {
        guard observer is NSKeyValueObserving else {
            LaminaDiagnostics.report(
                .refusedValue,
                "addObserver(_:forKeyPath: \"\(keyPath)\"): \(type(of: observer)) does not conform to "
                    + "NSKeyValueObserving, so it cannot be sent changes; not registered")
            return
        }
        let key = keyPath.split(separator: ".", maxSplits: 1).first.map(String.init) ?? keyPath
        register(
            key: key, options: options, observer: observer, context: context, read: read,
            deliver: { [weak observer, weak object] old, new, phase in
                guard let target = observer as? NSKeyValueObserving, let object else { return }
                var change: [NSKeyValueChangeKey: Any] = [.kindKey: NSNumber(value: NSKeyValueChange.setting.rawValue)]
                if options.contains(.old), phase != .initial { change[.oldKey] = old ?? NSNull() }
                if phase == .prior {
                    change[.notificationIsPriorKey] = NSNumber(value: true)
                } else if options.contains(.new) {
                    change[.newKey] = new ?? NSNull()
                }
                target.observeValue(forKeyPath: keyPath, of: object, change: change, context: context)
            })
    }

    /// Registers a typed observation of `keyPath` on `object` under `key`, or under every key when
    /// `key` is nil (the work of `observe(_:options:changeHandler:)`).
    func observe<Object: AnyObject, Value>(
        _ object: Object, _ keyPath: KeyPath<Object, Value>, key: String?, options: NSKeyValueObservingOptions,
        handler: @escaping (Object, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let id = register(
            key: key ?? Self.anyKey, options: options, observer: nil, context: nil,
            read: { [weak object] () -> Any? in
                guard let object else { return nil }
                return object[keyPath: keyPath] as Any
            },
            deliver: { [weak object] old, new, phase in
                guard let object else { return }
                let change = NSKeyValueObservedChange<Value>(
                    kind: .setting, newValue: new.flatMap { $0 as? Value }, oldValue: old.flatMap { $0 as? Value },
                    indexes: nil, isPrior: phase == .prior)
                handler(object, change)
            })
        return NSKeyValueObservation(list: self, id: id)
    }
}
