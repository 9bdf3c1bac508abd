import Foundation
import MediaEngine
import OpenCoreMedia

/// Converts a stream of audio between formats: linear PCM's sample format (float, 16- and
/// 32-bit integer), interleaving, channel count (a channel map, or a mix with `downmix`) and
/// sample rate, through libswresample (the engine's one `AudioConverter`); encoding PCM to AAC,
/// Apple Lossless, FLAC and Opus packets and decoding compressed packets to PCM, through the
/// engine's `Encoder` and `Decoder`.
///
/// `convert(to:from:)` converts one PCM buffer without a rate change; `convert(to:error:withInputFrom:)`
/// pulls input from a block as the output needs it, across calls, with a rate change, encoding
/// into an `AVAudioCompressedBuffer` or decoding `AVAudioCompressedBuffer`s, and gives out what
/// the resampler or codec still holds once the block says the input ended.
///
/// Differs from Apple: every prime method primes as `.normal` does; the AAC encoder's priming
/// (`primeInfo.leadingFrames`) is FFmpeg's 1024 frames (Apple's encoder has 2112), and the AAC
/// decoder gives out the priming frames the packets carry (the AudioSpecificConfig does not
/// say how many; trim the stream encoder's priming), while the Opus decoder drops the pre-skip
/// its header (the magic cookie) names. The AAC magic cookie is FFmpeg's AudioSpecificConfig,
/// 5 bytes with its SBR sync extension where Apple's has 2.
open class AVAudioConverter: NSObject, @unchecked Sendable {
    /// The format of the input.
    public let inputFormat: AVAudioFormat
    /// The format of the output.
    public let outputFormat: AVAudioFormat

    /// The PCM the resampler takes: the input format, or what the decoder makes of it.
    private let input: PCMFormat
    private let output: PCMFormat
    /// The format of the PCM buffers the resampler takes.
    private let pcmInputFormat: AVAudioFormat
    /// The decoder, when the input is compressed.
    private let decoding: ConverterDecoding?
    /// The encoder, when the output is compressed.
    private let encoding: ConverterEncoding?
    /// When encoding from another rate or channel count: the buffer the PCM path fills with
    /// the input at the output's rate and channels (float), which the encoder then takes, so
    /// that the channel map, downmix and rate settings apply as they do to PCM output.
    private let staging: AVAudioPCMBuffer?
    /// Recursive: the input block, called under it, may read or set the converter's settings.
    private let lock = NSRecursiveLock()

    /// What the converter's properties set, and the stream under way.
    private struct State {
        var channelMap: [NSNumber]
        var downmix = false
        var dither = false
        var quality = AVAudioQuality.high.rawValue
        var algorithm: String? = AVSampleRateConverterAlgorithm_Normal
        var primeMethod = AVAudioConverterPrimeMethod.normal
        var primeInfo = AVAudioConverterPrimeInfo()
        var bitRateStrategy: String? = AVAudioBitRateStrategy_LongTermAverage
        /// The input buffer being converted and the first frame of it not yet given to the
        /// resampler.
        var pending: (buffer: AVAudioPCMBuffer, offset: Int)?
        /// The input ended: what the resampler holds is being given out.
        var draining = false
        /// Everything was given out.
        var ended = false
    }

    private var state: State
    private let engine: AudioConverter
    /// The plane pointers handed to the resampler, one a channel, allocated once.
    private let inputPlanes: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private let outputPlanes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>

