import Foundation
import OpenCoreMedia
import Testing
import OpenAVFAudio

// Apple's declarations of AVFAudio's formats, buffers and times, spelled as Apple's Swift SDK
// spells them. Each typed reference breaks the build when a name, a label, an optionality or a
// `throws` drifts from Apple's. Nothing here reads or writes media.

@Suite(.timeLimit(.minutes(10))) struct AVFAudioAppleDeclarationTests {
    // https://developer.apple.com/documentation/avfaudio/avaudioframecount and its neighbours
    @Test func countingTypes() {
        let _: AVAudioFrameCount.Type = UInt32.self
        let _: AVAudioFramePosition.Type = Int64.self
        let _: AVAudioPacketCount.Type = UInt32.self
        let _: AVAudioChannelCount.Type = UInt32.self
        let _: [AVAudioCommonFormat] = [.otherFormat, .pcmFormatFloat32, .pcmFormatFloat64, .pcmFormatInt16, .pcmFormatInt32]
        #expect(AVAudioCommonFormat.pcmFormatInt32.rawValue == 4)
    }

    // https://developer.apple.com/documentation/avfaudio/avaudioformat
    @Test func audioFormat() {
        let _: (Double, AVAudioChannelCount) -> AVAudioFormat? = AVAudioFormat.init(standardFormatWithSampleRate:channels:)
        let _: (Double, AVAudioChannelLayout) -> AVAudioFormat = AVAudioFormat.init(standardFormatWithSampleRate:channelLayout:)
        let _: (AVAudioCommonFormat, Double, AVAudioChannelCount, Bool) -> AVAudioFormat? =
            AVAudioFormat.init(commonFormat:sampleRate:channels:interleaved:)
        let _: (AVAudioCommonFormat, Double, Bool, AVAudioChannelLayout) -> AVAudioFormat =
            AVAudioFormat.init(commonFormat:sampleRate:interleaved:channelLayout:)
        let _: (UnsafePointer<AudioStreamBasicDescription>) -> AVAudioFormat? = AVAudioFormat.init(streamDescription:)
        let _: (UnsafePointer<AudioStreamBasicDescription>, AVAudioChannelLayout?) -> AVAudioFormat? =
            AVAudioFormat.init(streamDescription:channelLayout:)
        let _: ([String: Any]) -> AVAudioFormat? = AVAudioFormat.init(settings:)
        let _: (CMAudioFormatDescription) -> AVAudioFormat = AVAudioFormat.init(cmAudioFormatDescription:)
        let _: KeyPath<AVAudioFormat, AVAudioCommonFormat> = \AVAudioFormat.commonFormat
        let _: KeyPath<AVAudioFormat, Double> = \AVAudioFormat.sampleRate
        let _: KeyPath<AVAudioFormat, AVAudioChannelCount> = \AVAudioFormat.channelCount
        let _: KeyPath<AVAudioFormat, Bool> = \AVAudioFormat.isInterleaved
        let _: KeyPath<AVAudioFormat, Bool> = \AVAudioFormat.isStandard
        let _: KeyPath<AVAudioFormat, [String: Any]> = \AVAudioFormat.settings
        let _: KeyPath<AVAudioFormat, UnsafePointer<AudioStreamBasicDescription>> = \AVAudioFormat.streamDescription
        let _: KeyPath<AVAudioFormat, AVAudioChannelLayout?> = \AVAudioFormat.channelLayout
        let _: ReferenceWritableKeyPath<AVAudioFormat, Data?> = \AVAudioFormat.magicCookie
        let _: KeyPath<AVAudioFormat, CMAudioFormatDescription> = \AVAudioFormat.formatDescription
    }

    // https://developer.apple.com/documentation/avfaudio/avaudiochannellayout
    @Test func channelLayout() {
        let _: (AudioChannelLayoutTag) -> AVAudioChannelLayout? = AVAudioChannelLayout.init(layoutTag:)
        let _: (UnsafePointer<AudioChannelLayout>) -> AVAudioChannelLayout = AVAudioChannelLayout.init(layout:)
        let _: KeyPath<AVAudioChannelLayout, AudioChannelLayoutTag> = \AVAudioChannelLayout.layoutTag
        let _: KeyPath<AVAudioChannelLayout, UnsafePointer<AudioChannelLayout>> = \AVAudioChannelLayout.layout
        let _: KeyPath<AVAudioChannelLayout, AVAudioChannelCount> = \AVAudioChannelLayout.channelCount
    }

    // https://developer.apple.com/documentation/avfaudio/avaudiopcmbuffer
    @Test func buffers() {
        let _: KeyPath<AVAudioBuffer, AVAudioFormat> = \AVAudioBuffer.format
        let _: KeyPath<AVAudioBuffer, UnsafePointer<AudioBufferList>> = \AVAudioBuffer.audioBufferList
        let _: KeyPath<AVAudioBuffer, UnsafeMutablePointer<AudioBufferList>> = \AVAudioBuffer.mutableAudioBufferList
        let _: (AVAudioFormat, AVAudioFrameCount) -> AVAudioPCMBuffer? = AVAudioPCMBuffer.init(pcmFormat:frameCapacity:)
        let _: ReferenceWritableKeyPath<AVAudioPCMBuffer, AVAudioFrameCount> = \AVAudioPCMBuffer.frameLength
        let _: KeyPath<AVAudioPCMBuffer, AVAudioFrameCount> = \AVAudioPCMBuffer.frameCapacity
        let _: KeyPath<AVAudioPCMBuffer, Int> = \AVAudioPCMBuffer.stride
        let _: KeyPath<AVAudioPCMBuffer, UnsafePointer<UnsafeMutablePointer<Float>>?> = \AVAudioPCMBuffer.floatChannelData
        let _: KeyPath<AVAudioPCMBuffer, UnsafePointer<UnsafeMutablePointer<Int16>>?> = \AVAudioPCMBuffer.int16ChannelData
        let _: KeyPath<AVAudioPCMBuffer, UnsafePointer<UnsafeMutablePointer<Int32>>?> = \AVAudioPCMBuffer.int32ChannelData
    }

    // https://developer.apple.com/documentation/avfaudio/avaudiocompressedbuffer
    @Test func compressedBuffer() {
        let _: (AVAudioFormat, AVAudioPacketCount, Int) -> AVAudioCompressedBuffer =
            AVAudioCompressedBuffer.init(format:packetCapacity:maximumPacketSize:)
        let _: (AVAudioFormat, AVAudioPacketCount) -> AVAudioCompressedBuffer = AVAudioCompressedBuffer.init(format:packetCapacity:)
        let _: KeyPath<AVAudioCompressedBuffer, AVAudioPacketCount> = \AVAudioCompressedBuffer.packetCapacity
        let _: ReferenceWritableKeyPath<AVAudioCompressedBuffer, AVAudioPacketCount> = \AVAudioCompressedBuffer.packetCount
        let _: KeyPath<AVAudioCompressedBuffer, Int> = \AVAudioCompressedBuffer.maximumPacketSize
        let _: KeyPath<AVAudioCompressedBuffer, UnsafeMutableRawPointer> = \AVAudioCompressedBuffer.data
        let _: KeyPath<AVAudioCompressedBuffer, UInt32> = \AVAudioCompressedBuffer.byteCapacity
        let _: ReferenceWritableKeyPath<AVAudioCompressedBuffer, UInt32> = \AVAudioCompressedBuffer.byteLength
        let _: KeyPath<AVAudioCompressedBuffer, UnsafeMutablePointer<AudioStreamPacketDescription>?> =
            \AVAudioCompressedBuffer.packetDescriptions
        let _: (Int64, UInt32, UInt32) -> AudioStreamPacketDescription =
            AudioStreamPacketDescription.init(mStartOffset:mVariableFramesInPacket:mDataByteSize:)
    }

    // https://developer.apple.com/documentation/avfaudio/avaudiotime
    @Test func audioTime() {
        let _: (UInt64) -> AVAudioTime = AVAudioTime.init(hostTime:)
        let _: (AVAudioFramePosition, Double) -> AVAudioTime = AVAudioTime.init(sampleTime:atRate:)
        let _: (UInt64, AVAudioFramePosition, Double) -> AVAudioTime = AVAudioTime.init(hostTime:sampleTime:atRate:)
        let _: KeyPath<AVAudioTime, UInt64> = \AVAudioTime.hostTime
        let _: KeyPath<AVAudioTime, Bool> = \AVAudioTime.isHostTimeValid
        let _: KeyPath<AVAudioTime, AVAudioFramePosition> = \AVAudioTime.sampleTime
        let _: KeyPath<AVAudioTime, Bool> = \AVAudioTime.isSampleTimeValid
        let _: KeyPath<AVAudioTime, Double> = \AVAudioTime.sampleRate
        let _: (TimeInterval) -> UInt64 = AVAudioTime.hostTime(forSeconds:)
        let _: (UInt64) -> TimeInterval = AVAudioTime.seconds(forHostTime:)
        let _: (AVAudioTime) -> (AVAudioTime) -> AVAudioTime? = AVAudioTime.extrapolateTime(fromAnchor:)
    }
}

