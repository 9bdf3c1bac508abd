import CaptureDevices
import Dispatch
import Foundation
import MediaEngine
import OpenCoreMedia

/// Plays audio sample buffers an app enqueues (decoded by the app, or read, received or made
/// by it), each at its presentation time on the timebase of the `AVSampleBufferRenderSynchronizer`
/// it is added to.
///
/// Linear PCM of any layout CoreAudio describes is taken, and compressed audio the engine
/// decodes (AAC, Opus, FLAC, Apple Lossless, MP3, … with the format description's magic cookie),
/// decoded and converted to the sound stream's 48 kHz stereo as it is enqueued (mono played on
/// both sides); a codec without a decoder fails the renderer (`status` `.failed`,
/// `AVError.Code.decoderNotFound`). The sound goes to the sound server's default
/// sink (or `audioOutputDeviceUniqueID`), through a stream of its own that starts with the first
/// buffer enqueued. At rates other than 1 the sound is stretched by FFmpeg's filters, its pitch
/// kept (`atempo`) or following the rate with `.varispeed`; negative rates are not heard.
public final class AVSampleBufferAudioRenderer: NSObject, AVQueuedSampleBufferRendering, @unchecked Sendable {
    /// How much the renderer keeps waiting before it is no longer ready for more.
    static let keptAhead = 1.0
    /// How much makes a start reliable.
    static let sufficientForStart = 0.2

    private struct State {
        var status = AVQueuedSampleBufferRenderingStatus.unknown
        var error: (any Error)?
        var volume: Float = 1
        var isMuted = false
        var deviceID: String?
        var pitchAlgorithm = AVAudioTimePitchAlgorithm.timeDomain
        var timebase: CMTimebase
        var drivesTimebase = false
        var request: (queue: DispatchQueue, block: @Sendable () -> Void)?
        var isCallingBlock = false
        var output: AudioRendererOutput?
    }

    private let lock = NSRecursiveLock()
    private var state: State
    private let converter = AudioConverter(output: PCMFormat(sampleRate: Double(AudioRendererOutput.sampleRate), channelCount: 2,
                                                             bitsPerChannel: 32, isFloat: true))
    /// The decoder of the compressed buffers enqueued, for the format it was opened with.
    private var decoder: (decoder: Decoder, format: CMFormatDescription)?
    /// Where the linear PCM enqueued so far ends (seconds of presentation time), and the time of
    /// the converter's next sample: the resampler keeps its filter delay from one buffer to the
    /// next, so a buffer that follows on is heard where the last one's sound ends.
    private var pcmTimeline: (inputEnd: Double, next: CMTime)?
    /// The sound server, read when the renderer is made (tests bind a private one).
    private let soundServer = PulseAudioDiscovery.server

    /// A renderer with a timebase of its own, stopped, until it is added to a synchronizer.
    public override init() {
        // A timebase on the host time clock can always be made.
        state = State(timebase: try! CMTimebase(sourceClock: CMClockGetHostTimeClock()))
        super.init()
    }

    deinit {
        state.output?.stop()
    }

    /// Whether the renderer renders, or failed.
    public var status: AVQueuedSampleBufferRenderingStatus { lock.withLock { state.status } }

    /// Why the renderer failed, or nil.
    public var error: (any Error)? { lock.withLock { state.error } }

    /// The volume, 0 to 1 (1 by default).
    public var volume: Float {
        get { lock.withLock { state.volume } }
        set { lock.withLock { state.volume = min(1, max(0, newValue)); state.output?.setLevel(volume: state.volume, muted: state.isMuted) } }
    }

    /// Whether the sound is silenced.
    public var isMuted: Bool {
        get { lock.withLock { state.isMuted } }
        set { lock.withLock { state.isMuted = newValue; state.output?.setLevel(volume: state.volume, muted: newValue) } }
    }

    /// The sink played to (its name, as `AVAudioSession` and `AVPlayer` name outputs), or nil
    /// for the server's default. Takes effect with the next stream (after a flush).
    public var audioOutputDeviceUniqueID: String? {
        get { lock.withLock { state.deviceID } }
        set { lock.withLock { state.deviceID = newValue } }
    }

    /// How the sound is stretched at other rates than 1: `.timeDomain` (the default) and the
    /// others keep the pitch, `.varispeed` lets it follow the rate. Takes effect at once.
    public var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm {
        get { lock.withLock { state.pitchAlgorithm } }
        set {
            lock.withLock {
                state.pitchAlgorithm = newValue
                state.output?.setKeepsPitch(newValue != .varispeed)
            }
        }
    }