    /// A converter from `fromFormat` to `toFormat`; nil when the engine cannot convert them:
    /// both compressed, a compressed format it has no decoder for, or an output format it
    /// does not encode (AAC, Apple Lossless, FLAC and Opus are encoded) at that rate and
    /// channel count.
    public init?(from fromFormat: AVAudioFormat, to toFormat: AVAudioFormat) {
        let input: PCMFormat
        let output: PCMFormat
        if let pcm = Self.pcmFormat(fromFormat) {
            input = pcm
            pcmInputFormat = fromFormat
            decoding = nil
        } else if let decoder = ConverterDecoding(from: fromFormat) {
            input = decoder.decoded
            pcmInputFormat = decoder.decodedFormat
            decoding = decoder
        } else {
            return nil
        }
        if let pcm = Self.pcmFormat(toFormat) {
            output = pcm
            encoding = nil
            staging = nil
        } else if decoding == nil {
            let target = toFormat.streamDescription.pointee
            let sameShape = target.mSampleRate == input.sampleRate && Int(target.mChannelsPerFrame) == input.channelCount
            guard target.mChannelsPerFrame > 0,
                  let staged = sameShape ? fromFormat : AVAudioFormat(standardFormatWithSampleRate: target.mSampleRate, channels: target.mChannelsPerFrame),
                  let encoder = ConverterEncoding(from: staged, to: toFormat) else { return nil }
            output = sameShape ? input : PCMFormat(sampleRate: target.mSampleRate, channelCount: Int(target.mChannelsPerFrame),
                                                   bitsPerChannel: 32, isFloat: true, isNonInterleaved: true)
            encoding = encoder
            staging = sameShape ? nil : AVAudioPCMBuffer(pcmFormat: staged, frameCapacity: 4_096)
        } else {
            return nil
        }
        inputFormat = fromFormat
        outputFormat = toFormat
        self.input = input
        self.output = output
        engine = AudioConverter(output: output)
        // Each output channel takes the input channel of its number; a single input channel
        // goes to every output channel (mono to stereo), other extra channels are silent.
        state = State(channelMap: (0..<output.channelCount).map { channel in
            NSNumber(value: channel < input.channelCount ? channel : input.channelCount == 1 ? 0 : -1)
        })
        inputPlanes = .allocate(capacity: max(1, input.channelCount))
        inputPlanes.initialize(repeating: nil, count: max(1, input.channelCount))
        outputPlanes = .allocate(capacity: max(1, output.channelCount))
        outputPlanes.initialize(repeating: nil, count: max(1, output.channelCount))
        super.init()
        if let encoding {
            state.primeInfo = AVAudioConverterPrimeInfo(leadingFrames: AVAudioFrameCount(encoding.encoder.primingSamples), trailingFrames: 0)
        }
        applyMixing()
    }

    deinit {
        inputPlanes.deallocate()
        outputPlanes.deallocate()
    }

    /// The engine's description of a linear PCM format; nil for other formats.
    private static func pcmFormat(_ format: AVAudioFormat) -> PCMFormat? {
        guard format.commonFormat != .otherFormat else { return nil }
        return PCMFormat(streamDescription: format.streamDescription.pointee)
    }

    // MARK: Settings

    /// For each output channel, the input channel it takes (-1: silence). By default each
    /// takes the input channel of its number, and a mono input goes to every channel.
    open var channelMap: [NSNumber] {
        get { lock.withLock { state.channelMap } }
        set { setMixing(\.channelMap, newValue) }
    }

    /// Whether fewer output channels than input ones are a mix of them, normalized so that it
    /// does not clip (stereo to mono: half of each), instead of the channels `channelMap`
    /// names. False by default.
    open var downmix: Bool {
        get { lock.withLock { state.downmix } }
        set { setMixing(\.downmix, newValue) }
    }

    /// Whether integer output is dithered. False by default.
    open var dither: Bool {
        get { lock.withLock { state.dither } }
        set { setMixing(\.dither, newValue) }
    }

    /// The sample rate converter's quality, an `AVAudioQuality` raw value: the length of
    /// libswresample's filter, 8 taps at `.min` to 128 at `.max` (64 at `.high`, the default).
    open var sampleRateConverterQuality: Int {
        get { lock.withLock { state.quality } }
        set { setMixing(\.quality, newValue) }
    }

