import CBarcodes
import Foundation
import OpenCoreVideo

/// Reads barcodes in pictures: the one code detector (`AVCaptureMetadataOutput`).
///
/// Matrix codes (QR, Micro QR, Aztec, Data Matrix, PDF417) are read by zxing-cpp where the
/// picture lies (the luma plane of a 4:2:0 buffer, or a BGRA buffer's pixels, within a region of
/// it); linear codes by ZBar, from a copy of the region's luma, every row and column scanned.
/// zxing-cpp 1.4 (Debian 12's) reads linear codes too, but aborts the process on an assertion
/// when a picture holds several of them; ZBar reads them as well and faster. Readers share
/// nothing: one per thread.
package struct CodeReader: Sendable {
    /// The code formats ZXing reads (its `BarcodeFormat` bits).
    package struct Format: OptionSet, Hashable, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }

        package static let aztec = Format(rawValue: 1 << 0)
        package static let codabar = Format(rawValue: 1 << 1)
        package static let code39 = Format(rawValue: 1 << 2)
        package static let code93 = Format(rawValue: 1 << 3)
        package static let code128 = Format(rawValue: 1 << 4)
        package static let dataBar = Format(rawValue: 1 << 5)
        package static let dataBarExpanded = Format(rawValue: 1 << 6)
        package static let dataMatrix = Format(rawValue: 1 << 7)
        package static let ean8 = Format(rawValue: 1 << 8)
        package static let ean13 = Format(rawValue: 1 << 9)
        /// Interleaved 2 of 5, of which ITF-14 is the 14-digit kind.
        package static let itf = Format(rawValue: 1 << 10)
        package static let maxiCode = Format(rawValue: 1 << 11)
        package static let pdf417 = Format(rawValue: 1 << 12)
        package static let qrCode = Format(rawValue: 1 << 13)
        package static let upcA = Format(rawValue: 1 << 14)
        package static let upcE = Format(rawValue: 1 << 15)
        package static let microQRCode = Format(rawValue: 1 << 16)
    }

    /// A code read from a picture.
    package struct Code: Sendable, Equatable {
        /// Its format (one of them).
        package let format: Format
        /// Its content, decoded by the code's character set.
        package let text: String
        /// Its corners in the picture's pixels: top-left, top-right, bottom-right, bottom-left
        /// as the code is read (turned with the code).
        package let corners: [CGPoint]
    }

    /// The formats looked for.
    package let formats: Format

    /// A reader of `formats`.
    package init(formats: Format) {
        self.formats = formats
    }

    /// The formats zxing-cpp reads; ZBar reads the others.
    private static let matrixFormats: Format = [.aztec, .dataMatrix, .maxiCode, .pdf417, .qrCode, .microQRCode]

    /// The codes in `picture` (4:2:0 biplanar, whose luma is read, or 32BGRA) within `region`
    /// (pixels; nil: the whole picture), their corners in the whole picture's pixels. Throws
    /// for another pixel format, or when a library fails.
    package func read(_ picture: CVPixelBuffer, in region: CGRect? = nil) throws(EngineError) -> [Code] {
        let format = CVPixelBufferGetPixelFormatType(picture)
        let planar: Bool
        switch format {
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: planar = true
        case kCVPixelFormatType_32BGRA: planar = false
        default:
            throw EngineError(operation: "reading barcodes", message: "pictures of pixel format \(format) are not read (4:2:0 biplanar or 32BGRA only)")
        }
        let width = CVPixelBufferGetWidth(picture), height = CVPixelBufferGetHeight(picture)
        let whole = CGRect(x: 0, y: 0, width: width, height: height)
        let area = (region ?? whole).intersection(whole).integral
        guard !area.isEmpty, formats.rawValue != 0 else { return [] }
        CVPixelBufferLockBaseAddress(picture, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(picture, .readOnly) }
        guard let base = planar ? CVPixelBufferGetBaseAddressOfPlane(picture, 0) : CVPixelBufferGetBaseAddress(picture) else { return [] }
        let rowBytes = planar ? CVPixelBufferGetBytesPerRowOfPlane(picture, 0) : CVPixelBufferGetBytesPerRow(picture)
        let (left, top, columns, rows) = (Int(area.minX), Int(area.minY), Int(area.width), Int(area.height))
        let origin = base.advanced(by: top * rowBytes + left * (planar ? 1 : 4)).assumingMemoryBound(to: UInt8.self)
        var codes: [Code] = []
        if !formats.isDisjoint(with: Self.matrixFormats) {
            var found: UnsafeMutablePointer<cbarcodes_code>?
            let count = cbarcodes_read_matrix(origin, Int32(columns), Int32(rows), Int32(rowBytes),
                                              planar ? CBARCODES_LUMA : CBARCODES_BGRX, formats.intersection(Self.matrixFormats).rawValue, &found)
            codes += try Self.codes(found, count, left: left, top: top, library: "zxing-cpp")
        }
        if !formats.subtracting(Self.matrixFormats).isEmpty {
            let linear = formats.subtracting(Self.matrixFormats).rawValue
            var found: UnsafeMutablePointer<cbarcodes_code>?
            let count: Int32
            if planar && rowBytes == columns {
                // The region's luma rows lie end to end already (whole rows of a picture whose
                // rows are not padded): read in place.
                count = cbarcodes_read_linear(origin, Int32(columns), Int32(rows), linear, &found)
            } else {
                count = cbarcodes_read_linear(Self.lumaRows(origin, columns: columns, rows: rows, rowBytes: rowBytes, planar: planar),
                                              Int32(columns), Int32(rows), linear, &found)
            }
            codes += try Self.codes(found, count, left: left, top: top, library: "ZBar")
        }
        return codes
    }

    /// A region's luma rows laid end to end, as ZBar takes them: copied from a 4:2:0 picture's
    /// luma plane, or computed from BGRA (BT.601 weights).
    private static func lumaRows(_ origin: UnsafePointer<UInt8>, columns: Int, rows: Int, rowBytes: Int, planar: Bool) -> [UInt8] {
        var luma = [UInt8](repeating: 0, count: columns * rows)
        luma.withUnsafeMutableBufferPointer { destination in
            for row in 0..<rows {
                let source = origin + row * rowBytes
                let target = destination.baseAddress! + row * columns
                if planar {
                    target.update(from: source, count: columns)
                } else {
                    for column in 0..<columns {
                        let pixel = source + column * 4
                        let (blue, green, red) = (Int(pixel[0]), Int(pixel[1]), Int(pixel[2]))
                        target[column] = UInt8((29 * blue + 150 * green + 77 * red + 128) >> 8)
                    }
                }
            }
        }
        return luma
    }

    /// The codes a library returned (freed here), moved by `left`, `top`.
    private static func codes(_ found: UnsafeMutablePointer<cbarcodes_code>?, _ count: Int32, left: Int, top: Int,
                              library: String) throws(EngineError) -> [Code] {
        defer { cbarcodes_free(found, count) }
        guard count >= 0 else { throw EngineError(operation: "reading barcodes", message: "\(library) failed") }
        return (0..<Int(count)).compactMap { index in
            guard let code = found?[index] else { return nil }
            let corners = withUnsafeBytes(of: code.corners) { Array($0.bindMemory(to: Int32.self)) }
            return Code(format: Format(rawValue: code.format), text: code.text.map { String(cString: $0) } ?? "",
                        corners: stride(from: 0, to: 8, by: 2).map { CGPoint(x: Int(corners[$0]) + left, y: Int(corners[$0 + 1]) + top) })
        }
    }
}
