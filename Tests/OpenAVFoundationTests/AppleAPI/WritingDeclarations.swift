import Testing
import OpenAVFoundation

// Apple's declarations of the writing classes (AVAssetWriter, its inputs, the pixel buffer
// adaptor, the segment reports), the export session and its presets, the output settings
// assistant and the audio and video settings keys, spelled as Apple's Swift SDK spells them. Each
// typed reference breaks the build when a name, a label, an optionality, an `async` or a
// `throws` drifts from Apple's. Nothing here reads or writes media. (`AVAudioTimePitchAlgorithm`
// is checked with the playback declarations.)

/// A segment delegate as an Apple-platform program writes one: an `NSObject` with both of the
/// protocol's (optional, on Apple platforms) methods.
private final class SegmentDelegate: NSObject, AVAssetWriterDelegate {
    func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType,
                     segmentReport: AVAssetSegmentReport?) {}
    func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType) {}
}

@Suite(.timeLimit(.minutes(10))) struct WritingAppleDeclarationTests {
    // https://developer.apple.com/documentation/avfoundation/avassetwriter
    @Test func assetWriter() {
        let _: (URL, AVFileType) throws -> AVAssetWriter = AVAssetWriter.init(outputURL:fileType:)
        let _: (URL, AVFileType) throws -> AVAssetWriter = AVAssetWriter.init(url:fileType:)
        let _: (UTType) -> AVAssetWriter = AVAssetWriter.init(contentType:)
        let _: KeyPath<AVAssetWriter, URL> = \AVAssetWriter.outputURL
        let _: KeyPath<AVAssetWriter, AVFileType> = \AVAssetWriter.outputFileType
        let _: KeyPath<AVAssetWriter, [AVMediaType]> = \AVAssetWriter.availableMediaTypes
        let _: KeyPath<AVAssetWriter, AVAssetWriter.Status> = \AVAssetWriter.status
        let _: KeyPath<AVAssetWriter, (any Error)?> = \AVAssetWriter.error
        let _: KeyPath<AVAssetWriter, [AVAssetWriterInput]> = \AVAssetWriter.inputs
        let _: ReferenceWritableKeyPath<AVAssetWriter, [AVMetadataItem]> = \AVAssetWriter.metadata
        let _: ReferenceWritableKeyPath<AVAssetWriter, Bool> = \AVAssetWriter.shouldOptimizeForNetworkUse
        let _: ReferenceWritableKeyPath<AVAssetWriter, URL?> = \AVAssetWriter.directoryForTemporaryFiles
        let _: ReferenceWritableKeyPath<AVAssetWriter, CMTime> = \AVAssetWriter.movieFragmentInterval
        let _: ReferenceWritableKeyPath<AVAssetWriter, CMTime> = \AVAssetWriter.overallDurationHint
        let _: ReferenceWritableKeyPath<AVAssetWriter, CMTimeScale> = \AVAssetWriter.movieTimeScale
        let _: ReferenceWritableKeyPath<AVAssetWriter, CMTime> = \AVAssetWriter.preferredOutputSegmentInterval
        let _: ReferenceWritableKeyPath<AVAssetWriter, CMTime> = \AVAssetWriter.initialSegmentStartTime
        let _: ReferenceWritableKeyPath<AVAssetWriter, AVFileTypeProfile?> = \AVAssetWriter.outputFileTypeProfile
        let _: ReferenceWritableKeyPath<AVAssetWriter, (any AVAssetWriterDelegate)?> = \AVAssetWriter.delegate
        let _: (AVAssetWriter) -> ([String: Any]?, AVMediaType) -> Bool = AVAssetWriter.canApply(outputSettings:forMediaType:)
        let _: (AVAssetWriter) -> (AVAssetWriterInput) -> Bool = AVAssetWriter.canAdd(_:)
        let _: (AVAssetWriter) -> (AVAssetWriterInput) -> Void = AVAssetWriter.add(_:)
        let _: (AVAssetWriter) -> () -> Bool = AVAssetWriter.startWriting
        let _: (AVAssetWriter) -> (CMTime) -> Void = AVAssetWriter.startSession(atSourceTime:)
        let _: (AVAssetWriter) -> (CMTime) -> Void = AVAssetWriter.endSession(atSourceTime:)
        let _: (AVAssetWriter) -> () -> Void = AVAssetWriter.cancelWriting
        let _: (AVAssetWriter) -> (@escaping @Sendable () -> Void) -> Void = AVAssetWriter.finishWriting(completionHandler:)
        let _: (AVAssetWriter) async -> Void = { await $0.finishWriting() }
        let _: (AVAssetWriter) -> () -> Void = AVAssetWriter.flushSegment

        // https://developer.apple.com/documentation/avfoundation/avassetwriter/status-swift.enum
        let statuses: [AVAssetWriter.Status] = [.unknown, .writing, .completed, .failed, .cancelled]
        #expect(statuses.map(\.rawValue) == [0, 1, 2, 3, 4])

        // A writer of segments makes no file; it starts with no inputs and an unknown status.
        let writer = AVAssetWriter(contentType: .mpeg4Movie)
        let delegate = SegmentDelegate()
        writer.delegate = delegate
        writer.outputFileTypeProfile = .mpeg4AppleHLS
        #expect(writer.inputs.isEmpty && writer.status == .unknown && writer.error == nil && writer.delegate === delegate)
    }

    // https://developer.apple.com/documentation/avfoundation/avassetwriterdelegate
    // https://developer.apple.com/documentation/avfoundation/avassetsegmentreport
    @Test func segmentsAndReports() {
        let _: (any AVAssetWriterDelegate) -> (AVAssetWriter, Data, AVAssetSegmentType, AVAssetSegmentReport?) -> Void = {
            $0.assetWriter(_:didOutputSegmentData:segmentType:segmentReport:)
        }
        let _: (any AVAssetWriterDelegate) -> (AVAssetWriter, Data, AVAssetSegmentType) -> Void = {
            $0.assetWriter(_:didOutputSegmentData:segmentType:)
        }
        let _: any NSObjectProtocol = SegmentDelegate() as any AVAssetWriterDelegate
        let _: KeyPath<AVAssetSegmentReport, AVAssetSegmentType> = \AVAssetSegmentReport.segmentType
        let _: KeyPath<AVAssetSegmentReport, [AVAssetSegmentTrackReport]> = \AVAssetSegmentReport.trackReports
        let _: KeyPath<AVAssetSegmentTrackReport, CMPersistentTrackID> = \AVAssetSegmentTrackReport.trackID
        let _: KeyPath<AVAssetSegmentTrackReport, AVMediaType> = \AVAssetSegmentTrackReport.mediaType
        let _: KeyPath<AVAssetSegmentTrackReport, CMTime> = \AVAssetSegmentTrackReport.earliestPresentationTimeStamp
        let _: KeyPath<AVAssetSegmentTrackReport, CMTime> = \AVAssetSegmentTrackReport.duration
        let _: KeyPath<AVAssetSegmentTrackReport, AVAssetSegmentReportSampleInformation?> =
            \AVAssetSegmentTrackReport.firstVideoSampleInformation
        let _: KeyPath<AVAssetSegmentReportSampleInformation, CMTime> = \AVAssetSegmentReportSampleInformation.presentationTimeStamp
        let _: KeyPath<AVAssetSegmentReportSampleInformation, Int> = \AVAssetSegmentReportSampleInformation.offset
        let _: KeyPath<AVAssetSegmentReportSampleInformation, Int> = \AVAssetSegmentReportSampleInformation.length
        let _: KeyPath<AVAssetSegmentReportSampleInformation, Bool> = \AVAssetSegmentReportSampleInformation.isSyncSample
        let _: (AVAssetSegmentReport) -> NSObject = { $0 }
        let _: (AVAssetSegmentTrackReport) -> NSObject = { $0 }
        let _: (AVAssetSegmentReportSampleInformation) -> NSObject = { $0 }

        // https://developer.apple.com/documentation/avfoundation/avassetsegmenttype
        #expect(AVAssetSegmentType.initialization.rawValue == 1 && AVAssetSegmentType.separable.rawValue == 2)
        // https://developer.apple.com/documentation/avfoundation/avfiletypeprofile
        let _: (String) -> AVFileTypeProfile = AVFileTypeProfile.init(rawValue:)
        let _: [AVFileTypeProfile] = [.mpeg4AppleHLS, .mpeg4CMAFCompliant]
    }

    // https://developer.apple.com/documentation/avfoundation/avassetwriterinput
    @Test func assetWriterInput() {
        let _: (AVMediaType, [String: Any]?, CMFormatDescription?) -> AVAssetWriterInput =
            AVAssetWriterInput.init(mediaType:outputSettings:sourceFormatHint:)
        let _: (AVMediaType, [String: Any]?) -> AVAssetWriterInput = AVAssetWriterInput.init(mediaType:outputSettings:)
        let _: KeyPath<AVAssetWriterInput, AVMediaType> = \AVAssetWriterInput.mediaType
        let _: KeyPath<AVAssetWriterInput, [String: Any]?> = \AVAssetWriterInput.outputSettings
        let _: KeyPath<AVAssetWriterInput, CMFormatDescription?> = \AVAssetWriterInput.sourceFormatHint
        let _: ReferenceWritableKeyPath<AVAssetWriterInput, [AVMetadataItem]> = \AVAssetWriterInput.metadata
        let _: KeyPath<AVAssetWriterInput, Bool> = \AVAssetWriterInput.isReadyForMoreMediaData
        let _: ReferenceWritableKeyPath<AVAssetWriterInput, Bool> = \AVAssetWriterInput.expectsMediaDataInRealTime
        let _: ReferenceWritableKeyPath<AVAssetWriterInput, String?> = \AVAssetWriterInput.languageCode
        let _: ReferenceWritableKeyPath<AVAssetWriterInput, String?> = \AVAssetWriterInput.extendedLanguageTag
        let _: ReferenceWritableKeyPath<AVAssetWriterInput, CGSize> = \AVAssetWriterInput.naturalSize
        let _: ReferenceWritableKeyPath<AVAssetWriterInput, CGAffineTransform> = \AVAssetWriterInput.transform
        let _: ReferenceWritableKeyPath<AVAssetWriterInput, Bool> = \AVAssetWriterInput.marksOutputTrackAsEnabled
        let _: ReferenceWritableKeyPath<AVAssetWriterInput, CMTimeScale> = \AVAssetWriterInput.mediaTimeScale
        let _: (AVAssetWriterInput) -> (AVAssetWriterInput, String) -> Bool = AVAssetWriterInput.canAddTrackAssociation(withTrackOf:type:)
        let _: (AVAssetWriterInput) -> (AVAssetWriterInput, String) -> Void = AVAssetWriterInput.addTrackAssociation(withTrackOf:type:)
        // avfoundation/avassettrack/associationtype: the track reference types.
        #expect([AVAssetTrack.AssociationType.audioFallback, .chapterList, .forcedSubtitlesOnly, .selectionFollower, .timecode,
                 .metadataReferent].map(\.rawValue) == ["fall", "chap", "forc", "folw", "tmcd", "cdsc"])
        let _: (AVAssetWriterInput) -> (DispatchQueue, @escaping @Sendable () -> Void) -> Void =
            AVAssetWriterInput.requestMediaDataWhenReady(on:using:)
        let _: (AVAssetWriterInput) -> (CMSampleBuffer) -> Bool = AVAssetWriterInput.append(_:)
        let _: (AVAssetWriterInput) -> () -> Void = AVAssetWriterInput.markAsFinished
        // Passes: https://developer.apple.com/documentation/avfoundation/avassetwriterinput/currentpassdescription
        let _: ReferenceWritableKeyPath<AVAssetWriterInput, Bool> = \AVAssetWriterInput.performsMultiPassEncodingIfSupported
        let _: KeyPath<AVAssetWriterInput, Bool> = \AVAssetWriterInput.canPerformMultiplePasses
        let _: KeyPath<AVAssetWriterInput, AVAssetWriterInputPassDescription?> = \AVAssetWriterInput.currentPassDescription
        let _: (AVAssetWriterInput) -> (DispatchQueue, @escaping @Sendable () -> Void) -> Void =
            AVAssetWriterInput.respondToEachPassDescription(on:using:)
        let _: (AVAssetWriterInput) -> () -> Void = AVAssetWriterInput.markCurrentPassAsFinished
        let _: KeyPath<AVAssetWriterInputPassDescription, [NSValue]> = \AVAssetWriterInputPassDescription.sourceTimeRanges

        // Before writing starts an input has no pass, and never offers several.
        let input = AVAssetWriterInput(mediaType: .audio, outputSettings: nil)
        #expect(input.currentPassDescription == nil && !input.canPerformMultiplePasses && !input.performsMultiPassEncodingIfSupported)
        #expect(input.outputSettings == nil && input.sourceFormatHint == nil && input.marksOutputTrackAsEnabled)
    }

    // https://developer.apple.com/documentation/avfoundation/avassetwriterinputpixelbufferadaptor
    @Test func pixelBufferAdaptor() {
        let _: (AVAssetWriterInput, [String: Any]?) -> AVAssetWriterInputPixelBufferAdaptor =
            AVAssetWriterInputPixelBufferAdaptor.init(assetWriterInput:sourcePixelBufferAttributes:)
        let _: KeyPath<AVAssetWriterInputPixelBufferAdaptor, AVAssetWriterInput> = \AVAssetWriterInputPixelBufferAdaptor.assetWriterInput
        let _: KeyPath<AVAssetWriterInputPixelBufferAdaptor, [String: any Sendable]?> =
            \AVAssetWriterInputPixelBufferAdaptor.sourcePixelBufferAttributes
        let _: KeyPath<AVAssetWriterInputPixelBufferAdaptor, CVPixelBufferPool?> = \AVAssetWriterInputPixelBufferAdaptor.pixelBufferPool
        let _: (AVAssetWriterInputPixelBufferAdaptor) -> (CVPixelBuffer, CMTime) -> Bool =
            AVAssetWriterInputPixelBufferAdaptor.append(_:withPresentationTime:)

        // The attributes default to nil, and come back as given.
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: nil)
        #expect(AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input).sourcePixelBufferAttributes == nil)
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(
            assetWriterInput: AVAssetWriterInput(mediaType: .video, outputSettings: nil),
            sourcePixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey as String: 64])
        #expect(adaptor.sourcePixelBufferAttributes?[kCVPixelBufferPixelFormatTypeKey as String] as? OSType == kCVPixelFormatType_32BGRA)
        #expect(adaptor.sourcePixelBufferAttributes?[kCVPixelBufferWidthKey as String] as? Int == 64)
        // No pool before the writer writes.
        #expect(adaptor.pixelBufferPool == nil)
    }

    // https://developer.apple.com/documentation/avfoundation/avassetexportsession
    @Test func exportSession() {
        let _: (AVAsset, String) -> AVAssetExportSession? = AVAssetExportSession.init(asset:presetName:)
        let _: KeyPath<AVAssetExportSession, AVAsset> = \AVAssetExportSession.asset
        let _: KeyPath<AVAssetExportSession, String> = \AVAssetExportSession.presetName
        let _: ReferenceWritableKeyPath<AVAssetExportSession, URL?> = \AVAssetExportSession.outputURL
        let _: ReferenceWritableKeyPath<AVAssetExportSession, AVFileType?> = \AVAssetExportSession.outputFileType
        let _: ReferenceWritableKeyPath<AVAssetExportSession, Bool> = \AVAssetExportSession.shouldOptimizeForNetworkUse
        let _: ReferenceWritableKeyPath<AVAssetExportSession, Bool> = \AVAssetExportSession.allowsParallelizedExport
        let _: ReferenceWritableKeyPath<AVAssetExportSession, CMTimeRange> = \AVAssetExportSession.timeRange
        let _: ReferenceWritableKeyPath<AVAssetExportSession, Int64> = \AVAssetExportSession.fileLengthLimit
        let _: ReferenceWritableKeyPath<AVAssetExportSession, [AVMetadataItem]?> = \AVAssetExportSession.metadata
        let _: ReferenceWritableKeyPath<AVAssetExportSession, AVMetadataItemFilter?> = \AVAssetExportSession.metadataItemFilter
        let _: ReferenceWritableKeyPath<AVAssetExportSession, AVAudioTimePitchAlgorithm> = \AVAssetExportSession.audioTimePitchAlgorithm
        let _: ReferenceWritableKeyPath<AVAssetExportSession, AVAudioMix?> = \AVAssetExportSession.audioMix
        let _: ReferenceWritableKeyPath<AVAssetExportSession, AVVideoComposition?> = \AVAssetExportSession.videoComposition
        let _: ReferenceWritableKeyPath<AVAssetExportSession, Bool> = \AVAssetExportSession.canPerformMultiplePassesOverSourceMediaData
        let _: ReferenceWritableKeyPath<AVAssetExportSession, URL?> = \AVAssetExportSession.directoryForTemporaryFiles
        let _: () -> [String] = AVAssetExportSession.allExportPresets
        let _: (AVAsset) -> [String] = AVAssetExportSession.exportPresets(compatibleWith:)
        let _: (String, AVAsset, AVFileType?, @escaping @Sendable (Bool) -> Void) -> Void =
            AVAssetExportSession.determineCompatibility(ofExportPreset:with:outputFileType:completionHandler:)
        let _: (String, AVAsset, AVFileType?) async -> Bool = AVAssetExportSession.compatibility(ofExportPreset:with:outputFileType:)
        let _: KeyPath<AVAssetExportSession, [AVFileType]> = \AVAssetExportSession.supportedFileTypes
        let _: (AVAssetExportSession) -> (@escaping @Sendable ([AVFileType]) -> Void) -> Void =
            AVAssetExportSession.determineCompatibleFileTypes(completionHandler:)
        let _: (AVAssetExportSession) async -> [AVFileType] = { await $0.compatibleFileTypes }
        let _: KeyPath<AVAssetExportSession, CMTime> = \AVAssetExportSession.maxDuration
        let _: KeyPath<AVAssetExportSession, Int64> = \AVAssetExportSession.estimatedOutputFileLength
        let _: (AVAssetExportSession) -> (@escaping @Sendable (Int64, (any Error)?) -> Void) -> Void =
            AVAssetExportSession.estimateOutputFileLength(completionHandler:)
        let _: (AVAssetExportSession) async throws -> Int64 = { try await $0.estimatedOutputFileLengthInBytes }
        let _: (AVAssetExportSession) -> (@escaping @Sendable (CMTime, (any Error)?) -> Void) -> Void =
            AVAssetExportSession.estimateMaximumDuration(completionHandler:)
        let _: (AVAssetExportSession) async throws -> CMTime = { try await $0.estimatedMaximumDuration }
        let _: KeyPath<AVAssetExportSession, AVAssetExportSession.Status> = \AVAssetExportSession.status
        let _: KeyPath<AVAssetExportSession, Float> = \AVAssetExportSession.progress
        let _: KeyPath<AVAssetExportSession, (any Error)?> = \AVAssetExportSession.error
        let _: (AVAssetExportSession) -> (@escaping @Sendable () -> Void) -> Void = AVAssetExportSession.exportAsynchronously(completionHandler:)
        let _: (AVAssetExportSession) async -> Void = { await $0.export() }
        let _: (AVAssetExportSession, URL) async throws -> Void = { try await $0.export(to: $1, as: .mp4) }
        let _: (AVAssetExportSession) -> () -> Void = AVAssetExportSession.cancelExport
        let _: (AVAssetExportSession) -> any AsyncSequence<AVAssetExportSession.State, Never> = { $0.states(updateInterval: 0.5) }
        let _: (AVAssetExportSession) -> any AsyncSequence<AVAssetExportSession.State, Never> & Sendable = { $0.states() }

        // https://developer.apple.com/documentation/avfoundation/avassetexportsession/status-swift.enum
        let statuses: [AVAssetExportSession.Status] = [.unknown, .waiting, .exporting, .completed, .failed, .cancelled]
        #expect(statuses.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
        // https://developer.apple.com/documentation/avfoundation/avassetexportsession/state
        let _: [AVAssetExportSession.State] = [.pending, .waiting, .exporting(progress: Progress(totalUnitCount: 1))]

        // https://developer.apple.com/documentation/avfoundation/avmetadataitemfilter
        let _: () -> AVMetadataItemFilter = AVMetadataItemFilter.forSharing
        let _: ([AVMetadataItem], AVMetadataItemFilter) -> [AVMetadataItem] = AVMetadataItem.metadataItems(from:filteredBy:)
    }

    // https://developer.apple.com/documentation/avfoundation/export-presets
    @Test func exportPresets() {
        let offered: [String] = [
            AVAssetExportPresetLowQuality, AVAssetExportPresetMediumQuality, AVAssetExportPresetHighestQuality,
            AVAssetExportPresetHEVCHighestQuality, AVAssetExportPreset640x480, AVAssetExportPreset960x540,
            AVAssetExportPreset1280x720, AVAssetExportPreset1920x1080, AVAssetExportPreset3840x2160,
            AVAssetExportPresetHEVC1920x1080, AVAssetExportPresetHEVC3840x2160, AVAssetExportPresetHEVC7680x4320,
            AVAssetExportPresetAppleM4A, AVAssetExportPresetPassthrough, AVAssetExportPresetAppleProRes422LPCM,
            AVAssetExportPresetAppleProRes4444LPCM,
        ]
        let notOffered: [String] = [
            AVAssetExportPresetHEVCHighestQualityWithAlpha, AVAssetExportPresetHEVC1920x1080WithAlpha,
            AVAssetExportPresetHEVC3840x2160WithAlpha, AVAssetExportPresetHEVC4320x2160, AVAssetExportPresetMVHEVC960x960,
            AVAssetExportPresetMVHEVC1440x1440, AVAssetExportPresetMVHEVC4320x4320, AVAssetExportPresetMVHEVC7680x7680,
            AVAssetExportPresetAppleM4VCellular, AVAssetExportPresetAppleM4ViPod, AVAssetExportPresetAppleM4V480pSD,
            AVAssetExportPresetAppleM4VAppleTV, AVAssetExportPresetAppleM4VWiFi, AVAssetExportPresetAppleM4V720pHD,
            AVAssetExportPresetAppleM4V1080pHD,
        ]
        #expect(Set(AVAssetExportSession.allExportPresets()) == Set(offered))
        #expect(Set(offered + notOffered).count == offered.count + notOffered.count)
    }

    // https://developer.apple.com/documentation/avfoundation/avoutputsettingsassistant
    @Test func outputSettingsAssistant() throws {
        let _: () -> [AVOutputSettingsPreset] = AVOutputSettingsAssistant.availableOutputSettingsPresets
        let _: (AVOutputSettingsPreset) -> AVOutputSettingsAssistant? = AVOutputSettingsAssistant.init(preset:)
        let _: KeyPath<AVOutputSettingsAssistant, [String: Any]?> = \AVOutputSettingsAssistant.audioSettings
        let _: KeyPath<AVOutputSettingsAssistant, [String: Any]?> = \AVOutputSettingsAssistant.videoSettings
        let _: KeyPath<AVOutputSettingsAssistant, AVFileType> = \AVOutputSettingsAssistant.outputFileType
        let _: ReferenceWritableKeyPath<AVOutputSettingsAssistant, CMAudioFormatDescription?> = \AVOutputSettingsAssistant.sourceAudioFormat
        let _: ReferenceWritableKeyPath<AVOutputSettingsAssistant, CMVideoFormatDescription?> = \AVOutputSettingsAssistant.sourceVideoFormat
        let _: ReferenceWritableKeyPath<AVOutputSettingsAssistant, CMTime> = \AVOutputSettingsAssistant.sourceVideoAverageFrameDuration
        let _: ReferenceWritableKeyPath<AVOutputSettingsAssistant, CMTime> = \AVOutputSettingsAssistant.sourceVideoMinFrameDuration
        let _: (AVOutputSettingsAssistant) -> NSObject = { $0 }

        // https://developer.apple.com/documentation/avfoundation/avoutputsettingspreset
        let _: (String) -> AVOutputSettingsPreset = AVOutputSettingsPreset.init(rawValue:)
        let offered: [AVOutputSettingsPreset] = [
            .preset640x480, .preset960x540, .preset1280x720, .preset1920x1080, .preset3840x2160, .hevc1920x1080,
            .hevc1920x1080WithAlpha, .hevc3840x2160, .hevc3840x2160WithAlpha, .hevc7680x4320,
        ]
        let notOffered: [AVOutputSettingsPreset] = [.hevc4320x2160, .mvhevc960x960, .mvhevc1440x1440, .mvhevc4320x4320, .mvhevc7680x7680]
        #expect(Set(AVOutputSettingsAssistant.availableOutputSettingsPresets()) == Set(offered))
        #expect(notOffered.allSatisfy { AVOutputSettingsAssistant(preset: $0) == nil })
        let assistant = try #require(AVOutputSettingsAssistant(preset: .preset1280x720))
        #expect(assistant.outputFileType == .mov && assistant.sourceVideoFormat == nil)
    }

    // https://developer.apple.com/documentation/avfoundation/avvideocodectype
    @Test func videoCodecTypes() {
        let _: (String) -> AVVideoCodecType = AVVideoCodecType.init(rawValue:)
        let codecs: [AVVideoCodecType] = [
            .h264, .hevc, .hevcWithAlpha, .jpeg, .JPEGXL, .proRes422, .proRes422HQ, .proRes422LT, .proRes422Proxy,
            .proRes4444, .appleProRes4444XQ, .proResRAW, .proResRAWHQ,
        ]
        #expect(codecs.map(\.rawValue) == ["avc1", "hvc1", "muxa", "jpeg", "jxlc", "apcn", "apch", "apcs", "apco", "ap4h", "ap4x", "aprn", "aprh"])
        // The deprecated string constants of the same codecs.
        #expect([AVVideoCodecH264, AVVideoCodecHEVC, AVVideoCodecJPEG, AVVideoCodecAppleProRes422, AVVideoCodecAppleProRes4444]
                    == [AVVideoCodecType.h264, .hevc, .jpeg, .proRes422, .proRes4444].map(\.rawValue))
        // https://developer.apple.com/documentation/avfoundation/avvideoaperturemode
        let _: (String) -> AVVideoApertureMode = AVVideoApertureMode.init(rawValue:)
        let _: [AVVideoApertureMode] = [.cleanAperture, .productionAperture, .encodedPixels]
    }

    // https://developer.apple.com/documentation/avfoundation/video-settings
    @Test func videoSettingsKeys() {
        let keys: [String] = [
            AVVideoCodecKey, AVVideoWidthKey, AVVideoHeightKey, AVVideoPixelAspectRatioKey,
            AVVideoPixelAspectRatioHorizontalSpacingKey, AVVideoPixelAspectRatioVerticalSpacingKey, AVVideoCleanApertureKey,
            AVVideoCleanApertureWidthKey, AVVideoCleanApertureHeightKey, AVVideoCleanApertureHorizontalOffsetKey,
            AVVideoCleanApertureVerticalOffsetKey, AVVideoScalingModeKey, AVVideoColorPropertiesKey, AVVideoColorPrimariesKey,
            AVVideoTransferFunctionKey, AVVideoYCbCrMatrixKey, AVVideoAllowWideColorKey, AVVideoCompressionPropertiesKey,
            AVVideoDecompressionPropertiesKey, AVVideoEncoderSpecificationKey,
        ]
        let compressionKeys: [String] = [
            AVVideoAverageBitRateKey, AVVideoQualityKey, AVVideoMaxKeyFrameIntervalKey, AVVideoMaxKeyFrameIntervalDurationKey,
            AVVideoAllowFrameReorderingKey, AVVideoProfileLevelKey, AVVideoH264EntropyModeKey, AVVideoExpectedSourceFrameRateKey,
            AVVideoAverageNonDroppableFrameRateKey,
        ]
        let values: [String] = [
            AVVideoScalingModeFit, AVVideoScalingModeResize, AVVideoScalingModeResizeAspect, AVVideoScalingModeResizeAspectFill,
            AVVideoColorPrimaries_ITU_R_709_2, AVVideoColorPrimaries_EBU_3213, AVVideoColorPrimaries_SMPTE_C,
            AVVideoColorPrimaries_P3_D65, AVVideoColorPrimaries_ITU_R_2020, AVVideoTransferFunction_ITU_R_709_2,
            AVVideoTransferFunction_SMPTE_240M_1995, AVVideoTransferFunction_SMPTE_ST_2084_PQ, AVVideoTransferFunction_ITU_R_2100_HLG,
            AVVideoTransferFunction_Linear, AVVideoTransferFunction_IEC_sRGB, AVVideoYCbCrMatrix_ITU_R_709_2,
            AVVideoYCbCrMatrix_ITU_R_601_4, AVVideoYCbCrMatrix_SMPTE_240M_1995, AVVideoYCbCrMatrix_ITU_R_2020,
            AVVideoH264EntropyModeCAVLC, AVVideoH264EntropyModeCABAC,
        ]
        let profiles: [String] = [
            AVVideoProfileLevelH264Baseline30, AVVideoProfileLevelH264Baseline31, AVVideoProfileLevelH264Baseline41,
            AVVideoProfileLevelH264BaselineAutoLevel, AVVideoProfileLevelH264Main30, AVVideoProfileLevelH264Main31,
            AVVideoProfileLevelH264Main32, AVVideoProfileLevelH264Main41, AVVideoProfileLevelH264MainAutoLevel,
            AVVideoProfileLevelH264High40, AVVideoProfileLevelH264High41, AVVideoProfileLevelH264HighAutoLevel,
        ]
        // Keys of one dictionary level are distinct, as are the profile names.
        #expect(Set(keys).count == keys.count && Set(compressionKeys).count == compressionKeys.count)
        #expect(Set(profiles).count == profiles.count && !values.isEmpty)
        // The color values are CoreVideo's, so either spelling can fill a dictionary.
        #expect(AVVideoColorPrimaries_ITU_R_709_2 == kCVImageBufferColorPrimaries_ITU_R_709_2 as String)
        #expect(AVVideoTransferFunction_IEC_sRGB == kCVImageBufferTransferFunction_sRGB as String)
    }

    // https://developer.apple.com/documentation/avfaudio/audio-settings
    @Test func audioSettingsKeys() {
        let keys: [String] = [
            AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, AVChannelLayoutKey, AVLinearPCMBitDepthKey,
            AVLinearPCMIsBigEndianKey, AVLinearPCMIsFloatKey, AVLinearPCMIsNonInterleaved, AVEncoderAudioQualityKey,
            AVEncoderAudioQualityForVBRKey, AVEncoderBitRateKey, AVEncoderBitRatePerChannelKey, AVEncoderBitRateStrategyKey,
            AVEncoderBitDepthHintKey, AVSampleRateConverterAlgorithmKey, AVSampleRateConverterAudioQualityKey,
        ]
        let values: [String] = [
            AVAudioBitRateStrategy_Constant, AVAudioBitRateStrategy_LongTermAverage, AVAudioBitRateStrategy_VariableConstrained,
            AVAudioBitRateStrategy_Variable, AVSampleRateConverterAlgorithm_Normal, AVSampleRateConverterAlgorithm_Mastering,
            AVSampleRateConverterAlgorithm_MinimumPhase,
        ]
        #expect(Set(keys).count == keys.count && Set(values).count == values.count)
        // The header's macro spelling of the non-interleaved key.
        #expect(AVLinearPCMIsNonInterleavedKey == AVLinearPCMIsNonInterleaved)
        // https://developer.apple.com/documentation/avfaudio/avaudioquality
        let _: (Int) -> AVAudioQuality? = AVAudioQuality.init(rawValue:)
        let qualities: [AVAudioQuality] = [.min, .low, .medium, .high, .max]
        #expect(qualities.map(\.rawValue) == [0, 0x20, 0x40, 0x60, 0x7F])
    }

    // Linux addition: UniformTypeIdentifiers' `UTType`, for `AVAssetWriter(contentType:)`.
    // https://developer.apple.com/documentation/uniformtypeidentifiers/uttype-swift.struct
    @Test func uniformTypes() {
        let _: (String) -> UTType? = UTType.init(_:)
        let _: (String) -> UTType? = UTType.init(filenameExtension:)
        let _: KeyPath<UTType, String> = \UTType.identifier
        let _: KeyPath<UTType, String?> = \UTType.preferredFilenameExtension
        let _: (UTType) -> (UTType) -> Bool = UTType.conforms(to:)
        let types: [UTType] = [.mpeg4Movie, .quickTimeMovie, .mpeg4Audio, .movie, .video, .audio, .audiovisualContent]
        #expect(types.map(\.identifier) == [
            "public.mpeg-4", "com.apple.quicktime-movie", "public.mpeg-4-audio", "public.movie", "public.video", "public.audio",
            "public.audiovisual-content",
        ])
        #expect(UTType.mpeg4Movie.conforms(to: .movie) && UTType(filenameExtension: "mov") == .quickTimeMovie)
    }
}
