import Foundation

/// Reads values of settings dictionaries (audio settings, output settings, video settings, pixel buffer
/// attributes), which Apple code fills with any integer or floating-point type or `NSNumber`.
package enum SettingsValue {
    /// The value as a number, or nil when it is not numeric. `Bool` reads as 0 or 1.
    package static func double(_ value: Any?) -> Double? {
        switch value {
        case let v as Bool: return v ? 1 : 0
        case let v as Int: return Double(v)
        case let v as Int8: return Double(v)
        case let v as Int16: return Double(v)
        case let v as Int32: return Double(v)
        case let v as Int64: return Double(v)
        case let v as UInt: return Double(v)
        case let v as UInt8: return Double(v)
        case let v as UInt16: return Double(v)
        case let v as UInt32: return Double(v)
        case let v as UInt64: return Double(v)
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as NSNumber: return v.doubleValue
        default: return nil
        }
    }

    /// The value as a whole number, or nil when it is not numeric or has a fraction.
    package static func integer(_ value: Any?) -> Int64? {
        guard let number = double(value), number == number.rounded(), abs(number) < 0x1p63 else { return nil }
        return Int64(number)
    }
}
