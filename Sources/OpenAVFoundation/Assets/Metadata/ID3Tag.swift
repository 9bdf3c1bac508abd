import Foundation
import OpenCoreMedia

/// The frames of one ID3v2.3 or ID3v2.4 tag, the sample of a timed ID3 metadata track (as HTTP
/// Live Streaming carries timed metadata), as metadata items in the ID3 key space, as Apple
/// gives them: the frame ID is the key; a text frame's value is its text; a `TXXX` or `WXXX`
/// frame's value is its text and its description is the `info` extra attribute; a `PRIV`
/// frame's value is its data and its owner is the `info` extra attribute; a `COMM` frame's
/// value is its text, with its language; any other frame's value is its bytes.
///
/// FFmpeg reads such tags only at the start of files, not from samples, so they are read here.
/// Compressed and encrypted frames, and ID3v2.2's three-letter frames, are left out.
struct ID3Tag {
    /// The tag's frames as items, in tag order.
    let items: [AVMetadataItem]

    /// Reads the tag in `bytes`; nil when they do not hold an ID3v2.3 or v2.4 tag. Every item gets
    /// `time` and `duration`.
    ///
    /// FFmpeg 5.1's MPEG-TS reader drops the first five bytes of a timed ID3 packet ("ID3", the
    /// version and the revision), taking them for the cell header of an MPEG-2 metadata access
    /// unit. Such a tag is known by its length (its flags and size, then as many bytes as the
    /// size says) and read as v2.4, or as v2.3 when its frames do not add up as v2.4's.
    init?(_ bytes: Data, time: CMTime, duration: CMTime) {
        let tag = [UInt8](bytes)
        let candidates: [[UInt8]]
        if tag.starts(with: Self.magic) {
            candidates = [tag]
        } else if tag.count >= 5, let size = Self.syncSafe(tag[1..<5]), tag.count == 5 + size {
            candidates = [Self.magic + [4, 0] + tag, Self.magic + [3, 0] + tag]
        } else {
            return nil
        }
        guard let items = candidates.lazy.compactMap({ Self.items(of: $0, time: time, duration: duration) }).first else { return nil }
        self.items = items
    }

    /// "ID3", the start of every ID3v2 tag.
    private static let magic: [UInt8] = [0x49, 0x44, 0x33]

