import Foundation
import MediaEngine
import OpenCoreMedia

/// The samples of a sound or movie file's first audio stream, converted to a microphone's
/// format (rate, channels, sample type: libswresample, through the engine's `AudioConverter`),
/// over and over: the File Microphone's source. The file is opened again at its end, so the
/// second pass follows the first's last sample directly. Used by one thread at a time.
final class FileSamples: @unchecked Sendable {
    private let url: URL
    private let output: PCMFormat
    private var decoding: StreamDecoding
    private var converter: AudioConverter
    /// Converted bytes not yet handed out, from `pendingStart`.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// Bytes converted in this pass (a pass without any means the file has no samples).
    private var bytesThisPass = 0

    /// Opens `url`'s first audio stream for samples of `format`; throws when it has none this
    /// machine decodes.
    init(url: URL, format: CaptureAudioFormat) throws(CaptureDeviceError) {
        self.url = url
        output = PCMFormat(sampleRate: Double(format.sampleRate), channelCount: format.channelCount,
                           bitsPerChannel: format.sampleFormat.bytesPerSample * 8, isFloat: format.sampleFormat == .float32)
        decoding = try Self.open(url)
        converter = AudioConverter(output: output)
    }

    /// The rate and channel count of `url`'s first audio stream; throws when it has none this
    /// machine decodes.
    static func streamFormat(of url: URL) throws(CaptureDeviceError) -> (sampleRate: Int, channelCount: Int) {
        let decoding = try open(url)
        let stream = decoding.demuxer.streams[decoding.stream]
        return (Int(stream.sampleRate), Int(stream.channelCount))
    }

    private static func open(_ url: URL) throws(CaptureDeviceError) -> StreamDecoding {
        let decoding: StreamDecoding?
        do throws(EngineError) {
            decoding = try StreamDecoding(url: url, kind: .audio)
        } catch {
            throw CaptureDeviceError(.unavailable, "\(url.lastPathComponent) cannot be played: \(error)")
        }
        guard let decoding, decoding.demuxer.streams[decoding.stream].sampleRate > 0,
              decoding.demuxer.streams[decoding.stream].channelCount > 0 else {
            throw CaptureDeviceError(.unavailable, "\(url.lastPathComponent) has no sound this machine decodes")
        }
        return decoding
    }

    /// Writes the next `frames` frames, interleaved, to `destination` (nil: skips them); loops
    /// at the file's end. Throws when the file cannot be read on (it went away, or is damaged)
    /// or has no samples at all.
    func read(frames: Int, into destination: UnsafeMutableRawPointer?) throws(CaptureDeviceError) {
        let bytesPerFrame = output.bytesPerFrame
        var done = 0
        while done < frames {
            if pendingStart == pending.count {
                try decodeMore()
                continue
            }
            let count = min(frames - done, (pending.count - pendingStart) / bytesPerFrame)
            if let destination {
                pending.withUnsafeBytes { bytes in
                    (destination + done * bytesPerFrame).copyMemory(from: bytes.baseAddress! + pendingStart,
                                                                    byteCount: count * bytesPerFrame)
                }
            }
            pendingStart += count * bytesPerFrame
            done += count
        }
    }

    /// Converts the next decoded frame into `pending` (which it replaces: all of it was handed
    /// out); at the file's end, the resampler's last samples, then the file from its start.
    private func decodeMore() throws(CaptureDeviceError) {
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        let buffer: CMSampleBuffer?
        var ended = false
        do throws(EngineError) {
            if let frame = try decoding.nextFrame() {
                buffer = try converter.convert(frame, timeBase: decoding.decoder.timeBase)
            } else {
                buffer = try converter.flush()
                ended = true
            }
        } catch {
            throw CaptureDeviceError(.failed, "\(url.lastPathComponent) cannot be played on: \(error)")
        }
        if ended, buffer == nil { try startOver() }
        guard let buffer, let data = CMSampleBufferGetDataBuffer(buffer) else { return }
        do {
            try data.withContiguousStorage { bytes in pending.append(contentsOf: bytes) }
        } catch {
            throw CaptureDeviceError(.failed, "\(url.lastPathComponent): \(error)")
        }
        bytesThisPass += pending.count
        if ended { try startOver() }
    }

    /// The file again from its start, with a fresh converter (whose first sample then follows
    /// the previous pass's last one directly).
    private func startOver() throws(CaptureDeviceError) {
        guard bytesThisPass > 0 else {
            throw CaptureDeviceError(.failed, "\(url.lastPathComponent) has no sound to play")
        }
        decoding = try Self.open(url)
        converter = AudioConverter(output: output)
        bytesThisPass = 0
    }
}
