import Foundation
import LaminaCore

/// Core Image filters on a layer (`filters`, `backgroundFilters`, `compositingFilter`), as on macOS:
/// the layer keeps its own copies of the `CIFilter`s it is given, under Core Animation's keys, and
/// sends the render server what it draws (`LayerFilterState`). A filter's parameter changes through
/// the layer's key paths (`setValue(20, forKeyPath: "filters.blur.inputRadius")`), which runs the
/// implicit basic animation of App. B and animates on the server's clock; the filter object given is
/// never changed. The server draws `CIGaussianBlur` and the separable blend modes; another filter
/// name is reported once to `LaminaDiagnostics` and ignored (docs/apple-differences.md).
extension CALayer {
    /// The filters applied to the layer's own drawing (background, contents, border and sublayers),
    /// in order; nil by default. Each element is a `CIFilter` (copied when set); other elements are
    /// ignored. The server draws `CIGaussianBlur`: the layer's drawing blurred with a Gaussian whose
    /// standard deviation is `inputRadius` points.
    public var filters: [Any]? {
        get { kvcStorage["filters"] as? [Any] }
        set { setFilterList(newValue, key: "filters", row: .filters) }
    }

    /// The filters applied to what lies behind the layer (what was drawn before it), shown within the
    /// layer's rounded bounds; nil by default. Each element is a `CIFilter` (copied when set).
    public var backgroundFilters: [Any]? {
        get { kvcStorage["backgroundFilters"] as? [Any] }
        set { setFilterList(newValue, key: "backgroundFilters", row: .backgroundFilters) }
    }

    /// How the layer is combined with what lies behind it: a `CIFilter` of a separable blend mode
    /// (`CIFilter(name: "CIMultiplyBlendMode")`) or its name as a string (`"multiplyBlendMode"`);
    /// nil by default (source over). Not animated (App. B lists no action).
    public var compositingFilter: Any? {
        get { kvcStorage["compositingFilter"] }
        set {
            var value = newValue is NSNull ? nil : newValue
            if let filter = value as? CIFilter { value = filter.copy() }
            let name = (value as? CIFilter)?.filterName ?? (value as? String)
            var mode = LayerBlendMode.normal
            if let name {
                if let known = LayerBlendMode(filterName: name) {
                    mode = known
                } else {
                    Self.reportIgnoredFilter(name)
                }
            } else if let value {
                Self.reportIgnoredFilter("\(type(of: value))")
            }
            // Recorded as set (archiving), with one change notice for the key, from the row's update.
            keyRecord.noteSet("compositingFilter")
            update(
                .compositingFilter, storing: { $0[.compositingFilter] = .number(Double(mode.rawValue)) },
                alongside: { self.kvcStorage["compositingFilter"] = value })
        }
    }

    /// Stores copies of `list`'s filters under `key` and sends what the server draws in `row`.
    func setFilterList(_ list: [Any]?, key: String, row: LayerPropertyName) {
        let copies = list.map { items in items.map { ($0 as? CIFilter)?.copy() ?? $0 } }
        let filters = LayerValue.filters(Self.serverFilters(copies))
        // Recorded as set (archiving), with one change notice for the key, from the row's update.
        keyRecord.noteSet(key)
        update(row, storing: { $0[row] = filters }, alongside: { self.kvcStorage[key] = copies })
    }

    /// What the server draws of a filter list: its enabled `CIFilter`s, in order, at most
    /// `LayerFilter.maxFilters`. A filter the server does not draw is reported once per name.
    static func serverFilters(_ list: [Any]?) -> [LayerFilter] {
        var out: [LayerFilter] = []
        for item in list ?? [] {
            guard let filter = item as? CIFilter else {
                reportIgnoredFilter("\(type(of: item))")
                continue
            }
            guard filter.isEnabled else { continue }
            if !filter.layerFilter.isGaussianBlur { reportIgnoredFilter(filter.filterName) }
            guard out.count < LayerFilter.maxFilters else { continue }
            out.append(filter.layerFilter)
        }
        return out
    }

