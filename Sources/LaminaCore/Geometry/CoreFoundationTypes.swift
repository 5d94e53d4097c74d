import Foundation

/// Core Foundation's string type, as Apple code spells it (`CGColorSpace.sRGB` is a `CFString`).
///
/// Linux Foundation has no Core Foundation types in its public API; this alias to `NSString` lets
/// `"name" as CFString` and `name as String` compile unchanged (docs/apple-differences.md).
public typealias CFString = NSString

/// Core Foundation's data type, as Apple code spells it: `data as CFData` bridges a `Data`.
public typealias CFData = NSData

/// Core Foundation's URL type, as Apple code spells it: `url as CFURL` bridges a `URL`.
public typealias CFURL = NSURL

/// Core Foundation's array type, as its Foundation bridge: Apple's `[color1, color2] as CFArray`
/// spelling compiles unchanged.
public typealias CFArray = NSArray

/// Core Foundation's dictionary type, as its Foundation bridge (`CGContext.beginTransparencyLayer`
/// takes one; `nil` is the usual argument).
public typealias CFDictionary = NSDictionary
