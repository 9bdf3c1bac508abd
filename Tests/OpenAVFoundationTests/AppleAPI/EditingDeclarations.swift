import Testing
import OpenAVFoundation

// The record of the Editing area's declarations, spelled as Apple's Swift SDK spells them
// (developer.apple.com/documentation/avfoundation/…): typed references break the build on a
// rename, a label change, or an optionality, throwing or async change. Written as an Apple
// client file is: `import OpenAVFoundation` and nothing else. No media is read.

/// A compositor spelled as Apple's current SDK declares the protocol (`[String: any Sendable]`).
final class EditingRecordCompositor: NSObject, AVVideoCompositing {
    var sourcePixelBufferAttributes: [String: any Sendable]? { [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] }
    var requiredPixelBufferAttributesForRenderContext: [String: any Sendable] {
        [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
    }
    func renderContextChanged(_ newRenderContext: AVVideoCompositionRenderContext) {}
    func startRequest(_ asyncVideoCompositionRequest: AVAsynchronousVideoCompositionRequest) {
        asyncVideoCompositionRequest.finishCancelledRequest()
    }
}

/// An instruction class of one's own, as a custom compositor takes.
final class EditingRecordInstruction: NSObject, AVVideoCompositionInstructionProtocol {
    let timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
    let enablePostProcessing = false
    let containsTweening = true
    let requiredSourceTrackIDs: [NSValue]? = [NSNumber(value: 1)]
    let passthroughTrackID = kCMPersistentTrackID_Invalid
}

/// A validation delegate implementing all four of Apple's methods.
final class EditingRecordValidationDelegate: NSObject, AVVideoCompositionValidationHandling {
    var keys: [String] = []
    func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingInvalidValueForKey key: String) -> Bool {
        keys.append(key)
        return true
    }
    func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingEmptyTimeRange timeRange: CMTimeRange) -> Bool {
        true
    }
    func videoComposition(_ videoComposition: AVVideoComposition,
                          shouldContinueValidatingAfterFindingInvalidTimeRangeIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol) -> Bool {
        true
    }
    func videoComposition(_ videoComposition: AVVideoComposition,
                          shouldContinueValidatingAfterFindingInvalidTrackIDIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol,
                          layerInstruction: AVVideoCompositionLayerInstruction, asset: AVAsset) -> Bool {
        true
    }
}