    /// The filter names already reported as not drawn (each is reported once per process).
    nonisolated(unsafe) static var reportedFilterNames: Set<String> = []
    /// Guards `reportedFilterNames`.
    static let reportedFilterLock = NSLock()

    /// Reports once that the server does not draw filter `name` (decisions.md, "Filters").
    static func reportIgnoredFilter(_ name: String) {
        let first = reportedFilterLock.withLock { reportedFilterNames.insert(name).inserted }
        guard first else { return }
        LaminaDiagnostics.report(
            .ignoredFilter, "the filter '\(name)' is not drawn by the render server; layers ignore it")
    }

    /// Sets `filters.NAME.inputRadius` or `backgroundFilters.NAME.inputRadius` (`path`, spelled
    /// `keyPath`): the layer's copy of the filter named NAME takes the value, the server gets the new
    /// radius, and the change runs the action for `keyPath` (App. B: a basic animation). A value that
    /// is not a number is reported and changes nothing; a name no filter has changes nothing.
    func setFilterRadius(_ value: Any?, path: LayerKeyPath, keyPath: String) {
        guard case .filterRadius(let name) = path.component else { return }
        let key = path.property.key
        guard let radius = value.flatMap(AnimationValue.number) else {
            return LaminaDiagnostics.report(
                .refusedValue, "setValue(_:forKeyPath:) on layer \(layerID): a number is needed for '\(keyPath)'")
        }
        let list = kvcStorage[key] as? [Any] ?? []
        guard let index = list.firstIndex(where: { ($0 as? CIFilter)?.name == name }),
            let filter = (list[index] as? CIFilter)?.copy() as? CIFilter
        else { return }
        let old =
            presentationSource == nil && hasBeenCommitted && !CATransaction.disableActions()
            ? previousPresentationValue(path) : nil
        let action = old.flatMap { $0 == .number(radius) ? nil : self.action(forKey: keyPath) }
        filter.setValue(NSNumber(value: radius), forKey: kCIInputRadiusKey)
        var copies = list
        copies[index] = filter
        let filters = LayerValue.filters(Self.serverFilters(copies))
        keyRecord.noteSet(key)
        update(path.property, storing: { $0[path.property] = filters }, alongside: { self.kvcStorage[key] = copies })
        if let action, let old { runAction(action, forKey: keyPath, oldValue: old) }
    }
}

extension CALayer {
    /// Archives `filters` and `backgroundFilters` (their `CIFilter`s) and `compositingFilter` (a
    /// `CIFilter` or a string), each when `shouldArchiveValue(forKey:)` allows.
    func encodeFilters(to coder: NSCoder) {
        for key in ["filters", "backgroundFilters"] where shouldArchiveValue(forKey: key) {
            guard let list = kvcStorage[key] as? [Any] else { continue }
            coder.encode(NSArray(array: list.compactMap { $0 as? CIFilter }), forKey: key)
        }
        guard shouldArchiveValue(forKey: "compositingFilter") else { return }
        if let filter = kvcStorage["compositingFilter"] as? CIFilter {
            coder.encode(filter, forKey: "compositingFilter")
        } else if let name = kvcStorage["compositingFilter"] as? String {
            coder.encode(NSString(string: name), forKey: "compositingFilterName")
        }
    }

    /// Reads what `encodeFilters(to:)` wrote (a layer being decoded was never committed: no action runs).
    func decodeFilters(from coder: NSCoder) {
        if let list = coder.decodeArray(of: CIFilter.self, forKey: "filters") { filters = list }
        if let list = coder.decodeArray(of: CIFilter.self, forKey: "backgroundFilters") { backgroundFilters = list }
        if coder.containsValue(forKey: "compositingFilter"),
            let filter = coder.decodeObject(of: CIFilter.self, forKey: "compositingFilter")
        {
            compositingFilter = filter
        } else if let name = coder.decodeString(forKey: "compositingFilterName") {
            compositingFilter = name
        }
    }
}
