import CaptureDevices
import Foundation
import HostSystem
import OpenCoreMedia

/// Records audio from the session's input into a file.
///
/// The input is `AVAudioSession`'s preferred input (its chosen data source), else the server's
/// default source, else the first input (an ALSA device, the Test Tone Microphone), recorded
/// through the capture device backends in buffers of the session's `ioBufferDuration`. The
/// file is written through `AVAudioFile` (WAV, CAF, AIFF, M4A with AAC or Apple Lossless, FLAC,
/// Opus, from the settings), replacing a file already at the URL as Apple's recorder does.
/// Times are the host clock's (`deviceCurrentTime`, the clock capture stamps samples on): a
/// recording starts at the input's first sample at or after the time asked for and lasts
/// exactly the duration asked for, to the sample.
///
/// Linux: a sound-server source records at the settings' rate and channel count (the server
/// converts); another input must offer the settings' rate (the Test Tone Microphone: 44.1 and
/// 48 kHz), or `prepareToRecord()` fails, and its channels are mixed or copied to the
/// settings' count. The delegate is called on the
/// recorder's queue. A recording whose input is lost (unplugged, the server gone) is finished
/// and reported with `successfully` false.
open class AVAudioRecorder: NSObject, @unchecked Sendable {
    /// Where the recording goes.
    public let url: URL
    /// The settings the recorder was made with.
    public let settings: [String: Any]
    /// The format of the recorded audio.
    public let format: AVAudioFormat
    /// Told about the recording's end and errors.
    open weak var delegate: (any AVAudioRecorderDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }
    /// Whether `updateMeters()` measures (false until set).
    open var isMeteringEnabled: Bool {
        get { state.withLock { $0.isMeteringEnabled } }
        set { state.withLock { $0.isMeteringEnabled = newValue } }
    }
    /// The channels recorded (all of the input's; kept when set).
    open var channelAssignments: [AVAudioSessionChannelDescription]?

    /// Where a recording is.
    enum Phase {
        case idle, prepared, recording, paused, finished
    }

    /// What the device thread, the writing queue and the caller share.
    struct State {
        weak var delegate: (any AVAudioRecorderDelegate)?
        var phase = Phase.idle
        var isMeteringEnabled = false
        var file: AVAudioFile?
        var device: (any CaptureDeviceBackend)?
        /// The host time (seconds, exact) of the first sample to keep, while recording.
        var start: CMTime?
        /// The number of frames after which the recording ends, for a duration.
        var frameLimit: Int64?
        var framesWritten: Int64 = 0
        /// Samples waiting for the writing queue.
        var pending = BoundedQueue<CMSampleBuffer>(capacity: 1000, policy: .dropOldest)
        /// Meters since the last `updateMeters()`: per channel sum of squares, peak, count.
        var sums: [Double] = []
        var peaks: [Float] = []
        var measured = 0
        var averagePower: [Float] = []
        var peakPower: [Float] = []
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "OpenAVFAudio.AVAudioRecorder")
    private let channelCount: Int
    private let sampleRate: Int

