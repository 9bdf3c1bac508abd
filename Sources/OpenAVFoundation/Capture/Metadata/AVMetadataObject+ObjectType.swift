extension AVMetadataObject {
    /// The kinds of metadata objects, by Apple's names and values.
    public struct ObjectType: RawRepresentable, Hashable, Sendable {
        /// The type's identifier, such as `"org.iso.QRCode"`.
        public let rawValue: String

        /// A type from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A face.
        public static let face = ObjectType(rawValue: "face")
        /// QR code.
        public static let qr = ObjectType(rawValue: "org.iso.QRCode")
        /// Micro QR code.
        public static let microQR = ObjectType(rawValue: "org.iso.MicroQR")
        /// Aztec code.
        public static let aztec = ObjectType(rawValue: "org.iso.Aztec")
        /// Data Matrix code.
        public static let dataMatrix = ObjectType(rawValue: "org.iso.DataMatrix")
        /// PDF417 code.
        public static let pdf417 = ObjectType(rawValue: "org.iso.PDF417")
        /// MicroPDF417 code.
        public static let microPDF417 = ObjectType(rawValue: "org.iso.MicroPDF417")
        /// Code 39.
        public static let code39 = ObjectType(rawValue: "org.iso.Code39")
        /// Code 39 with a mod 43 check digit.
        public static let code39Mod43 = ObjectType(rawValue: "org.iso.Code39Mod43")
        /// Code 93.
        public static let code93 = ObjectType(rawValue: "com.intermec.Code93")
        /// Code 128.
        public static let code128 = ObjectType(rawValue: "org.iso.Code128")
        /// EAN-8.
        public static let ean8 = ObjectType(rawValue: "org.gs1.EAN-8")
        /// EAN-13 (UPC-A codes are reported as EAN-13, a zero ahead of their digits).
        public static let ean13 = ObjectType(rawValue: "org.gs1.EAN-13")
        /// UPC-E.
        public static let upce = ObjectType(rawValue: "org.gs1.UPC-E")
        /// Interleaved 2 of 5.
        public static let interleaved2of5 = ObjectType(rawValue: "org.ansi.Interleaved2of5")
        /// ITF-14: Interleaved 2 of 5 of 14 digits, the last a check digit.
        public static let itf14 = ObjectType(rawValue: "org.gs1.ITF14")
        /// Codabar.
        public static let codabar = ObjectType(rawValue: "Codabar")
        /// GS1 DataBar (omnidirectional).
        public static let gs1DataBar = ObjectType(rawValue: "org.gs1.GS1DataBar")
        /// GS1 DataBar Expanded.
        public static let gs1DataBarExpanded = ObjectType(rawValue: "org.gs1.GS1DataBarExpanded")
        /// GS1 DataBar Limited.
        public static let gs1DataBarLimited = ObjectType(rawValue: "org.gs1.GS1DataBarLimited")
    }
}