@Suite(.timeLimit(.minutes(10))) struct AVAudioFileAppleDeclarationTests {
    // https://developer.apple.com/documentation/avfaudio/avaudiofile
    @Test func audioFile() {
        let _: (URL) throws -> AVAudioFile = AVAudioFile.init(forReading:)
        let _: (URL, AVAudioCommonFormat, Bool) throws -> AVAudioFile = AVAudioFile.init(forReading:commonFormat:interleaved:)
        let _: KeyPath<AVAudioFile, URL> = \AVAudioFile.url
        let _: KeyPath<AVAudioFile, AVAudioFormat> = \AVAudioFile.fileFormat
        let _: KeyPath<AVAudioFile, AVAudioFormat> = \AVAudioFile.processingFormat
        let _: KeyPath<AVAudioFile, AVAudioFramePosition> = \AVAudioFile.length
        let _: ReferenceWritableKeyPath<AVAudioFile, AVAudioFramePosition> = \AVAudioFile.framePosition
        let _: KeyPath<AVAudioFile, Bool> = \AVAudioFile.isOpen
        let _: (AVAudioFile) -> (AVAudioPCMBuffer) throws -> Void = AVAudioFile.read(into:)
        let _: (AVAudioFile) -> (AVAudioPCMBuffer, AVAudioFrameCount) throws -> Void = AVAudioFile.read(into:frameCount:)
        let _: (URL, [String: Any]) throws -> AVAudioFile = AVAudioFile.init(forWriting:settings:)
        let _: (URL, [String: Any], AVAudioCommonFormat, Bool) throws -> AVAudioFile =
            AVAudioFile.init(forWriting:settings:commonFormat:interleaved:)
        let _: (AVAudioFile) -> (AVAudioPCMBuffer) throws -> Void = AVAudioFile.write(from:)
        let _: (AVAudioFile) -> () -> Void = AVAudioFile.close
    }

    // https://developer.apple.com/documentation/avfaudio/avaudioplayer
    @Test func audioPlayer() {
        let _: (URL) throws -> AVAudioPlayer = AVAudioPlayer.init(contentsOf:)
        let _: (URL, String?) throws -> AVAudioPlayer = AVAudioPlayer.init(contentsOf:fileTypeHint:)
        let _: (Data) throws -> AVAudioPlayer = AVAudioPlayer.init(data:)
        let _: (Data, String?) throws -> AVAudioPlayer = AVAudioPlayer.init(data:fileTypeHint:)
        let _: (AVAudioPlayer) -> () -> Bool = AVAudioPlayer.prepareToPlay
        let _: (AVAudioPlayer) -> () -> Bool = AVAudioPlayer.play
        let _: (AVAudioPlayer) -> (TimeInterval) -> Bool = AVAudioPlayer.play(atTime:)
        let _: (AVAudioPlayer) -> () -> Void = AVAudioPlayer.pause
        let _: (AVAudioPlayer) -> () -> Void = AVAudioPlayer.stop
        let _: KeyPath<AVAudioPlayer, Bool> = \AVAudioPlayer.isPlaying
        let _: KeyPath<AVAudioPlayer, URL?> = \AVAudioPlayer.url
        let _: KeyPath<AVAudioPlayer, Data?> = \AVAudioPlayer.data
        let _: KeyPath<AVAudioPlayer, AVAudioFormat> = \AVAudioPlayer.format
        let _: KeyPath<AVAudioPlayer, [String: Any]> = \AVAudioPlayer.settings
        let _: KeyPath<AVAudioPlayer, Int> = \AVAudioPlayer.numberOfChannels
        let _: KeyPath<AVAudioPlayer, TimeInterval> = \AVAudioPlayer.duration
        let _: KeyPath<AVAudioPlayer, TimeInterval> = \AVAudioPlayer.deviceCurrentTime
        let _: ReferenceWritableKeyPath<AVAudioPlayer, TimeInterval> = \AVAudioPlayer.currentTime
        let _: ReferenceWritableKeyPath<AVAudioPlayer, String?> = \AVAudioPlayer.currentDevice
        let _: ReferenceWritableKeyPath<AVAudioPlayer, Float> = \AVAudioPlayer.volume
        let _: (AVAudioPlayer) -> (Float, TimeInterval) -> Void = AVAudioPlayer.setVolume(_:fadeDuration:)
        let _: ReferenceWritableKeyPath<AVAudioPlayer, Float> = \AVAudioPlayer.pan
        let _: ReferenceWritableKeyPath<AVAudioPlayer, Bool> = \AVAudioPlayer.enableRate
        let _: ReferenceWritableKeyPath<AVAudioPlayer, Float> = \AVAudioPlayer.rate
        let _: ReferenceWritableKeyPath<AVAudioPlayer, Int> = \AVAudioPlayer.numberOfLoops
        let _: ReferenceWritableKeyPath<AVAudioPlayer, Bool> = \AVAudioPlayer.isMeteringEnabled
        let _: (AVAudioPlayer) -> () -> Void = AVAudioPlayer.updateMeters
        let _: (AVAudioPlayer) -> (Int) -> Float = AVAudioPlayer.averagePower(forChannel:)
        let _: (AVAudioPlayer) -> (Int) -> Float = AVAudioPlayer.peakPower(forChannel:)
        let _: ReferenceWritableKeyPath<AVAudioPlayer, (any AVAudioPlayerDelegate)?> = \AVAudioPlayer.delegate
    }

    // https://developer.apple.com/documentation/avfaudio/avaudioconverter
    @Test func audioConverter() throws {
        let _: (AVAudioFormat, AVAudioFormat) -> AVAudioConverter? = AVAudioConverter.init(from:to:)
        let _: KeyPath<AVAudioConverter, AVAudioFormat> = \AVAudioConverter.inputFormat
        let _: KeyPath<AVAudioConverter, AVAudioFormat> = \AVAudioConverter.outputFormat
        let _: ReferenceWritableKeyPath<AVAudioConverter, [NSNumber]> = \AVAudioConverter.channelMap
        let _: ReferenceWritableKeyPath<AVAudioConverter, Bool> = \AVAudioConverter.downmix
        let _: ReferenceWritableKeyPath<AVAudioConverter, Bool> = \AVAudioConverter.dither
        let _: ReferenceWritableKeyPath<AVAudioConverter, Int> = \AVAudioConverter.sampleRateConverterQuality
        let _: ReferenceWritableKeyPath<AVAudioConverter, String?> = \AVAudioConverter.sampleRateConverterAlgorithm
        let _: ReferenceWritableKeyPath<AVAudioConverter, AVAudioConverterPrimeMethod> = \AVAudioConverter.primeMethod
        let _: ReferenceWritableKeyPath<AVAudioConverter, AVAudioConverterPrimeInfo> = \AVAudioConverter.primeInfo
        let _: KeyPath<AVAudioConverter, Int> = \AVAudioConverter.maximumOutputPacketSize
        let _: ReferenceWritableKeyPath<AVAudioConverter, Int> = \AVAudioConverter.bitRate
        let _: ReferenceWritableKeyPath<AVAudioConverter, String?> = \AVAudioConverter.bitRateStrategy
        let _: KeyPath<AVAudioConverter, [NSNumber]?> = \AVAudioConverter.applicableEncodeBitRates
        let _: KeyPath<AVAudioConverter, [NSNumber]?> = \AVAudioConverter.availableEncodeBitRates
        let _: KeyPath<AVAudioConverter, [NSNumber]?> = \AVAudioConverter.applicableEncodeSampleRates
        let _: KeyPath<AVAudioConverter, [NSNumber]?> = \AVAudioConverter.availableEncodeSampleRates
        let _: KeyPath<AVAudioConverter, [NSNumber]?> = \AVAudioConverter.availableEncodeChannelLayoutTags
        let _: ReferenceWritableKeyPath<AVAudioConverter, Data?> = \AVAudioConverter.magicCookie
        let _: (AVAudioConverter) -> () -> Void = AVAudioConverter.reset
        let _: (AVAudioConverter) -> (AVAudioPCMBuffer, AVAudioPCMBuffer) throws -> Void = AVAudioConverter.convert(to:from:)
        let _: (AVAudioConverter) -> (AVAudioBuffer, NSErrorPointer, AVAudioConverterInputBlock) -> AVAudioConverterOutputStatus =
            AVAudioConverter.convert(to:error:withInputFrom:)
        let _: [AVAudioConverterInputStatus] = [.haveData, .noDataNow, .endOfStream]
        let _: [AVAudioConverterOutputStatus] = [.haveData, .inputRanDry, .endOfStream, .error]
        let _: [AVAudioConverterPrimeMethod] = [.pre, .normal, .none]
        let info = AVAudioConverterPrimeInfo(leadingFrames: 1, trailingFrames: 2)
        #expect(info.leadingFrames == 1 && info.trailingFrames == 2 && AVAudioConverterPrimeInfo().leadingFrames == 0)
        #expect(AVAudioConverterInputStatus.noDataNow.rawValue == 1 && AVAudioConverterOutputStatus.error.rawValue == 3)
        #expect(AVAudioConverterPrimeMethod.none.rawValue == 2)
        // The way Apple-platform code calls it: a trailing block, an NSError? passed by reference.
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        let converter = try #require(AVAudioConverter(from: format, to: format))
        #expect(converter.primeMethod == .normal && !converter.downmix && !converter.dither)
        let output = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 16))
        var error: NSError?
        let status = converter.convert(to: output, error: &error) { _, outStatus in
            outStatus.pointee = .endOfStream
            return nil
        }
        #expect(status == .endOfStream && error == nil)
    }

    /// A delegate that implements only what it needs, as Apple's optional methods allow.
    final class FinishOnlyDelegate: AVAudioPlayerDelegate {
        func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {}
    }

    // https://developer.apple.com/documentation/avfaudio/avaudioplayerdelegate
    @Test func audioPlayerDelegate() {
        let _: (FinishOnlyDelegate) -> (AVAudioPlayer, (any Error)?) -> Void = FinishOnlyDelegate.audioPlayerDecodeErrorDidOccur(_:error:)
    }
}

