import CFFmpeg
import Foundation

/// The format of a still picture's bytes, as cover art is stored: PNG or JPEG, told by its
/// first bytes.
package enum PictureFormat: Sendable {
    case png, jpeg

    /// The format of `data`; nil when it is neither PNG nor JPEG.
    package init?(of data: Data) {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            self = .png
        } else if data.starts(with: [0xFF, 0xD8]) {
            self = .jpeg
        } else {
            return nil
        }
    }

    /// The picture's width and height as its header states them (PNG's `IHDR`, JPEG's start of
    /// frame); nil when the header is not there.
    package static func size(of data: Data) -> (width: Int32, height: Int32)? {
        let bytes = [UInt8](data.prefix(65536))
        func number(_ at: Int, _ count: Int) -> Int {
            (at..<at + count).reduce(0) { $0 << 8 | Int(bytes[$1]) }
        }
        switch PictureFormat(of: data) {
        case .png:
            guard bytes.count >= 24 else { return nil }
            return (Int32(truncatingIfNeeded: number(16, 4)), Int32(truncatingIfNeeded: number(20, 4)))
        case .jpeg:
            var offset = 2
            while offset + 9 < bytes.count, bytes[offset] == 0xFF {
                let marker = bytes[offset + 1]
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return (Int32(number(offset + 7, 2)), Int32(number(offset + 5, 2)))
                }
                offset += 2 + number(offset + 2, 2)
            }
            return nil
        case nil:
            return nil
        }
    }

    /// FFmpeg's codec for the format.
    var codecID: AVCodecID {
        switch self {
        case .png: return AV_CODEC_ID_PNG
        case .jpeg: return AV_CODEC_ID_MJPEG
        }
    }
}
