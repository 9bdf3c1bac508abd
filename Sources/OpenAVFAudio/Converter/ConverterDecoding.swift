import Foundation
import MediaEngine
import OpenCoreMedia

/// The decoding side of `AVAudioConverter`: compressed buffers from the input block through the
/// engine's `Decoder` (the one `AVAudioFile` and the asset reader use), as buffers of 32-bit
/// float interleaved PCM at the input's rate and channel count, which the converter's PCM path
/// then takes to the output format. Not thread safe: the converter serializes its calls.
final class ConverterDecoding {
    /// The decoded buffers' format.
    let decodedFormat: AVAudioFormat
    /// The same, for the engine.
    let decoded: PCMFormat
    /// The compressed input's format.
    private let inputFormat: AVAudioFormat
    /// Its codec configuration, which the decoder is opened with.
    var magicCookie: Data? {
        didSet { reset() }
    }
    /// The decoder, made again by `reset()`.
    private var decoder: Decoder
    /// Decoded frames into `decoded`.
    private let converter: AudioConverter
    /// The sample time of the next packet sent.
    private var nextPacketTime: Int64 = 0
    /// Decoded buffers not yet handed on.
    private var ready: [AVAudioPCMBuffer] = []
    /// Whether the end of the input was sent to the decoder.
    private var drained = false

    /// A decoder of `inputFormat`'s packets (its codec, rate, channels and magic cookie); nil
    /// when the engine has no decoder for it.
    init?(from inputFormat: AVAudioFormat) {
        let d = inputFormat.streamDescription.pointee
        guard d.mFormatID != kAudioFormatLinearPCM, d.mSampleRate > 0, d.mChannelsPerFrame > 0,
              let decoder = try? Self.decoder(for: inputFormat, magicCookie: inputFormat.magicCookie),
              let format = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: d.mSampleRate,
                                         channels: d.mChannelsPerFrame, interleaved: true) else { return nil }
        self.inputFormat = inputFormat
        magicCookie = inputFormat.magicCookie
        self.decoder = decoder
        decodedFormat = format
        decoded = PCMFormat(sampleRate: d.mSampleRate, channelCount: Int(d.mChannelsPerFrame), bitsPerChannel: 32, isFloat: true)
        converter = AudioConverter(output: decoded)
    }

    /// The next buffer of decoded samples (`.haveData`), asking `inputBlock` for about `wanted`
    /// frames' packets as needed; nil with `.noDataNow` when the block has none for now, or
    /// `.endOfStream` when everything was decoded. Throws for a buffer not in the input format
    /// and for data the decoder rejects.
    func nextBuffer(wanted: Int, from inputBlock: AVAudioConverterInputBlock) throws -> (AVAudioPCMBuffer?, AVAudioConverterInputStatus) {
        while ready.isEmpty {
            if try receiveFrames() { continue }
            if drained {
                if let rest = try converter.flush() { append(rest) }
                return ready.isEmpty ? (nil, .endOfStream) : (ready.removeFirst(), .haveData)
            }
            let framesPerPacket = max(1, Int(inputFormat.streamDescription.pointee.mFramesPerPacket))
            var status = AVAudioConverterInputStatus.haveData
            let given = inputBlock(AVAudioPacketCount(max(1, (wanted + framesPerPacket - 1) / framesPerPacket)), &status)
            switch status {
            case .haveData:
                guard let buffer = given as? AVAudioCompressedBuffer, buffer.format.isEqual(inputFormat) else {
                    throw AVAudioConverter.error(kAudio_ParamError, "the input block gave a buffer that is not in the converter's input format")
                }
                try send(buffer)
            case .noDataNow:
                return (nil, .noDataNow)
            case .endOfStream:
                _ = try decoder.send(nil)
                drained = true
            }
        }
        return (ready.removeFirst(), .haveData)
    }

    /// Sends each packet of `buffer` to the decoder, taking frames out when it is full.
    private func send(_ buffer: AVAudioCompressedBuffer) throws {
        let d = inputFormat.streamDescription.pointee
        let framesPerPacket = Int64(d.mFramesPerPacket)
        var offset = 0
        for index in 0..<Int(buffer.packetCount) {
            let start: Int
            let size: Int
            if let description = buffer.packetDescriptions?[index] {
                start = Int(description.mStartOffset)
                size = Int(description.mDataByteSize)
            } else {
                start = offset
                size = Int(d.mBytesPerPacket)
            }
            offset = start + size
            guard size > 0, offset <= Int(buffer.byteLength) else {
                throw AVAudioConverter.error(kAudioConverterErr_InvalidInputSize, "packet \(index) lies outside the buffer's bytes")
            }
            let packet = try Packet(copying: UnsafeRawBufferPointer(start: buffer.data + start, count: size),
                                    presentationTime: nextPacketTime, duration: framesPerPacket, timescale: Int32(d.mSampleRate))
            nextPacketTime += framesPerPacket
            while try !decoder.send(packet) { _ = try receiveFrames() }
        }
    }

    /// Takes every frame the decoder has ready into `ready`; false when there was none.
    private func receiveFrames() throws -> Bool {
        var any = false
        while let frame = try decoder.receiveFrame() {
            any = true
            if let converted = try converter.convert(frame, timeBase: decoder.timeBase) { append(converted) }
        }
        return any
    }

    /// Adds a converted sample buffer to `ready` as a PCM buffer.
    private func append(_ sample: CMSampleBuffer) {
        let frames = CMSampleBufferGetNumSamples(sample)
        guard frames > 0, let data = CMSampleBufferGetDataBuffer(sample),
              let buffer = AVAudioPCMBuffer(pcmFormat: decodedFormat, frameCapacity: AVAudioFrameCount(frames)) else { return }
        _ = CMBlockBufferCopyDataBytes(data, atOffset: 0, dataLength: frames * decoded.bytesPerFrame, destination: buffer.rawChannel(0))
        buffer.frameLength = AVAudioFrameCount(frames)
        ready.append(buffer)
    }

    /// A decoder for `format`'s packets with `magicCookie`.
    private static func decoder(for format: AVAudioFormat, magicCookie: Data?) throws -> Decoder {
        let configured = AVAudioFormat(description: format.streamDescription.pointee, layout: format.channelLayout, magicCookie: magicCookie)
        return try Decoder(audioFormat: configured.formatDescription)
    }

    /// Forgets the stream under way: a new decoder (with the magic cookie) for a new stream.
    func reset() {
        if let fresh = try? Self.decoder(for: inputFormat, magicCookie: magicCookie) { decoder = fresh }
        converter.reset()
        nextPacketTime = 0
        ready.removeAll()
        drained = false
    }
}
