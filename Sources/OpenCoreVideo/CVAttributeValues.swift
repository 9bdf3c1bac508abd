import Foundation

// Reading numbers and dictionaries out of attribute dictionaries, whatever their bridged form
// (NSNumber from `as CFDictionary`, or a plain Swift value).

/// The integer stored under `key`, or the first element if it is an array of numbers.
func cvAttributeInt(_ dictionary: NSDictionary?, _ key: String) -> Int? {
    guard let value = dictionary?.object(forKey: NSString(string: key)) ?? dictionary?.object(forKey: key) else { return nil }
    return cvInt(value)
}

/// Every integer stored under `key`: one number, or each number of an array.
func cvAttributeInts(_ dictionary: NSDictionary?, _ key: String) -> [Int] {
    guard let value = dictionary?.object(forKey: NSString(string: key)) ?? dictionary?.object(forKey: key) else { return [] }
    if let array = value as? NSArray { return array.compactMap(cvInt) }
    if let array = value as? [Any] { return array.compactMap(cvInt) }
    return cvInt(value).map { [$0] } ?? []
}

/// The floating-point number stored under `key`.
func cvAttributeDouble(_ dictionary: NSDictionary?, _ key: String) -> Double? {
    guard let value = dictionary?.object(forKey: NSString(string: key)) ?? dictionary?.object(forKey: key) else { return nil }
    switch value {
    case let number as NSNumber: return number.doubleValue
    case let double as Double: return double
    case let float as Float: return Double(float)
    case let cgFloat as CGFloat: return Double(cgFloat)
    default: return cvInt(value).map(Double.init)
    }
}

/// The dictionary stored under `key`.
func cvAttributeDictionary(_ dictionary: NSDictionary?, _ key: String) -> NSDictionary? {
    guard let value = dictionary?.object(forKey: NSString(string: key)) ?? dictionary?.object(forKey: key) else { return nil }
    if let nested = value as? NSDictionary { return nested }
    if let nested = value as? [String: Any] { return NSDictionary(dictionary: nested) }
    return nil
}

/// Whether `key` is present at all.
func cvAttributeIsPresent(_ dictionary: NSDictionary?, _ key: String) -> Bool {
    (dictionary?.object(forKey: NSString(string: key)) ?? dictionary?.object(forKey: key)) != nil
}

private func cvInt(_ value: Any) -> Int? {
    switch value {
    case let number as NSNumber: return number.intValue
    case let int as Int: return int
    case let int32 as Int32: return Int(int32)
    case let uint32 as UInt32: return Int(uint32)
    case let int64 as Int64: return Int(truncatingIfNeeded: int64)
    case let uint64 as UInt64: return Int(truncatingIfNeeded: uint64)
    case let double as Double: return double.isFinite ? Int(double) : nil
    case let array as NSArray: return array.firstObject.flatMap(cvInt)
    case let array as [Any]: return array.first.flatMap(cvInt)
    default: return nil
    }
}

/// Builds an `NSDictionary` from string keys and attachment values.
func cvDictionary(_ entries: [String: AnyObject]) -> NSDictionary {
    let keys = Array(entries.keys)
    return NSDictionary(objects: keys.map { entries[$0]! }, forKeys: keys.map { NSString(string: $0) })
}

/// The string keys and object values of a dictionary passed in by a caller.
func cvEntries(_ dictionary: NSDictionary) -> [(String, AnyObject)] {
    var result: [(String, AnyObject)] = []
    for (key, value) in dictionary {
        guard let name = (key as? String) ?? (key as? NSString).map({ String(describing: $0) }) else { continue }
        result.append((name, value as AnyObject))
    }
    return result
}
