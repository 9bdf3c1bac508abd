import Foundation
import MediaEngine
import OpenCoreMedia

/// An audio file opened for reading or writing, through PCM buffers in the processing format.
///
/// Reading takes any file FFmpeg reads (WAV, AIFF, CAF, FLAC, MP3, AAC and ALAC in MP4/M4A,
/// Opus and Vorbis in Ogg, the audio of a movie); reads are sequential from `framePosition`,
/// which can be set to any frame. Writing makes WAV and CAF (linear PCM, little-endian), AIFF
/// (big-endian integers), CAF and M4A (Apple Lossless), M4A (AAC), FLAC (16-bit), Opus (Ogg)
/// and MP4 (AAC, Apple Lossless, Opus) files from audio settings, replacing a file already at
/// the URL as Apple's class does; the file is complete after `close()` (or when the object
/// goes away).
///
/// Errors are `NSError`s in AVFAudio's domain (`com.apple.coreaudio.avfaudio`) with Core Audio's
/// `OSStatus` codes, as Apple's class throws them: a missing file is `kAudioFileUnspecifiedError`
/// (`'wht?'`), a file no demuxer recognises `kAudioFileUnsupportedFileTypeError` (`'typ?'`), one
/// without a decodable audio stream `kAudioFileUnsupportedDataFormatError` (`'fmt?'`), data that
/// fails to decode `kAudioFileInvalidFileError` (`'dta?'`), a buffer in another format than the
/// processing format `kAudio_ParamError` (-50); writing settings a file type cannot hold
/// `kAudioFileUnsupportedDataFormatError`, a file type that cannot be written
/// `kAudioFileUnsupportedFileTypeError`.
open class AVAudioFile: NSObject, @unchecked Sendable {
    /// The file's location.
    public let url: URL
    /// The format of the audio as the file stores it.
    public let fileFormat: AVAudioFormat
    /// The format of the buffers read: the file's rate and channels, in the common format and
    /// interleaving asked for when opening (non-interleaved 32-bit float by default).
    public let processingFormat: AVAudioFormat
    /// The decoding of a file opened for reading, behind `lock`; nil once closed.
    private var decoding: AudioFileDecoding?
    /// The encoding of a file opened for writing, behind `lock`; nil once closed.
    private var encoding: AudioFileEncoding?
    /// The frame count, once known.
    private var knownLength: AVAudioFramePosition?
    /// Serializes reads, seeks and `close()`.
    private let lock = NSLock()