    /// A recorder of `settings` to `url` (WAV, CAF, AIFF, M4A, FLAC, Opus by its extension).
    /// Throws an `NSOSStatusErrorDomain` error for settings the file type cannot hold
    /// (`kAudioFileUnsupportedDataFormatError`) or a file type it cannot write
    /// (`kAudioFileUnsupportedFileTypeError`), and `kAudioFileUnspecifiedError` when the URL's
    /// folder does not exist.
    public init(url: URL, settings: [String: Any]) throws {
        let plan: AudioFileEncoding.Plan
        do {
            plan = try AudioFileEncoding.plan(url: url, settings: settings)
        } catch {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(error.code),
                          userInfo: [NSLocalizedFailureReasonErrorKey: error.reason, NSURLErrorKey: url])
        }
        var isFolder: ObjCBool = false
        guard url.isFileURL, FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path, isDirectory: &isFolder),
              isFolder.boolValue
        else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioFileUnspecifiedError),
                          userInfo: [NSLocalizedFailureReasonErrorKey: "no folder for \(url.path)", NSURLErrorKey: url])
        }
        self.url = url
        self.settings = settings
        format = plan.fileFormat
        channelCount = plan.audio.channelCount
        sampleRate = plan.audio.sampleRate
        super.init()
    }

    /// A recorder of a format's settings to `url`.
    public convenience init(url: URL, format: AVAudioFormat) throws {
        try self.init(url: url, settings: format.settings)
    }

    deinit {
        let device = state.withLock { $0.device }
        device?.stop()
        state.withLock { $0.file?.close() }
    }

    // MARK: Recording

    /// Creates the file (replacing one at the URL) and starts the input, so that recording
    /// starts at once; false when the file cannot be written or there is no input that can
    /// record the settings' rate (nothing is left at the URL then).
    @discardableResult
    open func prepareToRecord() -> Bool {
        if state.withLock({ $0.phase == .prepared || $0.phase == .recording || $0.phase == .paused }) { return true }
        guard let (device, _) = AVAudioSession.sharedInstance().recordingDevice() else { return false }
        let formats = device.audioFormats.filter { $0.sampleRate == sampleRate && $0.sampleFormat == .float32 }
        let converted = device.convertsAudioFormats
            ? CaptureAudioFormat(sampleRate: sampleRate, channelCount: channelCount, sampleFormat: .float32) : nil
        guard let chosen = formats.first(where: { $0.channelCount == channelCount }) ?? converted ?? formats.first else { return false }
        let file: AVAudioFile
        do {
            file = try AVAudioFile(forWriting: url, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: true)
        } catch {
            return false
        }
        state.withLock { state in
            state.file = file
            state.device = device
            state.phase = .prepared
            state.framesWritten = 0
            state.start = nil
            state.frameLimit = nil
            state.sums = Array(repeating: 0, count: channelCount)
            state.peaks = Array(repeating: 0, count: channelCount)
            state.averagePower = Array(repeating: -160, count: channelCount)
            state.peakPower = Array(repeating: -160, count: channelCount)
        }
        let duration = AVAudioSession.sharedInstance().ioBufferDuration
        do {
            try device.start(format: .audio(chosen), frameDuration: CMTime(seconds: duration, preferredTimescale: Int32(sampleRate))) {
                [weak self] event in self?.receive(event)
            }
        } catch {
            state.withLock { state in
                state.file = nil
                state.device = nil
                state.phase = .idle
            }
            file.close()
            try? FileManager.default.removeItem(at: url)
            return false
        }
        return true
    }

    /// Starts (or resumes) recording now.
    @discardableResult
    open func record() -> Bool {
        begin(at: deviceCurrentTime, duration: nil)
    }

    /// Starts recording at a time of `deviceCurrentTime`'s clock.
    @discardableResult
    open func record(atTime time: TimeInterval) -> Bool {
        begin(at: time, duration: nil)
    }

    /// Records for a duration from now, then stops (telling the delegate).
    @discardableResult
    open func record(forDuration duration: TimeInterval) -> Bool {
        begin(at: deviceCurrentTime, duration: duration)
    }

    /// Records for a duration from a time of `deviceCurrentTime`'s clock, then stops.
    @discardableResult
    open func record(atTime time: TimeInterval, forDuration duration: TimeInterval) -> Bool {
        begin(at: time, duration: duration)
    }

    private func begin(at time: TimeInterval, duration: TimeInterval?) -> Bool {
        if let duration, duration <= 0 { return false }
        guard prepareToRecord() else { return false }
        let rate = Int32(sampleRate)
        state.withLock { state in
            state.start = CMTime(value: CMTimeValue((time * Double(rate)).rounded(.up)), timescale: rate)
            if let duration { state.frameLimit = state.framesWritten + Int64((duration * Double(rate)).rounded()) }
            state.phase = .recording
        }
        return true
    }

    /// Pauses: the input's samples are not recorded until `record()` resumes.
    open func pause() {
        state.withLock { state in
            if state.phase == .recording { state.phase = .paused }
        }
    }

    /// Stops recording and finishes the file; the delegate is told.
    open func stop() {
        let device = state.withLock { state -> (any CaptureDeviceBackend)? in
            guard state.phase != .idle, state.phase != .finished else { return nil }
            return state.device
        }
        guard let device else { return }
        device.stop()
        queue.sync {
            writePending()
            finish(successfully: true)
        }
    }

    /// Deletes the recorded file; false while recording or when nothing was deleted.
    @discardableResult
    open func deleteRecording() -> Bool {
        guard !isRecording else { return false }
        return (try? FileManager.default.removeItem(at: url)) != nil
    }

    /// Whether the recorder is recording (not paused, not stopped).
    open var isRecording: Bool { state.withLock { $0.phase == .recording } }

    /// Seconds recorded so far (0 when stopped).
    open var currentTime: TimeInterval {
        state.withLock { state in
            state.phase == .recording || state.phase == .paused ? Double(state.framesWritten) / Double(sampleRate) : 0
        }
    }

    /// The host clock's time in seconds: what `record(atTime:)` takes.
    open var deviceCurrentTime: TimeInterval { Double(HostClock.now) / 1e9 }

    // MARK: Metering

    /// Measures the levels of what was recorded since the last call.
    open func updateMeters() {
        state.withLock { state in
            guard state.isMeteringEnabled else { return }
            for channel in 0..<state.sums.count {
                state.averagePower[channel] = state.measured > 0
                    ? Float(max(-160, 10 * log10(max(1e-16, state.sums[channel] / Double(state.measured))))) : -160
                state.peakPower[channel] = max(-160, 20 * log10(max(1e-8, state.peaks[channel])))
                state.sums[channel] = 0
                state.peaks[channel] = 0
            }
            state.measured = 0
        }
    }

    /// A channel's average (RMS) level at the last `updateMeters()`, in dBFS (-160 for silence).
    open func averagePower(forChannel channelNumber: Int) -> Float {
        state.withLock { $0.averagePower.indices.contains(channelNumber) ? $0.averagePower[channelNumber] : -160 }
    }

    /// A channel's peak level at the last `updateMeters()`, in dBFS.
    open func peakPower(forChannel channelNumber: Int) -> Float {
        state.withLock { $0.peakPower.indices.contains(channelNumber) ? $0.peakPower[channelNumber] : -160 }
    }

    // MARK: The input's samples

    /// On the device thread: queues a buffer for the writing queue, or finishes after a loss.
    private func receive(_ event: CaptureEvent) {
        switch event {
        case .success(let sample):
            guard let buffer = sample.sampleBuffer else { return }
            state.withLock { _ = $0.pending.push(buffer) }
            queue.async { [weak self] in self?.writePending() }
        case .failure:
            queue.async { [weak self] in
                self?.writePending()
                self?.finish(successfully: false)
            }
        }
    }

    /// On the queue: writes what waits, within the recording's start and length.
    private func writePending() {
        while let (buffer, file, start, remaining) = nextToWrite() {
            guard let block = buffer.dataBuffer,
                  let asbd = buffer.formatDescription?.audioStreamBasicDescription else { continue }
            let inChannels = Int(asbd.mChannelsPerFrame)
            let frames = buffer.numSamples
            let rate = Int64(sampleRate)
            let pts = buffer.presentationTimeStamp.convertScale(Int32(rate), method: .roundHalfAwayFromZero).value
            let skip = Int(max(0, min(Int64(frames), start.value - pts)))
            let count = Int(min(Int64(frames - skip), remaining ?? Int64.max))
            guard count > 0 else { continue }
            var bytes = [Float](repeating: 0, count: frames * inChannels)
            bytes.withUnsafeMutableBytes { raw in
                _ = CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: raw.count, destination: raw.baseAddress!)
            }
            guard let pcm = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(count)) else { continue }
            pcm.frameLength = AVAudioFrameCount(count)
            let out = pcm.rawChannel(0).assumingMemoryBound(to: Float.self)
            var sums = [Double](repeating: 0, count: channelCount)
            var peaks = [Float](repeating: 0, count: channelCount)
            for frame in 0..<count {
                let from = (skip + frame) * inChannels
                for channel in 0..<channelCount {
                    let value: Float
                    if inChannels == channelCount {
                        value = bytes[from + channel]
                    } else if channelCount == 1 {
                        value = bytes[from..<(from + inChannels)].reduce(0, +) / Float(inChannels)
                    } else {
                        value = bytes[from + min(channel, inChannels - 1)]
                    }
                    out[frame * channelCount + channel] = value
                    sums[channel] += Double(value * value)
                    peaks[channel] = max(peaks[channel], abs(value))
                }
            }
            do {
                try file.write(from: pcm)
            } catch {
                let delegate = state.withLock { $0.delegate }
                delegate?.audioRecorderEncodeErrorDidOccur(self, error: error)
                finish(successfully: false)
                return
            }
            let ended = state.withLock { state -> Bool in
                state.framesWritten += Int64(count)
                if state.isMeteringEnabled {
                    for channel in 0..<channelCount {
                        state.sums[channel] += sums[channel]
                        state.peaks[channel] = max(state.peaks[channel], peaks[channel])
                    }
                    state.measured += count
                }
                return state.frameLimit.map { state.framesWritten >= $0 } ?? false
            }
            if ended {
                state.withLock { $0.device }?.stop()
                finish(successfully: true)
                return
            }
        }
    }

    /// The next buffer to write while recording (buffers waiting while prepared or paused are
    /// dropped), with the file, the first frame's host time and the frames still to record.
    private func nextToWrite() -> (CMSampleBuffer, AVAudioFile, CMTime, Int64?)? {
        state.withLock { state in
            while let buffer = state.pending.pop() {
                guard state.phase == .recording, let file = state.file, let start = state.start else { continue }
                return (buffer, file, start, state.frameLimit.map { $0 - state.framesWritten })
            }
            return nil
        }
    }

    /// On the queue: finishes the file and tells the delegate, once per recording.
    private func finish(successfully: Bool) {
        let (file, delegate) = state.withLock { state -> (AVAudioFile?, (any AVAudioRecorderDelegate)?) in
            guard state.phase != .idle, state.phase != .finished else { return (nil, nil) }
            state.phase = .finished
            defer { state.file = nil; state.device = nil; _ = state.pending.removeAll() }
            return (state.file, state.delegate)
        }
        guard let file else { return }
        file.close()
        delegate?.audioRecorderDidFinishRecording(self, successfully: successfully)
    }
}
