import Foundation

extension CATextLayer {
    /// Archives what `CALayer`'s archiving cannot box: an attributed `string` (its text and, per
    /// attribute run, the values Lamina can box, fonts by PostScript name and size, paragraph styles
    /// by alignment, line-break mode and direction) and a font object in `font` (by PostScript name).
    /// Attribute values of other types are left out.
    func encodeText(to coder: NSCoder) {
        if shouldArchiveValue(forKey: "string"), let text = textValue("string") as? NSAttributedString {
            coder.encode(NSString(string: text.string), forKey: "lamina.text.string")
            var runs: [ArchivedValue] = []
            text.enumerateAttributes(in: NSRange(location: 0, length: text.length), options: []) {
                attributes, range, _ in
                var entries: [Any] = [range.location, range.length]
                for (key, value) in attributes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    guard let boxed = Self.archivable(value) else { continue }
                    entries.append(key.rawValue)
                    entries.append(boxed)
                }
                if let box = ArchivedValue(entries) { runs.append(box) }
            }
            coder.encode(NSArray(array: runs), forKey: "lamina.text.runs")
        }
        if shouldArchiveValue(forKey: "font"), let font = textValue("font"), let boxed = Self.archivable(font),
            font is CTFont || font is CGFont, let box = ArchivedValue(boxed)
        {
            coder.encode(box, forKey: "lamina.text.font")
        }
    }

    /// Reads what `encodeText(to:)` wrote, and puts the text keys `CALayer` decoded in their normal form.
    func decodeText(from coder: NSCoder) {
        for key in Self.textKeys {
            guard let value = kvcStorage[key] else { continue }
            kvcStorage[key] = Self.normalized(value is NSNull ? nil : value, forKey: key)
        }
        if let text = coder.decodeString(forKey: "lamina.text.string") {
            let result = NSMutableAttributedString(string: text)
            let runs = coder.decodeArray(of: ArchivedValue.self, forKey: "lamina.text.runs") ?? []
            for run in runs {
                guard let entries = run.value as? [Any], entries.count >= 2,
                    let location = (entries[0] as? NSNumber)?.intValue,
                    let length = (entries[1] as? NSNumber)?.intValue,
                    location >= 0, length >= 0, location + length <= result.length
                else { continue }
                var attributes: [NSAttributedString.Key: Any] = [:]
                var i = 2
                while i + 1 < entries.count {
                    if let key = entries[i] as? String, let value = Self.unarchived(entries[i + 1]) {
                        attributes[NSAttributedString.Key(key)] = value
                    }
                    i += 2
                }
                result.addAttributes(attributes, range: NSRange(location: location, length: length))
            }
            kvcStorage["string"] = NSAttributedString(attributedString: result)
        }
        if let box = coder.decodeObject(of: ArchivedValue.self, forKey: "lamina.text.font"),
            let font = box.value.flatMap(Self.unarchived)
        {
            kvcStorage["font"] = font
        }
    }

    /// A value in a form `ArchivedValue` boxes: fonts and paragraph styles as tagged arrays, the
    /// values it boxes itself as they are; nil for others.
    static func archivable(_ value: Any) -> Any? {
        switch value {
        case let font as CTFont:
            return ["CTFont", String(describing: CTFontCopyPostScriptName(font)), Double(CTFontGetSize(font))]
        case let font as CGFont:
            return ["CGFont", font.postScriptName.map { String(describing: $0) } ?? ""]
        case let style as CTParagraphStyle:
            return ["CTParagraphStyle", Self.paragraphValues(style)]
        case let style as NSParagraphStyle:
            return ["NSParagraphStyle", style.alignment.rawValue, style.lineBreakMode.rawValue]
        default:
            return ArchivedValue(value) == nil ? nil : value
        }
    }

    /// The alignment, line-break mode and direction of a Core Text paragraph style, as numbers.
    private static func paragraphValues(_ style: CTParagraphStyle) -> [Int] {
        var alignment: UInt8 = 4
        var mode: UInt8 = 0
        var direction: Int8 = -1
        _ = CTParagraphStyleGetValueForSpecifier(style, .alignment, 1, &alignment)
        _ = CTParagraphStyleGetValueForSpecifier(style, .lineBreakMode, 1, &mode)
        _ = CTParagraphStyleGetValueForSpecifier(style, .baseWritingDirection, 1, &direction)
        return [Int(alignment), Int(mode), Int(direction)]
    }

    /// The value `archivable(_:)` boxed, made again.
    static func unarchived(_ value: Any) -> Any? {
        guard let tagged = value as? [Any], let tag = tagged.first as? String else { return value }
        func number(_ i: Int) -> Int? { i < tagged.count ? (tagged[i] as? NSNumber)?.intValue : nil }
        switch tag {
        case "CTFont":
            guard tagged.count == 3, let name = tagged[1] as? String, let size = tagged[2] as? NSNumber else {
                return nil
            }
            return CTFontCreateWithName(name as CFString, CGFloat(size.doubleValue), nil)
        case "CGFont":
            guard tagged.count == 2, let name = tagged[1] as? String else { return nil }
            return CGFont(name as CFString)
        case "CTParagraphStyle":
            guard let values = tagged.count == 2 ? tagged[1] as? [Any] : nil, values.count == 3 else { return nil }
            var alignment = UInt8(truncatingIfNeeded: (values[0] as? NSNumber)?.intValue ?? 4)
            var mode = UInt8(truncatingIfNeeded: (values[1] as? NSNumber)?.intValue ?? 0)
            var direction = Int8(truncatingIfNeeded: (values[2] as? NSNumber)?.intValue ?? -1)
            return withUnsafeBytes(of: &alignment) { a in
                withUnsafeBytes(of: &mode) { m in
                    withUnsafeBytes(of: &direction) { d in
                        let settings = [
                            CTParagraphStyleSetting(spec: .alignment, valueSize: 1, value: a.baseAddress!),
                            CTParagraphStyleSetting(spec: .lineBreakMode, valueSize: 1, value: m.baseAddress!),
                            CTParagraphStyleSetting(spec: .baseWritingDirection, valueSize: 1, value: d.baseAddress!),
                        ]
                        return CTParagraphStyleCreate(settings, settings.count)
                    }
                }
            }
        case "NSParagraphStyle":
            let style = NSMutableParagraphStyle()
            style.alignment = number(1).flatMap(NSTextAlignment.init(rawValue:)) ?? .natural
            style.lineBreakMode = number(2).flatMap(NSLineBreakMode.init(rawValue:)) ?? .byWordWrapping
            return style
        default:
            return value
        }
    }
}
