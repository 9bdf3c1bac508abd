import Foundation
import Testing
@testable import OpenCoreVideo

@Suite(.timeLimit(.minutes(10))) struct CVBufferTests {
    private func makeBuffer() throws -> CVPixelBuffer {
        var pixelBuffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 16, 16, kCVPixelFormatType_32BGRA, nil, &pixelBuffer) == kCVReturnSuccess)
        return try #require(pixelBuffer)
    }

    @Test func keysAndValuesAreApplesStrings() {
        #expect(kCVImageBufferColorPrimariesKey == "CVImageBufferColorPrimaries")
        #expect(kCVImageBufferColorPrimaries_ITU_R_709_2 == "ITU_R_709_2")
        #expect(kCVImageBufferColorPrimaries_ITU_R_2020 == "ITU_R_2020")
        #expect(kCVImageBufferColorPrimaries_SMPTE_C == "SMPTE_C")
        #expect(kCVImageBufferColorPrimaries_EBU_3213 == "EBU_3213")
        #expect(kCVImageBufferColorPrimaries_P3_D65 == "P3_D65")
        #expect(kCVImageBufferTransferFunctionKey == "CVImageBufferTransferFunction")
        #expect(kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ == "SMPTE_ST_2084_PQ")
        #expect(kCVImageBufferTransferFunction_ITU_R_2100_HLG == "ITU_R_2100_HLG")
        #expect(kCVImageBufferTransferFunction_sRGB == "IEC_sRGB")
        #expect(kCVImageBufferTransferFunction_Linear == "Linear")
        #expect(kCVImageBufferYCbCrMatrixKey == "CVImageBufferYCbCrMatrix")
        #expect(kCVImageBufferYCbCrMatrix_ITU_R_601_4 == "ITU_R_601_4")
        #expect(kCVImageBufferFieldCountKey == "CVFieldCount")
        #expect(kCVImageBufferPixelAspectRatioKey == "CVPixelAspectRatio")
        #expect(kCVImageBufferCleanApertureKey == "CVCleanAperture")
        #expect(CVAttachmentMode.shouldPropagate.rawValue == 1)
        #expect(CVAttachmentMode.shouldNotPropagate.rawValue == 0)
    }

    @Test func setCopyRemoveAttachments() throws {
        let buffer = try makeBuffer()
        CVBufferSetAttachment(buffer, kCVImageBufferColorPrimariesKey, kCVImageBufferColorPrimaries_ITU_R_709_2, .shouldPropagate)
        CVBufferSetAttachment(buffer, kCVImageBufferFieldCountKey, NSNumber(value: 1), .shouldNotPropagate)
        var mode = CVAttachmentMode.shouldNotPropagate
        #expect(CVBufferCopyAttachment(buffer, kCVImageBufferColorPrimariesKey, &mode) as? String == "ITU_R_709_2")
        #expect(mode == .shouldPropagate)
        #expect((CVBufferCopyAttachment(buffer, kCVImageBufferFieldCountKey, &mode) as? NSNumber)?.intValue == 1)
        #expect(mode == .shouldNotPropagate)
        #expect(CVBufferGetAttachment(buffer, kCVImageBufferFieldCountKey, nil)?.takeUnretainedValue() as? NSNumber == 1)
        // A key lives in one mode at a time.
        CVBufferSetAttachment(buffer, kCVImageBufferFieldCountKey, NSNumber(value: 2), .shouldPropagate)
        #expect(CVBufferCopyAttachments(buffer, .shouldNotPropagate) == nil)
        #expect(CVBufferCopyAttachments(buffer, .shouldPropagate)?.count == 2)
        #expect(CVBufferGetAttachments(buffer, .shouldNotPropagate)?.count == 0)
        CVBufferRemoveAttachment(buffer, kCVImageBufferFieldCountKey)
        #expect(CVBufferCopyAttachment(buffer, kCVImageBufferFieldCountKey, nil) == nil)
        #expect(CVBufferHasAttachment(buffer, kCVImageBufferColorPrimariesKey))
        CVBufferRemoveAllAttachments(buffer)
        #expect(!CVBufferHasAttachment(buffer, kCVImageBufferColorPrimariesKey))
    }

    @Test func onlyPropagatingAttachmentsPropagate() throws {
        let source = try makeBuffer()
        let destination = try makeBuffer()
        let attachments: [String: Any] = [
            kCVImageBufferColorPrimariesKey as String: kCVImageBufferColorPrimaries_ITU_R_2020,
            kCVImageBufferTransferFunctionKey as String: kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ,
        ]
        CVBufferSetAttachments(source, attachments as CFDictionary, .shouldPropagate)
        CVBufferSetAttachment(source, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_2020, .shouldNotPropagate)
        CVBufferPropagateAttachments(source, destination)
        let copied = try #require(CVBufferCopyAttachments(destination, .shouldPropagate) as? [String: Any])
        #expect(Set(copied.keys) == [kCVImageBufferColorPrimariesKey, kCVImageBufferTransferFunctionKey])
        #expect(copied[kCVImageBufferTransferFunctionKey] as? String == "SMPTE_ST_2084_PQ")
        #expect(!CVBufferHasAttachment(destination, kCVImageBufferYCbCrMatrixKey))
        #expect(CVBufferCopyAttachments(destination, .shouldNotPropagate) == nil)
    }

    @Test func createAppliesAttachmentsFromAttributes() throws {
        let attributes: [String: Any] = [
            kCVBufferPropagatedAttachmentsKey as String: [kCVImageBufferColorPrimariesKey as String: kCVImageBufferColorPrimaries_P3_D65],
            kCVBufferNonPropagatedAttachmentsKey as String: [kCVImageBufferFieldCountKey as String: 1],
        ]
        var pixelBuffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 4, 4, kCVPixelFormatType_32BGRA, attributes as CFDictionary, &pixelBuffer) == kCVReturnSuccess)
        var mode = CVAttachmentMode.shouldPropagate
        #expect(CVBufferCopyAttachment(pixelBuffer!, kCVImageBufferColorPrimariesKey, &mode) as? String == "P3_D65")
        #expect(mode == .shouldPropagate)
        #expect(CVBufferCopyAttachment(pixelBuffer!, kCVImageBufferFieldCountKey, &mode) != nil)
        #expect(mode == .shouldNotPropagate)
    }
}