    /// The sample rate converter's algorithm, one of the `AVSampleRateConverterAlgorithm_…`
    /// values; `_Mastering` doubles the filter length.
    open var sampleRateConverterAlgorithm: String? {
        get { lock.withLock { state.algorithm } }
        set { setMixing(\.algorithm, newValue) }
    }

    /// How the sample rate converter is primed (`.normal` by default).
    open var primeMethod: AVAudioConverterPrimeMethod {
        get { lock.withLock { state.primeMethod } }
        set { lock.withLock { state.primeMethod = newValue } }
    }

    /// The priming frames for `primeMethod`.
    open var primeInfo: AVAudioConverterPrimeInfo {
        get { lock.withLock { state.primeInfo } }
        set { lock.withLock { state.primeInfo = newValue } }
    }

    /// The largest packet the output can have, in bytes: a frame, for linear PCM; the codec's
    /// largest packet when encoding.
    open var maximumOutputPacketSize: Int {
        if let encoding { return lock.withLock { encoding.maximumPacketSize } }
        return output.bytesPerFrame * (output.isNonInterleaved ? output.channelCount : 1)
    }

    // MARK: Encoding settings

    /// The encoder's bit rate, bits per second (0 when not encoding, and for lossless codecs):
    /// by default 64 kbit/s a channel for AAC, 48 kbit/s a channel for Opus. Honoured when
    /// set before the first conversion; a rate the encoder refuses leaves it as it was.
    open var bitRate: Int {
        get { lock.withLock { encoding?.bitRate ?? 0 } }
        set { lock.withLock { _ = encoding?.setBitRate(newValue) } }
    }

    /// The encoder's bit rate strategy, one of the `AVAudioBitRateStrategy_…` values; nil when
    /// not encoding. Differs from Apple: FFmpeg's AAC and Opus encoders are driven by the
    /// bit rate alone, so the strategy is recorded but does not change the encoding.
    open var bitRateStrategy: String? {
        get { lock.withLock { encoding == nil ? nil : state.bitRateStrategy } }
        set { lock.withLock { if encoding != nil { state.bitRateStrategy = newValue } } }
    }

    /// The bit rates the encoder takes at the output's rate and channel count; nil when not
    /// encoding, empty for lossless codecs.
    open var applicableEncodeBitRates: [NSNumber]? {
        lock.withLock { encoding.map { $0.applicableBitRates.map { NSNumber(value: $0) } } }
    }

    /// Every bit rate the encoder offers; nil when not encoding, empty for lossless codecs.
    open var availableEncodeBitRates: [NSNumber]? {
        lock.withLock { encoding.map { $0.availableBitRates.map { NSNumber(value: $0) } } }
    }

    /// The output sample rates the encoder takes with the current formats; nil when not
    /// encoding. The input's rate is changed to the output's on the way.
    open var applicableEncodeSampleRates: [NSNumber]? { availableEncodeSampleRates }

    /// Every output sample rate the encoder takes; nil when not encoding.
    open var availableEncodeSampleRates: [NSNumber]? {
        lock.withLock { encoding.map { $0.availableSampleRates.map { NSNumber(value: $0) } } }
    }

    /// The channel layouts the encoder takes, as `AudioChannelLayoutTag` values: mono and
    /// stereo, then one to eight channels in FFmpeg's default order as unknown layouts of that
    /// many channels; nil when not encoding.
    open var availableEncodeChannelLayoutTags: [NSNumber]? {
        guard encoding != nil else { return nil }
        return [kAudioChannelLayoutTag_Mono, kAudioChannelLayoutTag_Stereo].map { NSNumber(value: $0) }
            + (3...8).map { NSNumber(value: kAudioChannelLayoutTag_Unknown | UInt32($0)) }
    }

