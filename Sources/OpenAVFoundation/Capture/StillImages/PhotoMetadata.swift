import Foundation

/// The metadata of captured stills, as ImageIO property dictionaries, and its EXIF form inside
/// JPEG files: one writer for `AVCapturePhoto.fileDataRepresentation()` and
/// `AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(_:)`.
///
/// The dictionary holds `kCGImagePropertyOrientation`, a `{TIFF}` dictionary (make, model,
/// software, date, orientation) and an `{Exif}` dictionary (pixel dimensions, date taken). The
/// EXIF block written into a JPEG (an APP1 segment after the JFIF header) carries the same
/// values, big-endian, as EXIF 2.3 lays them out.
enum PhotoMetadata {
    /// The metadata of a still `width` x `height` taken now by `device` through a connection of
    /// `orientation`, with `extra` (such as `AVCapturePhotoSettings.metadata`) merged on top.
    static func make(width: Int, height: Int, orientation: AVCaptureVideoOrientation, device: AVCaptureDevice?,
                     extra: [String: Any] = [:]) -> [String: Any] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        let now = formatter.string(from: Date())
        let exifOrientation = Self.exifOrientation(orientation)
        var tiff: [String: Any] = [
            kCGImagePropertyTIFFSoftware: "OpenAVFoundation", kCGImagePropertyTIFFDateTime: now,
            kCGImagePropertyTIFFOrientation: exifOrientation,
        ]
        if let device {
            tiff[kCGImagePropertyTIFFMake] = device.manufacturer
            tiff[kCGImagePropertyTIFFModel] = device.modelID
        }
        let exif: [String: Any] = [
            kCGImagePropertyExifPixelXDimension: width, kCGImagePropertyExifPixelYDimension: height,
            kCGImagePropertyExifDateTimeOriginal: now,
        ]
        let metadata: [String: Any] = [
            kCGImagePropertyOrientation: exifOrientation, kCGImagePropertyTIFFDictionary: tiff,
            kCGImagePropertyExifDictionary: exif,
        ]
        return metadata.merging(extra) { _, new in new }
    }

    /// The EXIF orientation of a back camera's photo taken through a connection of `orientation`:
    /// landscape right (the sensor's own) is upright (1).
    static func exifOrientation(_ orientation: AVCaptureVideoOrientation) -> Int {
        switch orientation {
        case .landscapeRight: 1
        case .landscapeLeft: 3
        case .portrait: 6
        case .portraitUpsideDown: 8
        }
    }

    /// `jpeg` with the EXIF form of `metadata` inserted after its JFIF header (or right after the
    /// start marker); nil when `jpeg` is not a JPEG file.
    static func insert(_ metadata: [String: Any], into jpeg: Data) -> Data? {
        let bytes = [UInt8](jpeg)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        // Keep an APP0 (JFIF) segment first, as JFIF readers expect.
        if bytes.count >= 6, bytes[2] == 0xFF, bytes[3] == 0xE0 {
            at = min(bytes.count, 4 + Int(bytes[4]) << 8 + Int(bytes[5]))
        }
        return Data(bytes[..<at] + exifSegment(metadata) + bytes[at...])
    }

    /// An APP1 segment holding the EXIF (TIFF-structured) form of `metadata`.
    static func exifSegment(_ metadata: [String: Any]) -> [UInt8] {
        let tiff = metadata[kCGImagePropertyTIFFDictionary] as? [String: Any] ?? [:]
        let exif = metadata[kCGImagePropertyExifDictionary] as? [String: Any] ?? [:]
        let orientation = SettingsValue.integer(metadata[kCGImagePropertyOrientation] ?? tiff[kCGImagePropertyTIFFOrientation])
        let primaryEntries: [Entry?] = [
            Entry.ascii(0x010F, tiff[kCGImagePropertyTIFFMake]), Entry.ascii(0x0110, tiff[kCGImagePropertyTIFFModel]),
            orientation.map { Entry.short(0x0112, UInt16(clamping: $0)) },
            Entry.ascii(0x0131, tiff[kCGImagePropertyTIFFSoftware]), Entry.ascii(0x0132, tiff[kCGImagePropertyTIFFDateTime]),
        ]
        let exifEntries: [Entry] = [
            Entry.ascii(0x9003, exif[kCGImagePropertyExifDateTimeOriginal]),
            SettingsValue.integer(exif[kCGImagePropertyExifPixelXDimension]).map { Entry.long(0xA002, UInt32(clamping: $0)) },
            SettingsValue.integer(exif[kCGImagePropertyExifPixelYDimension]).map { Entry.long(0xA003, UInt32(clamping: $0)) },
        ].compactMap { $0 }
        var primary = primaryEntries.compactMap { $0 }

        // TIFF header, then the primary IFD, the EXIF IFD, and the values too long to sit inline.
        let primaryOffset = 8
        let exifOffset = primaryOffset + Entry.directorySize(count: primary.count + 1)
        primary.append(Entry(tag: 0x8769, type: 4, count: 1, value: bigEndian(UInt32(exifOffset))))
        var dataOffset = exifOffset + Entry.directorySize(count: exifEntries.count)
        var data: [UInt8] = []
        var tiffBytes: [UInt8] = Array("MM".utf8) + [0x00, 0x2A] + bigEndian(UInt32(primaryOffset))
        for directory in [primary, exifEntries] {
            tiffBytes += bigEndian(UInt16(directory.count))
            for entry in directory.sorted(by: { $0.tag < $1.tag }) {
                tiffBytes += bigEndian(entry.tag) + bigEndian(entry.type) + bigEndian(entry.count)
                if entry.value.count <= 4 {
                    tiffBytes += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    tiffBytes += bigEndian(UInt32(dataOffset))
                    let padded = entry.value + (entry.value.count % 2 == 1 ? [0] : [])
                    data += padded
                    dataOffset += padded.count
                }
            }
            tiffBytes += bigEndian(UInt32(0))
        }
        let payload = Array("Exif".utf8) + [0, 0] + tiffBytes + data
        return [0xFF, 0xE1] + bigEndian(UInt16(clamping: payload.count + 2)) + payload
    }

    /// One IFD entry: tag, TIFF type, value count and the value's bytes.
    private struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: UInt32
        let value: [UInt8]

        /// An ASCII entry, NUL-terminated; nil when `text` is not a string.
        static func ascii(_ tag: UInt16, _ text: Any?) -> Entry? {
            guard let text = text as? String else { return nil }
            let bytes = Array(text.utf8) + [0]
            return Entry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
        }

        /// A SHORT entry.
        static func short(_ tag: UInt16, _ value: UInt16) -> Entry {
            Entry(tag: tag, type: 3, count: 1, value: bigEndian(value))
        }

        /// A LONG entry.
        static func long(_ tag: UInt16, _ value: UInt32) -> Entry {
            Entry(tag: tag, type: 4, count: 1, value: bigEndian(value))
        }

        /// Bytes of a directory of `count` entries: the count, the entries, the next-IFD offset.
        static func directorySize(count: Int) -> Int { 2 + 12 * count + 4 }
    }
}

/// The big-endian bytes of an integer.
private func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
}