@Suite(.timeLimit(.minutes(10))) struct AVAudioEngineAppleDeclarationTests {
    // https://developer.apple.com/documentation/avfaudio/avaudioengine
    @Test func audioEngine() {
        let engine = AVAudioEngine()
        let _: (AVAudioEngine) -> (AVAudioNode) -> Void = AVAudioEngine.attach(_:)
        let _: (AVAudioEngine) -> (AVAudioNode) -> Void = AVAudioEngine.detach(_:)
        let _: (AVAudioEngine) -> (AVAudioNode, AVAudioNode, AVAudioNodeBus, AVAudioNodeBus, AVAudioFormat?) -> Void =
            AVAudioEngine.connect(_:to:fromBus:toBus:format:)
        let _: (AVAudioEngine) -> (AVAudioNode, AVAudioNode, AVAudioFormat?) -> Void = AVAudioEngine.connect(_:to:format:)
        let _: (AVAudioEngine) -> (AVAudioNode, [AVAudioConnectionPoint], AVAudioNodeBus, AVAudioFormat?) -> Void =
            AVAudioEngine.connect(_:to:fromBus:format:)
        let _: (AVAudioEngine) -> (AVAudioNode, AVAudioNodeBus) -> Void = AVAudioEngine.disconnectNodeInput(_:bus:)
        let _: (AVAudioEngine) -> (AVAudioNode) -> Void = AVAudioEngine.disconnectNodeInput(_:)
        let _: (AVAudioEngine) -> (AVAudioNode, AVAudioNodeBus) -> Void = AVAudioEngine.disconnectNodeOutput(_:bus:)
        let _: (AVAudioEngine) -> (AVAudioNode) -> Void = AVAudioEngine.disconnectNodeOutput(_:)
        let _: (AVAudioEngine) -> (AVAudioNode, AVAudioNodeBus) -> AVAudioConnectionPoint? = AVAudioEngine.inputConnectionPoint(for:inputBus:)
        let _: (AVAudioEngine) -> (AVAudioNode, AVAudioNodeBus) -> [AVAudioConnectionPoint] = AVAudioEngine.outputConnectionPoints(for:outputBus:)
        let _: (AVAudioEngine) -> () throws -> Void = AVAudioEngine.start
        let _: (AVAudioEngine) -> () -> Void = AVAudioEngine.prepare
        let _: (AVAudioEngine) -> () -> Void = AVAudioEngine.pause
        let _: (AVAudioEngine) -> () -> Void = AVAudioEngine.stop
        let _: (AVAudioEngine) -> () -> Void = AVAudioEngine.reset
        let _: KeyPath<AVAudioEngine, Bool> = \AVAudioEngine.isRunning
        let _: KeyPath<AVAudioEngine, AVAudioOutputNode> = \AVAudioEngine.outputNode
        let _: KeyPath<AVAudioEngine, AVAudioMixerNode> = \AVAudioEngine.mainMixerNode
        let _: KeyPath<AVAudioEngine, AVAudioInputNode> = \AVAudioEngine.inputNode
        let _: (AVAudioInputNode) -> (AVAudioFormat, @escaping AVAudioIONodeInputBlock) -> Bool =
            AVAudioInputNode.setManualRenderingInputPCMFormat(_:inputBlock:)
        let _: (AVAudioIONode) -> (Bool) throws -> Void = AVAudioIONode.setVoiceProcessingEnabled(_:)
        let _: KeyPath<AVAudioIONode, Bool> = \AVAudioIONode.isVoiceProcessingEnabled
        let _: KeyPath<AVAudioEngine, Set<AVAudioNode>> = \AVAudioEngine.attachedNodes
        let _: (AVAudioEngine) -> (AVAudioEngineManualRenderingMode, AVAudioFormat, AVAudioFrameCount) throws -> Void =
            AVAudioEngine.enableManualRenderingMode(_:format:maximumFrameCount:)
        let _: (AVAudioEngine) -> () -> Void = AVAudioEngine.disableManualRenderingMode
        let _: (AVAudioEngine) -> (AVAudioFrameCount, AVAudioPCMBuffer) throws -> AVAudioEngineManualRenderingStatus = AVAudioEngine.renderOffline(_:to:)
        let _: KeyPath<AVAudioEngine, AVAudioEngineManualRenderingBlock> = \AVAudioEngine.manualRenderingBlock
        let _: KeyPath<AVAudioEngine, AVAudioFramePosition> = \AVAudioEngine.manualRenderingSampleTime
        let _: KeyPath<AVAudioEngine, AVAudioFrameCount> = \AVAudioEngine.manualRenderingMaximumFrameCount
        let _: KeyPath<AVAudioEngine, AVAudioFormat> = \AVAudioEngine.manualRenderingFormat
        let _: KeyPath<AVAudioEngine, AVAudioEngineManualRenderingMode> = \AVAudioEngine.manualRenderingMode
        let _: KeyPath<AVAudioEngine, Bool> = \AVAudioEngine.isInManualRenderingMode
        let _: Notification.Name = .AVAudioEngineConfigurationChange
        #expect(AVAudioEngineManualRenderingStatus.insufficientDataFromInputNode.rawValue == 1)
        #expect(AVAudioEngineManualRenderingError.notRunning.rawValue == -80802)
        #expect(AVAudioEngineManualRenderingMode.realtime.rawValue == 1)
        #expect(!engine.isRunning && !engine.isInManualRenderingMode)
    }

    // https://developer.apple.com/documentation/avfaudio/avaudionode and its subclasses
    @Test func audioNodes() {
        let _: (AVAudioNode) -> (AVAudioNodeBus) -> AVAudioFormat = AVAudioNode.inputFormat(forBus:)
        let _: (AVAudioNode) -> (AVAudioNodeBus) -> AVAudioFormat = AVAudioNode.outputFormat(forBus:)
        let _: (AVAudioNode) -> (AVAudioNodeBus) -> String? = AVAudioNode.name(forInputBus:)
        let _: (AVAudioNode) -> (AVAudioNodeBus, AVAudioFrameCount, AVAudioFormat?, @escaping AVAudioNodeTapBlock) -> Void =
            AVAudioNode.installTap(onBus:bufferSize:format:block:)
        let _: (AVAudioNode) -> (AVAudioNodeBus) -> Void = AVAudioNode.removeTap(onBus:)
        let _: KeyPath<AVAudioNode, AVAudioEngine?> = \AVAudioNode.engine
        let _: KeyPath<AVAudioNode, Int> = \AVAudioNode.numberOfInputs
        let _: KeyPath<AVAudioNode, AVAudioTime?> = \AVAudioNode.lastRenderTime
        let _: KeyPath<AVAudioNode, TimeInterval> = \AVAudioNode.latency
        let _: KeyPath<AVAudioNode, TimeInterval> = \AVAudioNode.outputPresentationLatency
        let _: KeyPath<AVAudioMixerNode, Float> = \AVAudioMixerNode.outputVolume
        let _: KeyPath<AVAudioMixerNode, AVAudioNodeBus> = \AVAudioMixerNode.nextAvailableInputBus
        let _: KeyPath<AVAudioIONode, TimeInterval> = \AVAudioIONode.presentationLatency
        let player = AVAudioPlayerNode()
        player.volume = 0.5
        player.pan = -1
        let _: (AVAudioPlayerNode) -> (AVAudioPCMBuffer, AVAudioNodeCompletionHandler?) -> Void = AVAudioPlayerNode.scheduleBuffer(_:completionHandler:)
        let _: (AVAudioPlayerNode) -> (AVAudioPCMBuffer, AVAudioTime?, AVAudioPlayerNodeBufferOptions, AVAudioNodeCompletionHandler?) -> Void =
            AVAudioPlayerNode.scheduleBuffer(_:at:options:completionHandler:)
        let _: (AVAudioPlayerNode) -> (AVAudioPCMBuffer, AVAudioPlayerNodeCompletionCallbackType, AVAudioPlayerNodeCompletionHandler?) -> Void =
            AVAudioPlayerNode.scheduleBuffer(_:completionCallbackType:completionHandler:)
        let _: (AVAudioPlayerNode) -> (AVAudioPCMBuffer, AVAudioTime?, AVAudioPlayerNodeBufferOptions, AVAudioPlayerNodeCompletionCallbackType,
                                       AVAudioPlayerNodeCompletionHandler?) -> Void =
            AVAudioPlayerNode.scheduleBuffer(_:at:options:completionCallbackType:completionHandler:)
        let _: (AVAudioPlayerNode) -> (AVAudioFile, AVAudioTime?, AVAudioNodeCompletionHandler?) -> Void = AVAudioPlayerNode.scheduleFile(_:at:completionHandler:)
        let _: (AVAudioPlayerNode) -> (AVAudioFile, AVAudioFramePosition, AVAudioFrameCount, AVAudioTime?, AVAudioNodeCompletionHandler?) -> Void =
            AVAudioPlayerNode.scheduleSegment(_:startingFrame:frameCount:at:completionHandler:)
        let _: (AVAudioPlayerNode) -> (AVAudioTime?) -> Void = AVAudioPlayerNode.play(at:)
        let _: (AVAudioPlayerNode) -> (AVAudioTime) -> AVAudioTime? = AVAudioPlayerNode.nodeTime(forPlayerTime:)
        let _: (AVAudioPlayerNode) -> (AVAudioTime) -> AVAudioTime? = AVAudioPlayerNode.playerTime(forNodeTime:)
        let _: (AVAudioPlayerNode) -> (AVAudioFrameCount) -> Void = AVAudioPlayerNode.prepare(withFrameCount:)
        let _: KeyPath<AVAudioPlayerNode, Bool> = \AVAudioPlayerNode.isPlaying
        let _: AVAudioPlayerNodeBufferOptions = [.loops, .interrupts, .interruptsAtLoop]
        #expect(AVAudioPlayerNodeCompletionCallbackType.dataPlayedBack.rawValue == 2)
        let _: (@escaping AVAudioSourceNodeRenderBlock) -> AVAudioSourceNode = AVAudioSourceNode.init(renderBlock:)
        let _: (AVAudioFormat, @escaping AVAudioSourceNodeRenderBlock) -> AVAudioSourceNode = AVAudioSourceNode.init(format:renderBlock:)
        let _: (@escaping AVAudioSinkNodeReceiverBlock) -> AVAudioSinkNode = AVAudioSinkNode.init(receiverBlock:)
        let _: (AVAudioNode, AVAudioNodeBus) -> AVAudioConnectionPoint = AVAudioConnectionPoint.init(node:bus:)
        let mixing: any AVAudioMixing = player
        #expect(mixing.volume == 0.5 && mixing.pan == -1)
        let equalizer = AVAudioUnitEQ(numberOfBands: 2)
        let band: AVAudioUnitEQFilterParameters = equalizer.bands[0]
        band.filterType = .resonantHighShelf
        band.frequency = 8000
        band.bandwidth = 1
        band.gain = -3
        band.bypass = false
        equalizer.globalGain = 2
        equalizer.bypass = false
        let _: AVAudioUnitEffect = equalizer
        let _: AVAudioUnit = equalizer
        let _: KeyPath<AVAudioUnit, String> = \AVAudioUnit.name
        let _: KeyPath<AVAudioUnit, String> = \AVAudioUnit.manufacturerName
        let _: (Int) -> AVAudioUnitEQ = AVAudioUnitEQ.init(numberOfBands:)
        #expect(AVAudioUnitEQFilterType.resonantHighShelf.rawValue == 10 && equalizer.bands.count == 2)
        let reverb = AVAudioUnitReverb()
        reverb.loadFactoryPreset(.cathedral)
        reverb.wetDryMix = 40
        #expect(AVAudioUnitReverbPreset.largeHall2.rawValue == 12)
        let delay = AVAudioUnitDelay()
        delay.delayTime = 0.25
        delay.feedback = -20
        delay.lowPassCutoff = 8000
        delay.wetDryMix = 30
        let distortion = AVAudioUnitDistortion()
        distortion.loadFactoryPreset(.speechRadioTower)
        distortion.preGain = -3
        distortion.wetDryMix = 70
        #expect(AVAudioUnitDistortionPreset.speechWaves.rawValue == 21)
        let timePitch = AVAudioUnitTimePitch()
        timePitch.rate = 1.25
        timePitch.pitch = -100
        timePitch.overlap = 8
        timePitch.bypass = false
        let varispeed = AVAudioUnitVarispeed()
        varispeed.rate = 0.5
        let _: [AVAudioUnitTimeEffect] = [timePitch, varispeed]
        var stamp = AudioTimeStamp()
        stamp.mFlags = .sampleHostTimeValid
        #expect(stamp.mFlags.contains(.hostTimeValid))
        stamp.mSMPTETime.mType = .type2997Drop
        stamp.mSMPTETime.mFlags = [.valid, .running]
        #expect(stamp.mSMPTETime.mType.rawValue == 5 && SMPTETimeType.type2398.rawValue == 11)
        #expect(stamp.mSMPTETime.mFlags.rawValue == 3)
    }
}
