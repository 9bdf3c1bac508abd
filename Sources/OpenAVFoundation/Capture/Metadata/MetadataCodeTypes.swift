import MediaEngine

/// The barcode types `AVCaptureMetadataOutput` reads, each as zxing-cpp's formats: the one
/// mapping between Apple's types and the detector's.
enum MetadataCodeTypes {
    /// Apple's code types that zxing-cpp reads (MicroPDF417 and GS1 DataBar Limited it does not).
    static let available: [AVMetadataObject.ObjectType] = [
        .qr, .microQR, .aztec, .dataMatrix, .pdf417, .code39, .code39Mod43, .code93, .code128, .ean8, .ean13, .upce,
        .interleaved2of5, .itf14, .codabar, .gs1DataBar, .gs1DataBarExpanded,
    ]

    /// The detector's formats of a type (UPC-A is read for EAN-13, ITF for both of its types).
    private static func formats(of type: AVMetadataObject.ObjectType) -> CodeReader.Format {
        switch type {
        case .qr: .qrCode
        case .microQR: .microQRCode
        case .aztec: .aztec
        case .dataMatrix: .dataMatrix
        case .pdf417: .pdf417
        case .code39, .code39Mod43: .code39
        case .code93: .code93
        case .code128: .code128
        case .ean8: .ean8
        case .ean13: [.ean13, .upcA]
        case .upce: .upcE
        case .interleaved2of5, .itf14: .itf
        case .codabar: .codabar
        case .gs1DataBar: .dataBar
        case .gs1DataBarExpanded: .dataBarExpanded
        default: []
        }
    }

    /// The formats to look for to find `types`.
    static func formats(for types: Set<AVMetadataObject.ObjectType>) -> CodeReader.Format {
        types.reduce(into: []) { $0.formUnion(formats(of: $1)) }
    }

    /// The type and text of a code read, as Apple reports it among the `types` asked for: UPC-A
    /// as EAN-13 with a zero ahead, ITF of 14 digits with a right check digit as ITF-14 (when
    /// asked for; else, and other lengths, as Interleaved 2 of 5), Code 39 as Code 39 when asked
    /// for, else as Code 39 mod 43. Nil when none of the types asked for is the code's.
    static func type(of code: CodeReader.Code, among types: Set<AVMetadataObject.ObjectType>) -> (AVMetadataObject.ObjectType, String)? {
        let candidates: [(AVMetadataObject.ObjectType, String)]
        switch code.format {
        case .upcA: candidates = [(.ean13, "0" + code.text)]
        case .itf:
            let itf14 = code.text.count == 14 && isGS1CheckDigitRight(code.text)
            candidates = (itf14 ? [(.itf14, code.text)] : []) + [(.interleaved2of5, code.text)]
        case .code39: candidates = [(.code39, code.text), (.code39Mod43, code.text)]
        default:
            candidates = available.filter { formats(of: $0).contains(code.format) }.map { ($0, code.text) }
        }
        return candidates.first { types.contains($0.0) }
    }

    /// Whether the last digit of a GS1 number is its check digit (weights 3 and 1 from the
    /// right, the sum a multiple of ten).
    private static func isGS1CheckDigitRight(_ digits: String) -> Bool {
        let values = digits.compactMap(\.wholeNumberValue)
        guard values.count == digits.count, let check = values.last else { return false }
        let sum = values.dropLast().reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10 == check
    }
}
