import CFFmpeg
import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// A picture's colour with CoreVideo's names: its primaries, transfer function and Y'CbCr
/// matrix, as pixel buffers carry them in attachments (`kCVImageBufferColorPrimariesKey`, …),
/// format descriptions in extensions and FFmpeg's frames in their colour fields. Nil where
/// nothing says.
package struct ColorDescription: Equatable, Sendable {
    /// `kCVImageBufferColorPrimaries_…`, or nil.
    package var primaries: String?
    /// `kCVImageBufferTransferFunction_…`, or nil.
    package var transferFunction: String?
    /// `kCVImageBufferYCbCrMatrix_…`, or nil.
    package var yCbCrMatrix: String?

    /// A description with these names.
    package init(primaries: String? = nil, transferFunction: String? = nil, yCbCrMatrix: String? = nil) {
        self.primaries = primaries
        self.transferFunction = transferFunction
        self.yCbCrMatrix = yCbCrMatrix
    }

    /// A decoded frame's colour, as its decoder states it.
    package init(of frame: Frame) {
        let f = frame.pointer.pointee
        self.init(primaries: CMFormatDescription.colorPrimaries(f.color_primaries),
                  transferFunction: CMFormatDescription.transferFunction(f.color_trc),
                  yCbCrMatrix: CMFormatDescription.yCbCrMatrix(f.colorspace))
    }

    /// A pixel buffer's colour attachments.
    package init(attachmentsOf buffer: CVPixelBuffer) {
        self.init(primaries: buffer.attachmentString(kCVImageBufferColorPrimariesKey),
                  transferFunction: buffer.attachmentString(kCVImageBufferTransferFunctionKey),
                  yCbCrMatrix: buffer.attachmentString(kCVImageBufferYCbCrMatrixKey))
    }

    /// A format description's colour extensions.
    package init(of description: CMFormatDescription) {
        func name(_ key: CFString) -> String? { CMFormatDescriptionGetExtension(description, extensionKey: key) as? String }
        self.init(primaries: name(kCMFormatDescriptionExtension_ColorPrimaries),
                  transferFunction: name(kCMFormatDescriptionExtension_TransferFunction),
                  yCbCrMatrix: name(kCMFormatDescriptionExtension_YCbCrMatrix))
    }

    /// Whether nothing is stated.
    package var isEmpty: Bool { primaries == nil && transferFunction == nil && yCbCrMatrix == nil }

    /// These names, each missing one taken from `other`.
    package func filled(from other: ColorDescription) -> ColorDescription {
        ColorDescription(primaries: primaries ?? other.primaries, transferFunction: transferFunction ?? other.transferFunction,
                         yCbCrMatrix: yCbCrMatrix ?? other.yCbCrMatrix)
    }

    /// Whether `other` states each name this one states, the same.
    package func isMet(by other: ColorDescription) -> Bool {
        (primaries == nil || primaries == other.primaries) && (transferFunction == nil || transferFunction == other.transferFunction)
            && (yCbCrMatrix == nil || yCbCrMatrix == other.yCbCrMatrix)
    }

    /// Sets these names as `buffer`'s propagated colour attachments, and removes the ones not
    /// stated (pooled buffers keep the attachments of their last use). The values are shared
    /// string objects: tagging every frame allocates nothing.
    package func attach(to buffer: CVPixelBuffer) {
        for (key, value) in [(kCVImageBufferColorPrimariesKey, primaries), (kCVImageBufferTransferFunctionKey, transferFunction),
                             (kCVImageBufferYCbCrMatrixKey, yCbCrMatrix)] {
            if let value {
                CVBufferSetAttachment(buffer, key, Self.object(value), .shouldPropagate)
            } else {
                CVBufferRemoveAttachment(buffer, key)
            }
        }
    }

    /// The shared string object of a colour name.
    private static func object(_ name: String) -> NSString {
        objects[name] ?? NSString(string: name)
    }

    /// The string objects of every name a decoder states (immutable strings, read from any thread).
    private nonisolated(unsafe) static let objects: [String: NSString] = {
        let names = [kCVImageBufferColorPrimaries_ITU_R_709_2, kCVImageBufferColorPrimaries_EBU_3213, kCVImageBufferColorPrimaries_SMPTE_C,
                     kCVImageBufferColorPrimaries_ITU_R_2020, kCVImageBufferColorPrimaries_DCI_P3, kCVImageBufferColorPrimaries_P3_D65,
                     kCVImageBufferColorPrimaries_P22, kCVImageBufferTransferFunction_ITU_R_709_2,
                     kCVImageBufferTransferFunction_ITU_R_2020, kCVImageBufferTransferFunction_SMPTE_240M_1995,
                     kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ, kCVImageBufferTransferFunction_ITU_R_2100_HLG,
                     kCVImageBufferTransferFunction_SMPTE_ST_428_1, kCVImageBufferTransferFunction_Linear,
                     kCVImageBufferTransferFunction_sRGB, kCVImageBufferYCbCrMatrix_ITU_R_601_4,
                     kCVImageBufferYCbCrMatrix_SMPTE_240M_1995, kCVImageBufferYCbCrMatrix_ITU_R_2020]
        return Dictionary(names.map { ($0, NSString(string: $0)) }, uniquingKeysWith: { first, _ in first })
    }()
}