    /// The timebase the renderer plays on: its own, stopped, until it is added to a
    /// synchronizer, then the synchronizer's.
    public var timebase: CMTimebase { lock.withLock { state.timebase } }

    /// Follows a synchronizer's timebase, its sound device's clock driving it when `drives` (the
    /// synchronizer's first audio renderer).
    func follow(_ timebase: CMTimebase, drives: Bool) {
        lock.withLock {
            state.timebase = timebase
            state.drivesTimebase = drives
            state.output?.follow(timebase, drives: drives)
        }
    }

    /// Adds a buffer of audio to be heard at its presentation time: linear PCM, or packets the
    /// engine decodes. A buffer it cannot take fails the renderer until a flush.
    public func enqueue(_ sampleBuffer: CMSampleBuffer) {
        lock.lock()
        defer { lock.unlock() }
        guard state.status != .failed else { return }
        do {
            let pieces = try samples(of: sampleBuffer)
            if state.output == nil {
                let timebase = state.timebase
                state.output = try AudioRendererOutput(server: soundServer, sink: state.deviceID, timebase: timebase) { [weak self] in
                    self?.served()
                }
                state.output?.setLevel(volume: state.volume, muted: state.isMuted)
                state.output?.setKeepsPitch(state.pitchAlgorithm != .varispeed)
                state.output?.follow(timebase, drives: state.drivesTimebase)
            }
            for piece in pieces { state.output?.append(piece.samples, at: piece.time) }
            state.status = .rendering
        } catch let error as AVError {
            fail(error)
        } catch {
            fail(AVError(.unknown, reason: "the sound server cannot play the renderer's sound: \(error)", underlying: error))
        }
    }

    /// Stops the renderer with `error` (caller holds the lock).
    private func fail(_ error: AVError) {
        state.status = .failed
        state.error = error
    }

    /// The buffer's samples as 48 kHz interleaved stereo floats, each piece from its
    /// presentation time: one piece for linear PCM, those the decoder gives for compressed audio.
    private func samples(of sampleBuffer: CMSampleBuffer) throws(AVError) -> [(time: CMTime, samples: [Float])] {
        guard let formatDescription = sampleBuffer.formatDescription, let description = formatDescription.audioStreamBasicDescription else {
            throw AVError(.decodeFailed, reason: "the sample buffer enqueued is not audio")
        }
        guard let format = PCMFormat(streamDescription: description) else { return try decode(sampleBuffer, formatDescription) }
        let start = sampleBuffer.presentationTimeStamp
        if let timeline = pcmTimeline, !start.isNumeric || abs(start.seconds - timeline.inputEnd) > 0.001 {
            // Not where the last buffer ended: a new timeline from this buffer's time.
            converter.reset()
            pcmTimeline = nil
        }
        let (samples, frames) = try convert(sampleBuffer, format: format)
        let time = pcmTimeline?.next ?? start
        pcmTimeline = (start.seconds + Double(frames) / format.sampleRate,
                       time + CMTime(value: CMTimeValue(samples.count / 2), timescale: CMTimeScale(AudioRendererOutput.sampleRate)))
        return [(time, samples)]
    }

    /// Decodes a buffer of compressed packets (caller holds the lock).
    private func decode(_ sampleBuffer: CMSampleBuffer, _ formatDescription: CMFormatDescription) throws(AVError)
        -> [(time: CMTime, samples: [Float])] {
        do throws(EngineError) {
            if decoder.map({ !CMFormatDescriptionEqual($0.format, otherFormatDescription: formatDescription) }) ?? true {
                decoder = (try Decoder(audioFormat: formatDescription), formatDescription)
                converter.reset()
            }
            guard let decoding = decoder?.decoder else { return [] }
            var pieces: [(time: CMTime, samples: [Float])] = []
            for packet in try Packet.packets(of: sampleBuffer, timeBase: decoding.timeBase) {
                _ = try decoding.send(packet)
                while let frame = try decoding.receiveFrame() {
                    // One copy, out of the converter's block, into the samples kept.
                    guard let converted = try converter.convert(frame, timeBase: decoding.timeBase),
                          let samples = try? converted.dataBuffer?.withContiguousStorage({ Array($0.bindMemory(to: Float.self)) })
                    else { continue }
                    pieces.append((converted.presentationTimeStamp, samples))
                }
            }
            return pieces
        } catch {
            throw AVError(error, fallback: .decodeFailed)
        }
    }

