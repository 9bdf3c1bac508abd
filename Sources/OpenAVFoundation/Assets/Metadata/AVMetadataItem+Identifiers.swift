// The class functions that convert between metadata identifiers and key/key-space pairs.
import Foundation

extension AVMetadataItem {
    /// Returns the identifier for a key in a key space, such as "common/title" or "udta/%A9nam".
    /// The key may be a `String`, `NSString`, `AVMetadataKey`, or an `NSNumber` holding a four-character code.
    public class func identifier(forKey key: Any, keySpace: AVMetadataKeySpace) -> AVMetadataIdentifier? {
        guard let keyString = keyString(key), !keySpace.rawValue.isEmpty else { return nil }
        return AVMetadataIdentifier(rawValue: identifierPrefix(for: keySpace) + "/" + AVMetadataIdentifierCoding.encode(keyString))
    }

    /// Returns the key of an identifier, as an `NSString`, or nil when the identifier is malformed.
    public class func key(forIdentifier identifier: AVMetadataIdentifier) -> Any? {
        guard let slash = identifier.rawValue.firstIndex(of: "/") else { return nil }
        let encoded = identifier.rawValue[identifier.rawValue.index(after: slash)...]
        guard !encoded.isEmpty else { return nil }
        return AVMetadataIdentifierCoding.decode(String(encoded)) as NSString
    }

    /// Returns the key space of an identifier, or nil when the identifier is malformed.
    public class func keySpace(forIdentifier identifier: AVMetadataIdentifier) -> AVMetadataKeySpace? {
        guard let slash = identifier.rawValue.firstIndex(of: "/") else { return nil }
        let prefix = String(identifier.rawValue[..<slash])
        guard !prefix.isEmpty else { return nil }
        switch prefix {
        case "common": return .common
        case "id3": return .id3
        default: return AVMetadataKeySpace(rawValue: prefix)
        }
    }

    /// The spelling of a key space inside identifiers: Apple writes "common" and "id3" for these two.
    private static func identifierPrefix(for keySpace: AVMetadataKeySpace) -> String {
        switch keySpace {
        case .common: return "common"
        case .id3: return "id3"
        default: return keySpace.rawValue
        }
    }
}

/// The percent-escaping of keys inside identifiers: "%", "/", controls and non-ASCII characters are
/// escaped; a character up to U+00FF is one "%XX" byte (so "©" is "%A9", as in Apple's identifiers),
/// others are their UTF-8 bytes.
enum AVMetadataIdentifierCoding {
    static func encode(_ key: String) -> String {
        var out = ""
        for scalar in key.unicodeScalars {
            let v = scalar.value
            if scalar == "%" || scalar == "/" || v < 0x20 || v >= 0x7F {
                if v <= 0xFF {
                    out += hex(UInt8(v))
                } else {
                    for byte in String(scalar).utf8 { out += hex(byte) }
                }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func decode(_ encoded: String) -> String {
        var out = ""
        var run: [UInt8] = []
        func flushRun() {
            guard !run.isEmpty else { return }
            // A run that is valid UTF-8 with a multi-byte sequence is UTF-8; otherwise each byte is Latin-1.
            if run.contains(where: { $0 >= 0x80 }), let utf8 = String(validating: run, as: UTF8.self) {
                out += utf8
            } else {
                for byte in run { out.unicodeScalars.append(Unicode.Scalar(byte)) }
            }
            run.removeAll()
        }
        let scalars = Array(encoded.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i] == "%", i + 2 < scalars.count,
               let byte = UInt8(String(scalars[i + 1]) + String(scalars[i + 2]), radix: 16) {
                run.append(byte)
                i += 3
            } else {
                flushRun()
                out.unicodeScalars.append(scalars[i])
                i += 1
            }
        }
        flushRun()
        return out
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