    /// The items of a whole tag; nil when it is not an ID3v2.3 or v2.4 tag, or its frames do not
    /// fill it as their sizes say (padding aside).
    private static func items(of tag: [UInt8], time: CMTime, duration: CMTime) -> [AVMetadataItem]? {
        guard tag.count >= 10, tag.starts(with: magic), tag[3] == 3 || tag[3] == 4,
              let declared = syncSafe(tag[6..<10]) else { return nil }
        let version = tag[3], flags = tag[5]
        var body = Array(tag[10..<min(tag.count, 10 + declared)])
        // ID3v2.3 unsynchronises the whole tag; v2.4 marks each frame.
        if version == 3 && flags & 0x80 != 0 { body = resynchronised(body) }
        var offset = 0
        if flags & 0x40 != 0, body.count >= 4 {
            // The extended header: v2.4 counts its own size, v2.3 does not.
            offset = version == 4 ? syncSafe(body[0..<4]) ?? body.count : bigEndian(body[0..<4]) + 4
        }
        var items: [AVMetadataItem] = []
        while offset < body.count, body[offset] != 0 {
            guard offset + 10 <= body.count else { return nil }
            let idBytes = body[offset..<offset + 4]
            guard idBytes.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }),
                  let size = version == 4 ? syncSafe(body[offset + 4..<offset + 8]) : bigEndian(body[offset + 4..<offset + 8]),
                  offset + 10 + size <= body.count else { return nil }
            let id = String(decoding: idBytes, as: UTF8.self)
            let format = body[offset + 9]
            var content = Array(body[offset + 10..<offset + 10 + size])
            offset += 10 + size
            if version == 4 {
                if format & 0x0C != 0 { continue }  // compressed or encrypted
                if format & 0x40 != 0 { content = Array(content.dropFirst(1)) }  // group identifier
                if format & 0x02 != 0 || flags & 0x80 != 0 { content = resynchronised(content) }
                if format & 0x01 != 0 { content = Array(content.dropFirst(4)) }  // data length indicator
            } else if format & 0xC0 != 0 {
                continue  // v2.3: compressed or encrypted
            }
            items.append(item(id: id, content: content, time: time, duration: duration))
        }
        return items
    }

    /// The item for one frame.
    private static func item(id: String, content: [UInt8], time: CMTime, duration: CMTime) -> AVMetadataItem {
        var state = AVMetadataItem.State()
        state.keySpace = .id3
        state.key = id as NSString
        state.time = time
        state.duration = duration
        let value: any NSCopying & NSObjectProtocol
        let encoding = content.first ?? 0
        switch id {
        case _ where content.isEmpty:
            value = Data() as NSData
        case "TXXX", "WXXX":
            let (description, rest) = text(content.dropFirst(), encoding: encoding, terminated: true)
            // A WXXX's URL is always ISO-8859-1.
            value = text(rest, encoding: id == "TXXX" ? encoding : 0, terminated: false).0 as NSString
            state.extraAttributes = [.info: description]
        case "PRIV":
            let (owner, rest) = text(content[...], encoding: 0, terminated: true)
            value = Data(rest) as NSData
            state.extraAttributes = [.info: owner]
        case _ where (id == "COMM" || id == "USLT") && content.count >= 4:
            let (_, rest) = text(content[4...], encoding: encoding, terminated: true)
            value = text(rest, encoding: encoding, terminated: false).0 as NSString
            state.extendedLanguageTag = String(decoding: content[1..<4], as: UTF8.self)
        case _ where id.hasPrefix("T"):
            value = text(content.dropFirst(), encoding: encoding, terminated: false).0 as NSString
        case _ where id.hasPrefix("W"):
            value = text(content[...], encoding: 0, terminated: false).0 as NSString
        default:
            value = Data(content) as NSData
        }
        state.value = value
        state.dataType = AVMetadataItem.dataType(of: value)
        return AVMetadataItem(state: state)
    }

    /// The text at the start of `bytes` in ID3 text `encoding` (0 ISO-8859-1, 1 UTF-16 with a byte
    /// order mark, 2 UTF-16BE, 3 UTF-8) up to its terminator when `terminated` (else to the end,
    /// without trailing terminators; of several values, the first), and the bytes after it.
    private static func text(_ bytes: ArraySlice<UInt8>, encoding: UInt8, terminated: Bool) -> (String, ArraySlice<UInt8>) {
        let wide = encoding == 1 || encoding == 2
        var end = bytes.startIndex
        while end < bytes.endIndex {
            if wide {
                if end + 1 < bytes.endIndex, bytes[end] == 0, bytes[end + 1] == 0 { break }
                end += 2
            } else {
                if bytes[end] == 0 { break }
                end += 1
            }
        }
        end = min(end, bytes.endIndex)
        let rest = bytes[min(bytes.endIndex, end + (wide ? 2 : 1))...]
        let stringEncoding: String.Encoding = switch encoding {
        case 0: .isoLatin1
        case 1: .utf16
        case 2: .utf16BigEndian
        default: .utf8
        }
        let string = String(data: Data(bytes[bytes.startIndex..<end]), encoding: stringEncoding) ?? ""
        return (string, terminated ? rest : [])
    }

    /// ID3's undoing of unsynchronisation: each 0x00 after a 0xFF is dropped.
    private static func resynchronised(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var afterFF = false
        for byte in bytes {
            if !(afterFF && byte == 0) { result.append(byte) }
            afterFF = byte == 0xFF
        }
        return result
    }

    /// A size in four seven-bit bytes; nil when a byte has its top bit set.
    private static func syncSafe(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return bytes.reduce(0) { $0 << 7 | Int($1) }
    }

    /// A size in four big-endian bytes.
    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }
}
