import Foundation

/// The `esds` atom of an MPEG-4 Part 2 (`mp4v`) sample description (ISO/IEC 14496-1 descriptors,
/// without the atom's size and type): what Apple's format descriptions keep under
/// `SampleDescriptionExtensionAtoms`, made from and read back into the decoder configuration
/// (the VOL header) FFmpeg keeps as extradata.
package enum ElementaryStreamDescriptor {
    /// An `esds` payload for a visual stream (object type 0x20, MPEG-4 Visual) whose decoder
    /// configuration is `decoderConfig`.
    package static func esds(decoderConfig: Data) -> Data {
        let specificInfo = descriptor(0x05, decoderConfig)
        // objectTypeIndication, streamType (visual << 2 | reserved 1), buffer size, max and average bit rate.
        let decoderConfigBody = Data([0x20, 0x11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + specificInfo
        let slConfig = descriptor(0x06, Data([0x02]))
        let elementaryStream = descriptor(0x03, Data([0, 0, 0]) + descriptor(0x04, decoderConfigBody) + slConfig)
        return Data([0, 0, 0, 0]) + elementaryStream
    }

    /// The decoder configuration inside an `esds` payload, or nil when `esds` is not one
    /// (a bare decoder configuration, say) or holds none.
    package static func decoderConfig(fromESDS esds: Data) -> Data? {
        let bytes = [UInt8](esds)
        var offset = 4
        guard bytes.count > offset, bytes[0] == 0, let (tag, _) = header(bytes, &offset), tag == 0x03,
              offset + 3 <= bytes.count else { return nil }
        let flags = bytes[offset + 2]
        offset += 3
        if flags & 0x80 != 0 { offset += 2 }
        if flags & 0x40 != 0, offset < bytes.count { offset += 1 + Int(bytes[offset]) }
        if flags & 0x20 != 0 { offset += 2 }
        guard offset < bytes.count, let (configTag, _) = header(bytes, &offset), configTag == 0x04 else { return nil }
        offset += 13
        guard offset < bytes.count, let (infoTag, length) = header(bytes, &offset), infoTag == 0x05,
              offset + length <= bytes.count, length > 0 else { return nil }
        return Data(bytes[offset..<offset + length])
    }

    /// A descriptor: its tag, its length in the four-byte form FFmpeg writes, and `body`.
    private static func descriptor(_ tag: UInt8, _ body: Data) -> Data {
        let length = body.count
        return Data([tag, UInt8(length >> 21 & 0x7F) | 0x80, UInt8(length >> 14 & 0x7F) | 0x80,
                     UInt8(length >> 7 & 0x7F) | 0x80, UInt8(length & 0x7F)]) + body
    }

    /// Reads a descriptor's tag and length at `offset` (the length in one to four bytes of
    /// seven bits each) and moves past them.
    private static func header(_ bytes: [UInt8], _ offset: inout Int) -> (tag: UInt8, length: Int)? {
        guard offset < bytes.count else { return nil }
        let tag = bytes[offset]
        offset += 1
        var length = 0
        for _ in 0..<4 {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            offset += 1
            length = length << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return (tag, length) }
        }
        return (tag, length)
    }
}