/// Apple's Editing declarations (compositions, video compositions, audio mixes), by their
/// Swift SDK spellings.
@Suite(.timeLimit(.minutes(10))) struct EditingAppleDeclarationTests {
    static let second = CMTime(value: 1, timescale: 1)
    static let firstTwoSeconds = CMTimeRange(start: .zero, duration: CMTime(value: 2, timescale: 1))

    // avfoundation/avcomposition
    @Test func composition() {
        let _: KeyPath<AVComposition, CGSize> = \AVComposition.naturalSize
        let _: KeyPath<AVComposition, [String: Any]> = \AVComposition.urlAssetInitializationOptions
        let _: (AVComposition) -> (CMPersistentTrackID) -> AVCompositionTrack? = AVComposition.track(withTrackID:)
        let _: (AVComposition) -> (CMPersistentTrackID) async throws -> AVCompositionTrack? = AVComposition.loadTrack(withTrackID:)
        let mutable = AVMutableComposition()
        #expect(mutable.copy() is AVComposition && !(mutable.copy() is AVMutableComposition))
        #expect((mutable.copy() as? AVComposition)?.mutableCopy() is AVMutableComposition)
    }

    // avfoundation/avmutablecomposition
    @Test func mutableComposition() async throws {
        let _: () -> AVMutableComposition = AVMutableComposition.init
        let _: ([String: Any]?) -> AVMutableComposition = AVMutableComposition.init(urlAssetInitializationOptions:)
        let _: ReferenceWritableKeyPath<AVMutableComposition, CGSize> = \AVMutableComposition.naturalSize
        let _: (AVMutableComposition) -> (AVMediaType, CMPersistentTrackID) -> AVMutableCompositionTrack?
            = AVMutableComposition.addMutableTrack(withMediaType:preferredTrackID:)
        let _: (AVMutableComposition) -> (AVCompositionTrack) -> Void = AVMutableComposition.removeTrack(_:)
        let _: (AVMutableComposition) -> (AVAssetTrack) -> AVMutableCompositionTrack? = AVMutableComposition.mutableTrack(compatibleWith:)
        let _: (AVMutableComposition) -> (CMTimeRange, AVAsset, CMTime) throws -> Void = AVMutableComposition.insertTimeRange(_:of:at:)
        let _: (AVMutableComposition) -> (CMTimeRange, AVAsset, CMTime, @escaping @Sendable ((any Error)?) -> Void) -> Void
            = AVMutableComposition.insertTimeRange(_:of:at:completionHandler:)
        let _: (AVMutableComposition) -> (CMTimeRange) -> Void = AVMutableComposition.insertEmptyTimeRange(_:)
        let _: (AVMutableComposition) -> (CMTimeRange) -> Void = AVMutableComposition.removeTimeRange(_:)
        let _: (AVMutableComposition) -> (CMTimeRange, CMTime) -> Void = AVMutableComposition.scaleTimeRange(_:toDuration:)
        let _: (AVMutableComposition) -> (CMPersistentTrackID) -> AVMutableCompositionTrack? = AVMutableComposition.track(withTrackID:)
        let _: (AVMutableComposition) -> (CMPersistentTrackID) async throws -> AVMutableCompositionTrack?
            = AVMutableComposition.loadTrack(withTrackID:)

        let composition = AVMutableComposition(urlAssetInitializationOptions: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
        #expect(composition.urlAssetInitializationOptions[AVURLAssetPreferPreciseDurationAndTimingKey] as? Bool == true)
        let track = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        // The narrowed lookups hand out the mutable track itself, without a cast.
        let found: AVMutableCompositionTrack? = composition.track(withTrackID: track.trackID)
        #expect(found === track)
        let loaded: AVMutableCompositionTrack? = try await composition.loadTrack(withTrackID: track.trackID)
        #expect(loaded === track)
        composition.naturalSize = CGSize(width: 640, height: 480)
        #expect(composition.naturalSize == CGSize(width: 640, height: 480))
        composition.removeTrack(track)
        #expect(composition.track(withTrackID: track.trackID) == nil)
    }

    // avfoundation/avcompositiontrack, avmutablecompositiontrack
    @Test func compositionTracks() throws {
        let _: (AVCompositionTrack) -> (CMTime) -> AVCompositionTrackSegment? = AVCompositionTrack.segment(forTrackTime:)
        let _: KeyPath<AVCompositionTrack, Bool> = \AVCompositionTrack.isEnabled
        let _: KeyPath<AVCompositionTrack, CMTimeScale> = \AVCompositionTrack.naturalTimeScale
        let _: KeyPath<AVCompositionTrack, String?> = \AVCompositionTrack.languageCode
        let _: KeyPath<AVCompositionTrack, String?> = \AVCompositionTrack.extendedLanguageTag
        let _: KeyPath<AVCompositionTrack, CGAffineTransform> = \AVCompositionTrack.preferredTransform
        let _: KeyPath<AVCompositionTrack, Float> = \AVCompositionTrack.preferredVolume
        let _: ReferenceWritableKeyPath<AVMutableCompositionTrack, Bool> = \AVMutableCompositionTrack.isEnabled
        let _: ReferenceWritableKeyPath<AVMutableCompositionTrack, CMTimeScale> = \AVMutableCompositionTrack.naturalTimeScale
        let _: ReferenceWritableKeyPath<AVMutableCompositionTrack, String?> = \AVMutableCompositionTrack.languageCode
        let _: ReferenceWritableKeyPath<AVMutableCompositionTrack, String?> = \AVMutableCompositionTrack.extendedLanguageTag
        let _: ReferenceWritableKeyPath<AVMutableCompositionTrack, CGAffineTransform> = \AVMutableCompositionTrack.preferredTransform
        let _: ReferenceWritableKeyPath<AVMutableCompositionTrack, Float> = \AVMutableCompositionTrack.preferredVolume
        let _: (AVMutableCompositionTrack) -> (CMTimeRange, AVAssetTrack, CMTime) throws -> Void = AVMutableCompositionTrack.insertTimeRange(_:of:at:)
        let _: (AVMutableCompositionTrack) -> ([NSValue], [AVAssetTrack], CMTime) throws -> Void = AVMutableCompositionTrack.insertTimeRanges(_:of:at:)
        let _: (AVMutableCompositionTrack) -> (CMTimeRange) -> Void = AVMutableCompositionTrack.insertEmptyTimeRange(_:)
        let _: (AVMutableCompositionTrack) -> (CMTimeRange) -> Void = AVMutableCompositionTrack.removeTimeRange(_:)
        let _: (AVMutableCompositionTrack) -> (CMTimeRange, CMTime) -> Void = AVMutableCompositionTrack.scaleTimeRange(_:toDuration:)
        let _: (AVMutableCompositionTrack) -> ([AVCompositionTrackSegment]) throws -> Void = AVMutableCompositionTrack.validateSegments(_:)

        let composition = AVMutableComposition()
        let track = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: 7))
        #expect(track.trackID == 7)
        track.insertEmptyTimeRange(Self.firstTwoSeconds)
        let segment = try #require(track.segment(forTrackTime: Self.second))
        #expect(segment.isEmpty && segment.sourceURL == nil && segment.timeMapping.target == Self.firstTwoSeconds)
        try track.validateSegments([AVCompositionTrackSegment(timeRange: Self.firstTwoSeconds)])
        track.languageCode = "eng"
        track.preferredVolume = 0.5
        #expect(track.languageCode == "eng" && track.preferredVolume == 0.5)
    }

    // avfoundation/avcompositiontracksegment
    @Test func compositionTrackSegment() {
        let _: (URL, CMPersistentTrackID, CMTimeRange, CMTimeRange) -> AVCompositionTrackSegment
            = AVCompositionTrackSegment.init(url:trackID:sourceTimeRange:targetTimeRange:)
        let _: (CMTimeRange) -> AVCompositionTrackSegment = AVCompositionTrackSegment.init(timeRange:)
        let _: KeyPath<AVCompositionTrackSegment, URL?> = \AVCompositionTrackSegment.sourceURL
        let _: KeyPath<AVCompositionTrackSegment, CMPersistentTrackID> = \AVCompositionTrackSegment.sourceTrackID
        let url = URL(fileURLWithPath: "/nonexistent/clip.mov")
        let segment = AVCompositionTrackSegment(url: url, trackID: 2, sourceTimeRange: Self.firstTwoSeconds, targetTimeRange: Self.firstTwoSeconds)
        #expect(!segment.isEmpty && segment.sourceURL == url && segment.sourceTrackID == 2)
        #expect(AVCompositionTrackSegment(timeRange: Self.firstTwoSeconds).isEmpty)
    }

    // avfoundation/avaudiomix, avmutableaudiomix, avaudiomixinputparameters, avmutableaudiomixinputparameters
    @Test func audioMix() {
        let _: KeyPath<AVAudioMix, [AVAudioMixInputParameters]> = \AVAudioMix.inputParameters
        let _: ReferenceWritableKeyPath<AVMutableAudioMix, [AVAudioMixInputParameters]> = \AVMutableAudioMix.inputParameters
        let _: () -> AVMutableAudioMix = AVMutableAudioMix.init
        let _: KeyPath<AVAudioMixInputParameters, CMPersistentTrackID> = \AVAudioMixInputParameters.trackID
        let _: KeyPath<AVAudioMixInputParameters, AVAudioTimePitchAlgorithm?> = \AVAudioMixInputParameters.audioTimePitchAlgorithm
        let _: (AVAudioMixInputParameters) -> (CMTime, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<CMTimeRange>?) -> Bool
            = AVAudioMixInputParameters.getVolumeRamp(for:startVolume:endVolume:timeRange:)
        let _: (AVAssetTrack?) -> AVMutableAudioMixInputParameters = AVMutableAudioMixInputParameters.init(track:)
        let _: () -> AVMutableAudioMixInputParameters = AVMutableAudioMixInputParameters.init
        let _: ReferenceWritableKeyPath<AVMutableAudioMixInputParameters, CMPersistentTrackID> = \AVMutableAudioMixInputParameters.trackID
        let _: ReferenceWritableKeyPath<AVMutableAudioMixInputParameters, AVAudioTimePitchAlgorithm?>
            = \AVMutableAudioMixInputParameters.audioTimePitchAlgorithm
        let _: (AVMutableAudioMixInputParameters) -> (Float, Float, CMTimeRange) -> Void
            = AVMutableAudioMixInputParameters.setVolumeRamp(fromStartVolume:toEndVolume:timeRange:)
        let _: (AVMutableAudioMixInputParameters) -> (Float, CMTime) -> Void = AVMutableAudioMixInputParameters.setVolume(_:at:)

        let parameters = AVMutableAudioMixInputParameters(track: nil)
        parameters.trackID = 2
        parameters.audioTimePitchAlgorithm = .varispeed
        parameters.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: CMTimeRange(start: Self.second, duration: Self.second))
        // Before the first ramp, Apple reports the first ramp starting later.
        var start: Float = 0, end: Float = 0
        var range = CMTimeRange.invalid
        #expect(parameters.getVolumeRamp(for: .zero, startVolume: &start, endVolume: &end, timeRange: &range))
        #expect(start == 1 && end == 0 && range == CMTimeRange(start: Self.second, duration: Self.second))
        #expect(!parameters.getVolumeRamp(for: CMTime(value: 3, timescale: 1), startVolume: nil, endVolume: nil, timeRange: nil))
        let mix = AVMutableAudioMix()
        mix.inputParameters = [parameters]
        let copy = mix.copy() as? AVAudioMix
        #expect(copy?.inputParameters.first?.trackID == 2 && !(copy is AVMutableAudioMix))
        #expect(mix.mutableCopy() is AVMutableAudioMix)
        #expect(copy?.inputParameters.first?.audioTimePitchAlgorithm == .varispeed)
    }

    // avfoundation/avvideocomposition
    @Test func videoComposition() async {
        let _: () -> AVVideoComposition = AVVideoComposition.init
        let _: (AVAsset) -> AVVideoComposition = AVVideoComposition.init(propertiesOf:)
        let _: (AVAsset) async throws -> AVVideoComposition = AVVideoComposition.videoComposition(withPropertiesOf:)
        let _: (AVAsset, @escaping @Sendable (AVVideoComposition?, (any Error)?) -> Void) -> Void
            = AVVideoComposition.videoComposition(withPropertiesOf:completionHandler:)
        let _: KeyPath<AVVideoComposition, CMTime> = \AVVideoComposition.frameDuration
        let _: KeyPath<AVVideoComposition, CGSize> = \AVVideoComposition.renderSize
        let _: KeyPath<AVVideoComposition, Float> = \AVVideoComposition.renderScale
        let _: KeyPath<AVVideoComposition, [any AVVideoCompositionInstructionProtocol]> = \AVVideoComposition.instructions
        let _: KeyPath<AVVideoComposition, CMPersistentTrackID> = \AVVideoComposition.sourceTrackIDForFrameTiming
        let _: KeyPath<AVVideoComposition, (any AVVideoCompositing.Type)?> = \AVVideoComposition.customVideoCompositorClass
        let _: KeyPath<AVVideoComposition, String?> = \AVVideoComposition.colorPrimaries
        let _: KeyPath<AVVideoComposition, String?> = \AVVideoComposition.colorTransferFunction
        let _: KeyPath<AVVideoComposition, String?> = \AVVideoComposition.colorYCbCrMatrix
        let _: (AVVideoComposition) -> (AVAsset?, CMTimeRange, (any AVVideoCompositionValidationHandling)?) -> Bool
            = AVVideoComposition.isValid(for:timeRange:validationDelegate:)
        let _: (AVVideoComposition) -> ([AVAssetTrack], CMTime, CMTimeRange, (any AVVideoCompositionValidationHandling)?) -> Bool
            = AVVideoComposition.isValid(for:assetDuration:timeRange:validationDelegate:)
        let _: (AVVideoComposition) -> (AVAsset?, CMTimeRange, (any AVVideoCompositionValidationHandling)?, @escaping @Sendable (Bool, (any Error)?) -> Void) -> Void
            = AVVideoComposition.determineValidity(for:timeRange:validationDelegate:completionHandler:)

        // The defaults of an empty composition, as Apple's header gives them.
        let empty = AVVideoComposition()
        #expect(empty.frameDuration == .zero && empty.renderSize == .zero && empty.renderScale == 1)
        #expect(empty.instructions.isEmpty && empty.sourceTrackIDForFrameTiming == kCMPersistentTrackID_Invalid)
        #expect(empty.customVideoCompositorClass == nil)
        #expect(empty.colorPrimaries == nil && empty.colorTransferFunction == nil && empty.colorYCbCrMatrix == nil)
        let delegate = EditingRecordValidationDelegate()
        #expect(!empty.isValid(for: nil, timeRange: .invalid, validationDelegate: delegate))
        #expect(delegate.keys == ["renderSize", "frameDuration"])
        #expect(!empty.isValid(for: [], assetDuration: .invalid, timeRange: .invalid, validationDelegate: nil))
        let (valid, failed) = await withCheckedContinuation { continuation in
            empty.determineValidity(for: nil, timeRange: .invalid, validationDelegate: nil) { isValid, error in
                continuation.resume(returning: (isValid, error != nil))
            }
        }
        #expect(!valid && !failed)
    }

    // avfoundation/avmutablevideocomposition
    @Test func mutableVideoComposition() async throws {
        let _: () -> AVMutableVideoComposition = AVMutableVideoComposition.init
        let _: (AVAsset) -> AVMutableVideoComposition = AVMutableVideoComposition.init(propertiesOf:)
        let _: (AVAsset, AVVideoCompositionInstruction) -> AVMutableVideoComposition = AVMutableVideoComposition.init(propertiesOf:prototypeInstruction:)
        let _: (AVAsset) async throws -> AVMutableVideoComposition = AVMutableVideoComposition.videoComposition(withPropertiesOf:)
        let _: (AVAsset, @escaping @Sendable (AVMutableVideoComposition?, (any Error)?) -> Void) -> Void
            = AVMutableVideoComposition.videoComposition(withPropertiesOf:completionHandler:)
        let _: (AVAsset, AVVideoCompositionInstruction) async throws -> AVMutableVideoComposition
            = AVMutableVideoComposition.videoComposition(withPropertiesOf:prototypeInstruction:)
        let _: (AVAsset, AVVideoCompositionInstruction, @escaping @Sendable (AVMutableVideoComposition?, (any Error)?) -> Void) -> Void
            = AVMutableVideoComposition.videoComposition(withPropertiesOf:prototypeInstruction:completionHandler:)
        let _: ReferenceWritableKeyPath<AVMutableVideoComposition, CMTime> = \AVMutableVideoComposition.frameDuration
        let _: ReferenceWritableKeyPath<AVMutableVideoComposition, CGSize> = \AVMutableVideoComposition.renderSize
        let _: ReferenceWritableKeyPath<AVMutableVideoComposition, Float> = \AVMutableVideoComposition.renderScale
        let _: ReferenceWritableKeyPath<AVMutableVideoComposition, [any AVVideoCompositionInstructionProtocol]> = \AVMutableVideoComposition.instructions
        let _: ReferenceWritableKeyPath<AVMutableVideoComposition, CMPersistentTrackID> = \AVMutableVideoComposition.sourceTrackIDForFrameTiming
        let _: ReferenceWritableKeyPath<AVMutableVideoComposition, (any AVVideoCompositing.Type)?>
            = \AVMutableVideoComposition.customVideoCompositorClass
        let _: ReferenceWritableKeyPath<AVMutableVideoComposition, String?> = \AVMutableVideoComposition.colorPrimaries
        let _: ReferenceWritableKeyPath<AVMutableVideoComposition, String?> = \AVMutableVideoComposition.colorTransferFunction
        let _: ReferenceWritableKeyPath<AVMutableVideoComposition, String?> = \AVMutableVideoComposition.colorYCbCrMatrix

        // An empty composition has no video: no instructions, whatever the prototype.
        let prototype = AVMutableVideoCompositionInstruction()
        prototype.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let made = AVMutableVideoComposition(propertiesOf: AVMutableComposition(), prototypeInstruction: prototype)
        #expect(made.instructions.isEmpty)
        let loaded = try await AVMutableVideoComposition.videoComposition(withPropertiesOf: AVMutableComposition(), prototypeInstruction: prototype)
        loaded.customVideoCompositorClass = EditingRecordCompositor.self
        loaded.instructions = [EditingRecordInstruction()]
        loaded.frameDuration = CMTime(value: 1, timescale: 30)
        loaded.renderSize = CGSize(width: 320, height: 240)
        #expect(loaded.customVideoCompositorClass.map(ObjectIdentifier.init) == ObjectIdentifier(EditingRecordCompositor.self))
        #expect(loaded.instructions.count == 1 && loaded.instructions[0] is EditingRecordInstruction)
        loaded.colorYCbCrMatrix = AVVideoYCbCrMatrix_ITU_R_709_2
        #expect((loaded.copy() as? AVVideoComposition)?.colorYCbCrMatrix == AVVideoYCbCrMatrix_ITU_R_709_2)
        let handed = await withCheckedContinuation { continuation in
            AVMutableVideoComposition.videoComposition(withPropertiesOf: AVMutableComposition()) { composition, error in
                continuation.resume(returning: composition != nil && error == nil)
            }
        }
        #expect(handed)
    }

    // avfoundation/avvideocompositioninstruction-swift.class, avmutablevideocompositioninstruction,
    // avvideocompositioninstructionprotocol
    @Test func videoCompositionInstructions() {
        let _: () -> AVMutableVideoCompositionInstruction = AVMutableVideoCompositionInstruction.init
        let _: KeyPath<AVVideoCompositionInstruction, CMTimeRange> = \AVVideoCompositionInstruction.timeRange
        let _: KeyPath<AVVideoCompositionInstruction, CGColor?> = \AVVideoCompositionInstruction.backgroundColor
        let _: KeyPath<AVVideoCompositionInstruction, [AVVideoCompositionLayerInstruction]> = \AVVideoCompositionInstruction.layerInstructions
        let _: KeyPath<AVVideoCompositionInstruction, Bool> = \AVVideoCompositionInstruction.enablePostProcessing
        let _: KeyPath<AVVideoCompositionInstruction, Bool> = \AVVideoCompositionInstruction.containsTweening
        let _: KeyPath<AVVideoCompositionInstruction, [NSValue]> = \AVVideoCompositionInstruction.requiredSourceTrackIDs
        let _: KeyPath<AVVideoCompositionInstruction, CMPersistentTrackID> = \AVVideoCompositionInstruction.passthroughTrackID
        let _: ReferenceWritableKeyPath<AVMutableVideoCompositionInstruction, CMTimeRange> = \AVMutableVideoCompositionInstruction.timeRange
        let _: ReferenceWritableKeyPath<AVMutableVideoCompositionInstruction, CGColor?> = \AVMutableVideoCompositionInstruction.backgroundColor
        let _: ReferenceWritableKeyPath<AVMutableVideoCompositionInstruction, [AVVideoCompositionLayerInstruction]>
            = \AVMutableVideoCompositionInstruction.layerInstructions
        let _: ReferenceWritableKeyPath<AVMutableVideoCompositionInstruction, Bool> = \AVMutableVideoCompositionInstruction.enablePostProcessing
        let _: KeyPath<any AVVideoCompositionInstructionProtocol, CMTimeRange> = \.timeRange
        let _: KeyPath<any AVVideoCompositionInstructionProtocol, Bool> = \.enablePostProcessing
        let _: KeyPath<any AVVideoCompositionInstructionProtocol, Bool> = \.containsTweening
        let _: KeyPath<any AVVideoCompositionInstructionProtocol, [NSValue]?> = \.requiredSourceTrackIDs
        let _: KeyPath<any AVVideoCompositionInstructionProtocol, CMPersistentTrackID> = \.passthroughTrackID

        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = Self.firstTwoSeconds
        let layer = AVMutableVideoCompositionLayerInstruction()
        layer.trackID = 2
        instruction.layerInstructions = [layer]
        #expect(instruction.requiredSourceTrackIDs.count == 1 && (instruction.requiredSourceTrackIDs[0] as? NSNumber)?.int32Value == 2)
        let general: any AVVideoCompositionInstructionProtocol = instruction
        #expect((general.requiredSourceTrackIDs?.first as? NSNumber)?.int32Value == 2)
        #expect(instruction.enablePostProcessing && instruction.backgroundColor == nil)
        #expect(instruction.copy() is AVVideoCompositionInstruction && instruction.mutableCopy() is AVMutableVideoCompositionInstruction)
        let own: any AVVideoCompositionInstructionProtocol = EditingRecordInstruction()
        #expect(own.requiredSourceTrackIDs?.count == 1)
    }

    // avfoundation/avvideocompositionlayerinstruction, avmutablevideocompositionlayerinstruction
    @Test func layerInstructions() {
        let _: () -> AVVideoCompositionLayerInstruction = AVVideoCompositionLayerInstruction.init
        let _: KeyPath<AVVideoCompositionLayerInstruction, CMPersistentTrackID> = \AVVideoCompositionLayerInstruction.trackID
        let _: (AVVideoCompositionLayerInstruction) -> (CMTime, UnsafeMutablePointer<CGAffineTransform>?, UnsafeMutablePointer<CGAffineTransform>?,
                                                        UnsafeMutablePointer<CMTimeRange>?) -> Bool
            = AVVideoCompositionLayerInstruction.getTransformRamp(for:start:end:timeRange:)
        let _: (AVVideoCompositionLayerInstruction) -> (CMTime, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<CMTimeRange>?) -> Bool
            = AVVideoCompositionLayerInstruction.getOpacityRamp(for:startOpacity:endOpacity:timeRange:)
        let _: (AVVideoCompositionLayerInstruction) -> (CMTime, UnsafeMutablePointer<CGRect>?, UnsafeMutablePointer<CGRect>?, UnsafeMutablePointer<CMTimeRange>?) -> Bool
            = AVVideoCompositionLayerInstruction.getCropRectangleRamp(for:startCropRectangle:endCropRectangle:timeRange:)
        let _: (AVAssetTrack) -> AVMutableVideoCompositionLayerInstruction = AVMutableVideoCompositionLayerInstruction.init(assetTrack:)
        let _: () -> AVMutableVideoCompositionLayerInstruction = AVMutableVideoCompositionLayerInstruction.init
        let _: ReferenceWritableKeyPath<AVMutableVideoCompositionLayerInstruction, CMPersistentTrackID> = \AVMutableVideoCompositionLayerInstruction.trackID
        let _: (AVMutableVideoCompositionLayerInstruction) -> (CGAffineTransform, CGAffineTransform, CMTimeRange) -> Void
            = AVMutableVideoCompositionLayerInstruction.setTransformRamp(fromStart:toEnd:timeRange:)
        let _: (AVMutableVideoCompositionLayerInstruction) -> (CGAffineTransform, CMTime) -> Void = AVMutableVideoCompositionLayerInstruction.setTransform(_:at:)
        let _: (AVMutableVideoCompositionLayerInstruction) -> (Float, Float, CMTimeRange) -> Void
            = AVMutableVideoCompositionLayerInstruction.setOpacityRamp(fromStartOpacity:toEndOpacity:timeRange:)
        let _: (AVMutableVideoCompositionLayerInstruction) -> (Float, CMTime) -> Void = AVMutableVideoCompositionLayerInstruction.setOpacity(_:at:)
        let _: (AVMutableVideoCompositionLayerInstruction) -> (CGRect, CGRect, CMTimeRange) -> Void
            = AVMutableVideoCompositionLayerInstruction.setCropRectangleRamp(fromStartCropRectangle:toEndCropRectangle:timeRange:)
        let _: (AVMutableVideoCompositionLayerInstruction) -> (CGRect, CMTime) -> Void = AVMutableVideoCompositionLayerInstruction.setCropRectangle(_:at:)

        // The loop Apple's documentation supports: each ramp, then the first one after it.
        let layer = AVMutableVideoCompositionLayerInstruction()
        layer.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: CMTimeRange(start: Self.second, duration: Self.second))
        layer.setOpacity(0.5, at: CMTime(value: 3, timescale: 1))
        var ramps: [CMTimeRange] = []
        var time = CMTime.zero
        var range = CMTimeRange.invalid
        while ramps.count < 5, layer.getOpacityRamp(for: time, startOpacity: nil, endOpacity: nil, timeRange: &range) {
            ramps.append(range)
            time = range.end
        }
        #expect(ramps.count == 2 && ramps[0] == CMTimeRange(start: Self.second, duration: Self.second))
        #expect(ramps[1].start == CMTime(value: 3, timescale: 1))
        var start = CGAffineTransform.identity
        layer.setTransform(CGAffineTransform(scaleX: 2, y: 2), at: .zero)
        #expect(layer.getTransformRamp(for: Self.second, start: &start, end: nil, timeRange: nil) && start == CGAffineTransform(scaleX: 2, y: 2))
        #expect(!layer.getCropRectangleRamp(for: .zero, startCropRectangle: nil, endCropRectangle: nil, timeRange: nil))
    }

    // avfoundation/avvideocompositing, avvideocompositionrendercontext, avasynchronousvideocompositionrequest,
    // avpixelaspectratio, avedgewidths
    @Test func customCompositors() {
        let compositorClass: any AVVideoCompositing.Type = EditingRecordCompositor.self
        let compositor = compositorClass.init()
        #expect(compositor.sourcePixelBufferAttributes?[kCVPixelBufferPixelFormatTypeKey as String] as? OSType == kCVPixelFormatType_32BGRA)
        #expect(!compositor.supportsWideColorSourceFrames && !compositor.supportsHDRSourceFrames && !compositor.canConformColorOfSourceFrames)
        compositor.cancelAllPendingVideoCompositionRequests()

        let _: KeyPath<AVVideoCompositionRenderContext, CGSize> = \AVVideoCompositionRenderContext.size
        let _: KeyPath<AVVideoCompositionRenderContext, CGAffineTransform> = \AVVideoCompositionRenderContext.renderTransform
        let _: KeyPath<AVVideoCompositionRenderContext, Float> = \AVVideoCompositionRenderContext.renderScale
        let _: KeyPath<AVVideoCompositionRenderContext, AVPixelAspectRatio> = \AVVideoCompositionRenderContext.pixelAspectRatio
        let _: KeyPath<AVVideoCompositionRenderContext, AVEdgeWidths> = \AVVideoCompositionRenderContext.edgeWidths
        let _: KeyPath<AVVideoCompositionRenderContext, Bool> = \AVVideoCompositionRenderContext.highQualityRendering
        let _: KeyPath<AVVideoCompositionRenderContext, AVVideoComposition> = \AVVideoCompositionRenderContext.videoComposition
        let _: (AVVideoCompositionRenderContext) -> () -> CVPixelBuffer? = AVVideoCompositionRenderContext.newPixelBuffer

        let _: KeyPath<AVAsynchronousVideoCompositionRequest, AVVideoCompositionRenderContext> = \AVAsynchronousVideoCompositionRequest.renderContext
        let _: KeyPath<AVAsynchronousVideoCompositionRequest, CMTime> = \AVAsynchronousVideoCompositionRequest.compositionTime
        let _: KeyPath<AVAsynchronousVideoCompositionRequest, [NSNumber]> = \AVAsynchronousVideoCompositionRequest.sourceTrackIDs
        let _: KeyPath<AVAsynchronousVideoCompositionRequest, any AVVideoCompositionInstructionProtocol>
            = \AVAsynchronousVideoCompositionRequest.videoCompositionInstruction
        let _: (AVAsynchronousVideoCompositionRequest) -> (CMPersistentTrackID) -> CVPixelBuffer? = AVAsynchronousVideoCompositionRequest.sourceFrame(byTrackID:)
        let _: (AVAsynchronousVideoCompositionRequest) -> (CVPixelBuffer) -> Void = AVAsynchronousVideoCompositionRequest.finish(withComposedVideoFrame:)
        let _: (AVAsynchronousVideoCompositionRequest) -> (any Error) -> Void = AVAsynchronousVideoCompositionRequest.finish(with:)
        let _: (AVAsynchronousVideoCompositionRequest) -> () -> Void = AVAsynchronousVideoCompositionRequest.finishCancelledRequest

        var ratio = AVPixelAspectRatio(horizontalSpacing: 4, verticalSpacing: 3)
        ratio.horizontalSpacing = 1
        #expect(ratio.horizontalSpacing == 1 && ratio.verticalSpacing == 3 && AVPixelAspectRatio().verticalSpacing == 0)
        var edges = AVEdgeWidths(left: 1, top: 2, right: 3, bottom: 4)
        edges.left = 0
        #expect(edges.left == 0 && edges.top == 2 && edges.right == 3 && edges.bottom == 4 && AVEdgeWidths().bottom == 0)
    }
}