    /// The codec's configuration: when encoding, the encoder's (the AAC AudioSpecificConfig,
    /// the FLAC STREAMINFO, the ALAC or Opus header), the output format's magic cookie; when
    /// decoding, the one the decoder uses, the input format's until set (which starts a new
    /// stream, as `reset()` does). Nil for linear PCM.
    open var magicCookie: Data? {
        get { lock.withLock { encoding?.magicCookie ?? decoding?.magicCookie } }
        set { lock.withLock { decoding?.magicCookie = newValue } }
    }

    /// Sets one of the settings that shape the resampler, and hands them to it.
    private func setMixing<Value>(_ setting: WritableKeyPath<State, Value>, _ value: Value) {
        lock.withLock { state[keyPath: setting] = value }
        applyMixing()
    }

    /// Hands the settings to the resampler (which is remade when they change).
    private func applyMixing() {
        lock.withLock {
            var mixing = AudioConverter.Mixing()
            mixing.downmix = state.downmix && output.channelCount < input.channelCount
            mixing.normalizesMix = true
            mixing.channelMap = mixing.downmix ? nil : state.channelMap.map(\.intValue)
            mixing.dithers = state.dither
            let quality = max(0, min(AVAudioQuality.max.rawValue, state.quality))
            let taps = Int32(8) << (quality * 4 / AVAudioQuality.max.rawValue)
            mixing.filterSize = state.algorithm == AVSampleRateConverterAlgorithm_Mastering ? taps * 2 : taps
            engine.mixing = mixing
        }
    }

    // MARK: Converting

    /// Forgets the stream under way (the input held and what the resampler holds), so that a
    /// new one starts.
    open func reset() {
        lock.withLock {
            engine.reset()
            decoding?.reset()
            encoding?.reset()
            state.pending = nil
            state.draining = false
            state.ended = false
        }
    }