    /// A linear PCM buffer's samples as 48 kHz interleaved stereo floats, and how many frames it
    /// held.
    private func convert(_ sampleBuffer: CMSampleBuffer, format: PCMFormat) throws(AVError) -> (samples: [Float], frames: Int) {
        // The frames the bytes hold (a buffer of PCM packets may count each packet as a sample).
        let frameBytes = format.isNonInterleaved ? format.bytesPerSample * format.channelCount : format.bytesPerFrame
        let frames = (sampleBuffer.dataBuffer?.dataLength ?? 0) / max(1, frameBytes)
        guard frames > 0, let data = sampleBuffer.dataBuffer, sampleBuffer.presentationTimeStamp.isNumeric else {
            throw AVError(.decodeFailed, reason: "the sample buffer enqueued has no samples or no presentation time")
        }
        let capacity = Int((Double(frames) * Double(AudioRendererOutput.sampleRate) / format.sampleRate).rounded(.up)) + 256
        var samples = [Float](repeating: 0, count: capacity * 2)
        do {
            let produced = try data.withContiguousStorage { bytes throws -> Int in
                let planeBytes = frames * format.bytesPerSample
                let planes = format.isNonInterleaved ? format.channelCount : 1
                guard bytes.count >= (format.isNonInterleaved ? planeBytes * planes : frames * format.bytesPerFrame) else {
                    throw AVError(.decodeFailed, reason: "the sample buffer enqueued holds fewer bytes than its samples take")
                }
                let inputs = (0..<planes).map { Optional(bytes.baseAddress!.advanced(by: $0 * planeBytes).assumingMemoryBound(to: UInt8.self)) }
                return try samples.withUnsafeMutableBytes { output throws -> Int in
                    let outputs = [Optional(output.baseAddress!.assumingMemoryBound(to: UInt8.self))]
                    return try inputs.withUnsafeBufferPointer { input in
                        try outputs.withUnsafeBufferPointer { out in
                            try converter.convert(input.baseAddress, count: frames, format: format, into: out.baseAddress!, capacity: capacity)
                        }
                    }
                }
            }
            samples.removeLast((capacity - produced) * 2)
            return (samples, frames)
        } catch let error as AVError {
            throw error
        } catch let error as EngineError {
            throw AVError(error, fallback: .decodeFailed)
        } catch {
            throw AVError(.decodeFailed, reason: "the sample buffer's data cannot be read: \(error)", underlying: error)
        }
    }

    /// Drops everything enqueued and not yet heard; a failed renderer starts over.
    public func flush() {
        lock.withLock {
            state.output?.flush()
            converter.reset()
            pcmTimeline = nil
            decoder?.decoder.flush()
            if state.status == .failed {
                state.status = .unknown
                state.error = nil
            }
        }
    }

    /// Drops what is enqueued from `time` on, then calls `completionHandler` with true (false
    /// when the renderer has failed).
    public func flush(fromSourceTime time: CMTime, completionHandler: @escaping @Sendable (Bool) -> Void) {
        let flushed = lock.withLock { () -> Bool in
            guard state.status != .failed else { return false }
            state.output?.flush(from: time)
            converter.reset()
            pcmTimeline = nil
            decoder?.decoder.flush()
            return true
        }
        DispatchQueue.global().async { completionHandler(flushed) }
    }

    /// Whether less than a second of sound waits to be heard (and the renderer has not failed).
    public var isReadyForMoreMediaData: Bool {
        lock.withLock { state.status != .failed && (state.output?.pendingSeconds ?? 0) < Self.keptAhead }
    }

    /// Whether at least 0.2 s of sound waits to be heard.
    public var hasSufficientMediaDataForReliablePlaybackStart: Bool {
        lock.withLock { (state.output?.pendingSeconds ?? 0) >= Self.sufficientForStart }
    }

    /// Calls `block` on `queue` whenever the renderer is ready for more, until
    /// `stopRequestingMediaData()`; the block enqueues until `isReadyForMoreMediaData` is false.
    public func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        lock.withLock { state.request = (queue, block) }
        served()
    }

    /// Stops calling the block given to `requestMediaDataWhenReady(on:using:)`.
    public func stopRequestingMediaData() {
        lock.withLock { state.request = nil }
    }

    /// Calls the request block when the renderer is ready and it is not already being called;
    /// fails the renderer when its sound stream has (the server went away).
    private func served() {
        lock.lock()
        if let failure = state.output?.failure, state.status != .failed {
            fail(AVError(.noLongerPlayable, reason: failure))
        }
        guard let request = state.request, !state.isCallingBlock, isReadyForMoreMediaData else { return lock.unlock() }
        state.isCallingBlock = true
        lock.unlock()
        request.queue.async { [weak self] in
            request.block()
            self?.lock.withLock { self?.state.isCallingBlock = false }
        }
    }
}