    /// Opens a file for reading in the standard processing format: non-interleaved 32-bit float.
    public convenience init(forReading fileURL: URL) throws {
        try self.init(forReading: fileURL, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    /// Opens a file for reading in a common PCM format, interleaved or not, at the file's rate.
    public init(forReading fileURL: URL, commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
        let sample = try Self.sampleType(format, fileURL)
        let decoding: AudioFileDecoding
        do {
            decoding = try AudioFileDecoding(url: fileURL, bitsPerChannel: sample.bits, isFloat: sample.isFloat)
        } catch {
            throw Self.openingError(error, fileURL)
        }
        url = fileURL
        fileFormat = decoding.fileFormat
        let channels = UInt32(decoding.output.channelCount)
        let layout = decoding.fileFormat.channelLayout
            ?? (channels > 2 ? AVAudioChannelLayout(layoutTag: decoding.output.channelLayoutTag
                    ?? kAudioChannelLayoutTag_DiscreteInOrder | channels) : nil)
        processingFormat = AVAudioFormat(
            description: AudioSettings.pcmDescription(sampleRate: decoding.output.sampleRate, channels: channels,
                                                      bits: UInt32(sample.bits), isFloat: sample.isFloat,
                                                      isBigEndian: false, isNonInterleaved: !interleaved),
            layout: layout, magicCookie: nil)
        self.decoding = decoding
        super.init()
    }

    /// Creates a file for writing in the format `settings` describe (`AVFormatIDKey`,
    /// `AVSampleRateKey`, `AVNumberOfChannelsKey`, the `AVLinearPCM…` keys, `AVEncoderBitRateKey`),
    /// taking buffers in the standard processing format (non-interleaved 32-bit float).
    public convenience init(forWriting fileURL: URL, settings: [String: Any]) throws {
        try self.init(forWriting: fileURL, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    /// Creates a file for writing in the format `settings` describe, taking buffers in a
    /// common PCM format, interleaved or not, at the file's rate and channel count.
    public init(forWriting fileURL: URL, settings: [String: Any], commonFormat format: AVAudioCommonFormat,
                interleaved: Bool) throws {
        let sample = try Self.sampleType(format, fileURL)
        let plan: AudioFileEncoding.Plan
        do {
            plan = try AudioFileEncoding.plan(url: fileURL, settings: settings)
        } catch {
            throw Self.error(error.code, error.reason, fileURL)
        }
        do {
            encoding = try AudioFileEncoding(url: fileURL, plan: plan, isFloat: sample.isFloat, bitsPerChannel: sample.bits)
        } catch {
            throw Self.error(kAudioFileUnsupportedDataFormatError, "\(error)", fileURL)
        }
        url = fileURL
        fileFormat = plan.fileFormat
        let channels = UInt32(plan.audio.channelCount)
        processingFormat = AVAudioFormat(
            description: AudioSettings.pcmDescription(sampleRate: Double(plan.audio.sampleRate), channels: channels,
                                                      bits: UInt32(sample.bits), isFloat: sample.isFloat,
                                                      isBigEndian: false, isNonInterleaved: !interleaved),
            layout: plan.fileFormat.channelLayout, magicCookie: nil)
        super.init()
    }

    deinit {
        close()
    }

    /// The number of sample frames in the file: every frame a decode presents, encoder priming
    /// and padding that the container marks excluded. Reading the whole file to count them
    /// happens once, on first use.
    public var length: AVAudioFramePosition {
        lock.withLock {
            if let encoding { return encoding.framesWritten }
            if let knownLength { return knownLength }
            let count = (try? AudioFileDecoding.frameCount(of: url)) ?? 0
            knownLength = count
            return count
        }
    }

    /// The frame the next read starts at; setting it moves there exactly (a sample-exact seek).
    open var framePosition: AVAudioFramePosition {
        get { lock.withLock { encoding?.framesWritten ?? decoding?.position ?? 0 } }
        set {
            lock.withLock {
                do {
                    try decoding?.seek(to: max(0, newValue))
                } catch {
                    decodingFailure = error
                }
            }
        }
    }

    /// A seek's failure, thrown by the next read.
    private var decodingFailure: (any Error)?

    /// Whether the file is open (until `close()`).
    open var isOpen: Bool { lock.withLock { decoding != nil || encoding != nil } }

    /// Reads from `framePosition` until the buffer is full or the file ends; the buffer's
    /// `frameLength` says how many frames were read (0 at the end of the file).
    open func read(into buffer: AVAudioPCMBuffer) throws {
        try read(into: buffer, frameCount: buffer.frameCapacity)
    }

    /// Reads up to `frames` frames (at most the buffer's capacity) from `framePosition`; the
    /// buffer's `frameLength` says how many were read. The buffer must be in the processing
    /// format.
    open func read(into buffer: AVAudioPCMBuffer, frameCount frames: AVAudioFrameCount) throws {
        guard buffer.format.isEqual(processingFormat) else {
            throw Self.error(kAudio_ParamError, "the buffer's format is not the file's processing format", url)
        }
        try lock.withLock {
            guard let decoding else { throw Self.error(kAudioFileNotOpenError, "the file is closed", url) }
            if let failure = decodingFailure {
                decodingFailure = nil
                throw Self.readingError(failure, url)
            }
            let wanted = Int(min(frames, buffer.frameCapacity))
            let format = processingFormat
            do {
                if format.isInterleaved || format.channelCount == 1 {
                    buffer.frameLength = AVAudioFrameCount(try decoding.read(frames: wanted, into: buffer.rawChannel(0)))
                } else {
                    buffer.frameLength = AVAudioFrameCount(try deinterleavedRead(decoding, frames: wanted, into: buffer))
                }
            } catch {
                throw Self.readingError(error, url)
            }
        }
    }

    /// Writes the buffer's valid frames at the end of the file. The buffer must be in the
    /// processing format.
    open func write(from buffer: AVAudioPCMBuffer) throws {
        guard buffer.format.isEqual(processingFormat) else {
            throw Self.error(kAudio_ParamError, "the buffer's format is not the file's processing format", url)
        }
        try lock.withLock {
            guard let encoding else { throw Self.error(kAudioFileNotOpenError, "the file is not open for writing", url) }
            do {
                try encoding.write(buffer)
            } catch {
                throw Self.error(kAudioFileInvalidFileError, "\(error)", url)
            }
        }
    }

    /// Closes the file: a written file is finished (its encoder drained, its header or trailer
    /// written); later reads and writes throw `kAudioFileNotOpenError`.
    open func close() {
        lock.withLock {
            decoding = nil
            if let encoding {
                do {
                    try encoding.finish()
                } catch {
                    encoding.cancel()
                }
            }
            encoding = nil
        }
    }

    /// The sample size and kind of a common format; throws `kAudio_ParamError` for `.otherFormat`.
    private static func sampleType(_ format: AVAudioCommonFormat, _ url: URL) throws -> (bits: Int, isFloat: Bool) {
        switch format {
        case .pcmFormatFloat32: (32, true)
        case .pcmFormatFloat64: (64, true)
        case .pcmFormatInt16: (16, false)
        case .pcmFormatInt32: (32, false)
        case .otherFormat: throw error(kAudio_ParamError, "the processing format must be linear PCM", url)
        }
    }

    /// Reads decoded frames and spreads them over the buffer's channels, straight from the decoder's pending samples.
    private func deinterleavedRead(_ decoding: AudioFileDecoding, frames: Int, into buffer: AVAudioPCMBuffer) throws -> Int {
        let channels = Int(processingFormat.channelCount)
        let bytesPerSample = decoding.output.bytesPerSample
        return try decoding.read(frames: frames) { source, offset, count in
            switch bytesPerSample {
            case 4: Self.deinterleave(source.assumingMemoryBound(to: UInt32.self), frames: count, channels: channels, into: buffer, at: offset)
            case 2: Self.deinterleave(source.assumingMemoryBound(to: UInt16.self), frames: count, channels: channels, into: buffer, at: offset)
            default:
                for channel in 0..<channels {
                    let destination = buffer.rawChannel(channel) + offset * bytesPerSample
                    for frame in 0..<count {
                        (destination + frame * bytesPerSample).copyMemory(
                            from: source + (frame * channels + channel) * bytesPerSample, byteCount: bytesPerSample)
                    }
                }
            }
        }
    }

    /// Copies `frames` interleaved frames of `channels` samples of `Sample`'s size into the
    /// buffer's channels from frame `offset` on, a sample at a time as whole values (which the
    /// compiler vectorizes), not byte copies.
    private static func deinterleave<Sample>(_ source: UnsafePointer<Sample>, frames: Int, channels: Int,
                                             into buffer: AVAudioPCMBuffer, at offset: Int) {
        for channel in 0..<channels {
            let destination = buffer.rawChannel(channel).assumingMemoryBound(to: Sample.self) + offset
            for frame in 0..<frames { destination[frame] = source[frame * channels + channel] }
        }
    }

    /// The error for a file that could not be opened for reading.
    private static func openingError(_ error: any Error, _ url: URL) -> NSError {
        if error is AudioFileDecoding.NoAudio {
            return Self.error(kAudioFileUnsupportedDataFormatError, "the file has no audio FFmpeg can decode", url)
        }
        if url.isFileURL, !FileManager.default.fileExists(atPath: url.path) {
            return Self.error(kAudioFileUnspecifiedError, "no file at \(url.path)", url)
        }
        if let engine = error as? EngineError, engine.operation.hasPrefix("opening") {
            return Self.error(kAudioFileUnsupportedFileTypeError, engine.description, url)
        }
        return Self.error(kAudioFileInvalidFileError, "\(error)", url)
    }

    /// The error for data that could not be read.
    private static func readingError(_ error: any Error, _ url: URL) -> NSError {
        let error = error as NSError
        if error.domain == avfAudioErrorDomain { return error }
        return Self.error(kAudioFileInvalidFileError, "\(error)", url)
    }

    /// An error in AVFAudio's domain with a Core Audio code, naming what failed.
    private static func error(_ code: OSStatus, _ reason: String, _ url: URL) -> NSError {
        NSError(domain: avfAudioErrorDomain, code: Int(code),
                userInfo: [NSLocalizedFailureReasonErrorKey: reason, NSURLErrorKey: url])
    }
}