    /// Converts `inputBuffer` into `outputBuffer` whole, when the formats have the same sample
    /// rate; throws (`kAudioConverterErr_OperationNotSupported`) for a rate change, which
    /// `convert(to:error:withInputFrom:)` does, and when the output has no room for the input.
    open func convert(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws {
        guard decoding == nil, encoding == nil else {
            throw Self.error(kAudioConverterErr_OperationNotSupported, "convert(to:from:) converts PCM only; use convert(to:error:withInputFrom:) to encode or decode")
        }
        guard input.sampleRate == output.sampleRate else {
            throw Self.error(kAudioConverterErr_OperationNotSupported, "convert(to:from:) does not change the sample rate; use convert(to:error:withInputFrom:)")
        }
        guard inputBuffer.format.isEqual(inputFormat), outputBuffer.format.isEqual(outputFormat) else {
            throw Self.error(kAudio_ParamError, "the buffers are not in the converter's formats")
        }
        guard outputBuffer.frameCapacity >= inputBuffer.frameLength else {
            throw Self.error(kAudioConverterErr_InvalidOutputSize, "the output buffer has room for \(outputBuffer.frameCapacity) frames, not \(inputBuffer.frameLength)")
        }
        try lock.withLock {
            do {
                let count = Int(inputBuffer.frameLength)
                let written = try engine.convert(planes(of: inputBuffer, from: 0), count: count, format: input,
                                                 into: planes(of: outputBuffer, at: 0), capacity: Int(outputBuffer.frameCapacity))
                outputBuffer.frameLength = AVAudioFrameCount(written)
            } catch {
                throw Self.error(kAudioConverterErr_FormatNotSupported, "\(error)")
            }
        }
    }

    /// Fills `outputBuffer` with converted input, asking `inputBlock` for input as needed: the
    /// output's `frameLength` (an `AVAudioCompressedBuffer`'s `packetCount` and `byteLength`,
    /// with a packet description a packet, when encoding) says how much came out. Returns
    /// `.haveData` when the buffer is full (or the input ended part way), `.inputRanDry` when
    /// the block had no data for now, `.endOfStream` when the input ended and nothing is left,
    /// `.error` with `outError` set when a buffer is not in the converter's format or the
    /// conversion fails. When decoding, the block returns `AVAudioCompressedBuffer`s of the
    /// input format and is asked for packets.
    open func convert(to outputBuffer: AVAudioBuffer, error outError: NSErrorPointer,
                      withInputFrom inputBlock: AVAudioConverterInputBlock) -> AVAudioConverterOutputStatus {
        if let encoding { return encode(into: outputBuffer, with: encoding, error: outError, withInputFrom: inputBlock) }
        guard let outputBuffer = outputBuffer as? AVAudioPCMBuffer, outputBuffer.format.isEqual(outputFormat) else {
            outError?.pointee = Self.error(kAudio_ParamError, "the output buffer is not in the converter's output format")
            return .error
        }
        return convertPCM(into: outputBuffer, error: outError, withInputFrom: inputBlock)
    }

    /// `convert(to:error:withInputFrom:)` into PCM: the input (decoded, when compressed)
    /// through the resampler into `outputBuffer`, which is in the PCM path's output format.
    private func convertPCM(into outputBuffer: AVAudioPCMBuffer, error outError: NSErrorPointer,
                            withInputFrom inputBlock: AVAudioConverterInputBlock) -> AVAudioConverterOutputStatus {
        lock.lock()
        defer { lock.unlock() }
        let capacity = Int(outputBuffer.frameCapacity)
        var produced = 0
        var ranDry = false
        do {
            while produced < capacity, !state.ended {
                let room = capacity - produced
                if let (buffer, offset) = state.pending, offset < Int(buffer.frameLength) {
                    // No more input than the room takes: libswresample would hold the rest.
                    let take = min(Int(buffer.frameLength) - offset, max(1, engine.inputFrames(forRoom: room, inputRate: input.sampleRate)))
                    produced += try engine.convert(planes(of: buffer, from: offset), count: take, format: input,
                                                   into: planes(of: outputBuffer, at: produced), capacity: room)
                    state.pending = (buffer, offset + take)
                } else if state.draining {
                    let drained = try engine.convert(nil, count: 0, format: input, into: planes(of: outputBuffer, at: produced), capacity: room)
                    produced += drained
                    if drained == 0 { state.ended = true }
                } else {
                    var status = AVAudioConverterInputStatus.haveData
                    let wanted = AVAudioPacketCount(max(1, engine.inputFrames(forRoom: room, inputRate: input.sampleRate)))
                    let given: AVAudioBuffer?
                    if let decoding {
                        (given, status) = try decoding.nextBuffer(wanted: Int(wanted), from: inputBlock)
                    } else {
                        given = inputBlock(wanted, &status)
                    }
                    switch status {
                    case .haveData:
                        guard let buffer = given as? AVAudioPCMBuffer, buffer.format.isEqual(pcmInputFormat) else {
                            outError?.pointee = Self.error(kAudio_ParamError, "the input block gave a buffer that is not in the converter's input format")
                            return .error
                        }
                        state.pending = (buffer, 0)
                    case .noDataNow:
                        ranDry = true
                    case .endOfStream:
                        state.pending = nil
                        state.draining = true
                    }
                    if ranDry { break }
                }
            }
        } catch {
            outputBuffer.frameLength = AVAudioFrameCount(produced)
            outError?.pointee = Self.error(reporting: error)
            return .error
        }
        outputBuffer.frameLength = AVAudioFrameCount(produced)
        if produced == capacity { return .haveData }
        if ranDry { return .inputRanDry }
        return produced > 0 ? .haveData : .endOfStream
    }

    /// `convert(to:error:withInputFrom:)` when encoding: packets into `outputBuffer`, encoding
    /// the block's PCM buffers as the packets run out.
    private func encode(into outputBuffer: AVAudioBuffer, with encoding: ConverterEncoding, error outError: NSErrorPointer,
                        withInputFrom inputBlock: AVAudioConverterInputBlock) -> AVAudioConverterOutputStatus {
        guard let outputBuffer = outputBuffer as? AVAudioCompressedBuffer, outputBuffer.format.isEqual(outputFormat) else {
            outError?.pointee = Self.error(kAudio_ParamError, "the output buffer is not a compressed buffer in the converter's output format")
            return .error
        }
        lock.lock()
        defer { lock.unlock() }
        var count = 0
        var bytes = 0
        var ranDry = false
        defer {
            outputBuffer.packetCount = AVAudioPacketCount(count)
            outputBuffer.byteLength = UInt32(bytes)
        }
        do {
            while count < Int(outputBuffer.packetCapacity) {
                if let packet = encoding.nextPacket {
                    let size = packet.size
                    guard bytes + size <= Int(outputBuffer.byteCapacity) else {
                        if count > 0 { break }
                        throw Self.error(kAudioConverterErr_InvalidOutputSize, "a \(size)-byte packet does not fit the output buffer's \(outputBuffer.byteCapacity) bytes")
                    }
                    if let base = packet.bytes.baseAddress { (outputBuffer.data + bytes).copyMemory(from: base, byteCount: size) }
                    outputBuffer.packetDescriptions?[count] = AudioStreamPacketDescription(
                        mStartOffset: Int64(bytes), mVariableFramesInPacket: 0, mDataByteSize: UInt32(size))
                    bytes += size
                    count += 1
                    encoding.dropPacket()
                } else if encoding.finished {
                    break
                } else {
                    if let staging {
                        // Through the PCM path first, to the output's rate and channels.
                        staging.frameLength = 0
                        switch convertPCM(into: staging, error: outError, withInputFrom: inputBlock) {
                        case .haveData: try encoding.encode(staging)
                        case .inputRanDry:
                            try encoding.encode(staging)
                            ranDry = true
                        case .endOfStream: try encoding.finish()
                        case .error: return .error
                        }
                        if ranDry { break }
                        continue
                    }
                    var status = AVAudioConverterInputStatus.haveData
                    let framesPerPacket = max(1, encoding.encoder.frameSize)
                    let given = inputBlock(AVAudioPacketCount((Int(outputBuffer.packetCapacity) - count) * framesPerPacket), &status)
                    switch status {
                    case .haveData:
                        guard let buffer = given as? AVAudioPCMBuffer, buffer.format.isEqual(inputFormat) else {
                            throw Self.error(kAudio_ParamError, "the input block gave a buffer that is not in the converter's input format")
                        }
                        try encoding.encode(buffer)
                    case .noDataNow:
                        ranDry = true
                    case .endOfStream:
                        try encoding.finish()
                    }
                    if ranDry { break }
                }
            }
        } catch {
            outError?.pointee = Self.error(reporting: error)
            return .error
        }
        if count == Int(outputBuffer.packetCapacity) { return .haveData }
        if ranDry { return .inputRanDry }
        return count > 0 ? .haveData : .endOfStream
    }

    /// The resampler's pointers to `buffer`'s planes from frame `offset` (a pointer a channel
    /// for a planar format, one for an interleaved one).
    private func planes(of buffer: AVAudioPCMBuffer, from offset: Int) -> UnsafePointer<UnsafePointer<UInt8>?> {
        for (index, audio) in buffer.bufferList.enumerated() {
            inputPlanes[index] = audio.mData.map { UnsafePointer(($0 + offset * input.bytesPerFrame).assumingMemoryBound(to: UInt8.self)) }
        }
        return UnsafePointer(inputPlanes)
    }

    /// The resampler's pointers into `buffer`'s planes at frame `offset`.
    private func planes(of buffer: AVAudioPCMBuffer, at offset: Int) -> UnsafePointer<UnsafeMutablePointer<UInt8>?> {
        for (index, audio) in buffer.bufferList.enumerated() {
            outputPlanes[index] = audio.mData.map { ($0 + offset * output.bytesPerFrame).assumingMemoryBound(to: UInt8.self) }
        }
        return UnsafePointer(outputPlanes)
    }
}
