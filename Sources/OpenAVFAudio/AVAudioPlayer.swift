import CaptureDevices
import Foundation
import HostSystem

/// Plays a sound file or in-memory sound data: any audio FFmpeg reads, through `AVAudioFile`'s
/// decoding, to the sound server (PulseAudio, or PipeWire through `pipewire-pulse`). Several
/// players at once play as streams of their own, mixed by the server.
///
/// What differs from Apple: the delegate is called on the player's own thread; `currentDevice`
/// is the name of a PulseAudio sink; `deviceCurrentTime` is the host clock (`CLOCK_MONOTONIC`)
/// in seconds, which never reverts to 0; files of more than two channels play their first two;
/// `init(data:)` decodes from a copy of the data in an unnamed file (in `/dev/shm`, memory,
/// where it exists), open only while the player is: FFmpeg's demuxer reads files; the file type
/// hint is not needed (FFmpeg recognises the data) and is ignored. Errors are `NSError`s in
/// `NSOSStatusErrorDomain` with Core Audio's codes, as Apple's player throws them: a missing file
/// `kAudioFileUnspecifiedError`, data no demuxer recognises `kAudioFileUnsupportedFileTypeError`,
/// no decodable audio `kAudioFileUnsupportedDataFormatError`, data that fails to decode
/// `kAudioFileInvalidFileError`.
open class AVAudioPlayer: NSObject, @unchecked Sendable {
    /// The URL the player was made with; nil for one made from data.
    public let url: URL?
    /// The data the player was made with; nil for one made from a URL.
    public let data: Data?
    /// The format of the sound as decoded: the file's rate and channels, 32-bit float.
    public let format: AVAudioFormat
    /// The delegate told of the end and of decoding failures.
    open weak var delegate: (any AVAudioPlayerDelegate)?

    /// The file read; only the playing thread reads it while playing.
    private let file: AVAudioFile
    /// The descriptor of the unnamed file holding `data`, closed when the player goes away.
    private let dataDescriptor: Int32?
    /// The sound server, as capture discovery asks (tests bind it to a private daemon).
    private let server: String? = PulseAudioDiscovery.server
    /// What the playing thread reads as it writes: volume, fade, pan, metering.
    private let shaping = Locked(AudioPlayback.Settings())

    /// The player's state, behind one lock.
    private struct State {
        /// The file frame playing starts from when not playing.
        var position: Int64 = 0
        var playback: AudioPlayback?
        var rate: Float = 1
        var enableRate = false
        var numberOfLoops = 0
        var device: String?
        var meters: [(average: Float, peak: Float)] = []
        var length: Int64?
    }

    private let state = Locked(State())

    /// A player of the file at `url`.
    public convenience init(contentsOf url: URL) throws {
        try self.init(contentsOf: url, fileTypeHint: nil)
    }

    /// A player of the file at `url`; the type hint (a UTI) is not needed and is ignored.
    public init(contentsOf url: URL, fileTypeHint utiString: String?) throws {
        file = try Self.openForReading(url)
        self.url = url
        data = nil
        dataDescriptor = nil
        format = file.processingFormat
        super.init()
    }

    /// A player of sound data in memory (the bytes of a sound file).
    public convenience init(data: Data) throws {
        try self.init(data: data, fileTypeHint: nil)
    }

    /// A player of sound data in memory; the type hint (a UTI) is not needed and is ignored.
    public init(data: Data, fileTypeHint utiString: String?) throws {
        let descriptor = try Self.unnamedFile(holding: data)
        do {
            // The file has no name; the process's descriptor opens it again.
            file = try Self.openForReading(URL(fileURLWithPath: "/proc/self/fd/\(descriptor)"))
        } catch {
            close(descriptor)
            throw error
        }
        url = nil
        self.data = data
        dataDescriptor = descriptor
        format = file.processingFormat
        super.init()
    }

    deinit {
        state.playback?.stop()
        if let dataDescriptor { close(dataDescriptor) }
    }

    /// A descriptor of a file holding `data` that has no name (removed once opened, so nothing
    /// is left behind whatever happens to the process); `kAudioFileUnspecifiedError` when it
    /// cannot be written.
    private static func unnamedFile(holding data: Data) throws -> Int32 {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        let path = folder.appendingPathComponent("openav-player-\(UUID().uuidString)").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioFileUnspecifiedError)) }
        unlink(path)
        let written = data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if count <= 0 { return false }
                done += count
            }
            return true
        }
        guard written else {
            close(descriptor)
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioFileUnspecifiedError))
        }
        return descriptor
    }

    /// Opens the file for interleaved float samples; AVAudioFile's errors become Apple's player's.
    private static func openForReading(_ url: URL) throws -> AVAudioFile {
        do {
            return try AVAudioFile(forReading: url, commonFormat: .pcmFormatFloat32, interleaved: true)
        } catch {
            let nsError = error as NSError
            throw NSError(domain: NSOSStatusErrorDomain, code: nsError.code, userInfo: nsError.userInfo)
        }
    }

    /// The sound's format as the file stores it, as audio settings: `AVFormatIDKey`,
    /// `AVSampleRateKey`, `AVNumberOfChannelsKey` (and the `AVLinearPCM…` keys for linear PCM).
    open var settings: [String: Any] { file.fileFormat.settings }

    /// The number of channels of the sound.
    open var numberOfChannels: Int { Int(format.channelCount) }

    /// The sound's length in seconds (counted by one decoding pass, the first time).
    open var duration: TimeInterval { Double(length) / format.sampleRate }

    /// The sound's length in frames.
    private var length: Int64 {
        if let known = state.length { return known }
        let counted = file.length
        state.length = counted
        return counted
    }

    /// The PulseAudio sink the player plays to (as `pactl list short sinks` names it); nil for
    /// the server's default. A change takes effect the next time playing starts.
    open var currentDevice: String? {
        get { state.device }
        set { state.device = newValue }
    }

    /// Readies the player: the file is opened and decodable since the player was made, so this
    /// only says so.
    @discardableResult
    open func prepareToPlay() -> Bool { true }

    /// Plays from `currentTime`; false when no sound stream can be opened.
    @discardableResult
    open func play() -> Bool { start(delay: 0) }

    /// Plays from `currentTime` when `deviceCurrentTime` reaches `time`; false when `time` is
    /// not later than now, or no sound stream can be opened.
    @discardableResult
    open func play(atTime time: TimeInterval) -> Bool {
        let delay = time - deviceCurrentTime
        return delay > 0 && start(delay: delay)
    }

    /// Starts a playing stretch from the position, after `delay` seconds of silence.
    private func start(delay: Double) -> Bool {
        state.withLock { s in
            if s.playback != nil { return true }
            if s.position >= (s.length ?? .max) { s.position = 0 }
            let rate = s.enableRate ? Double(s.rate) : 1
            do {
                s.playback = try AudioPlayback(file: file, start: s.position, rate: rate, delay: delay, server: server, sink: s.device,
                                               loops: s.numberOfLoops, settings: shaping) { [weak self] in self?.ended($0, $1) }
                return true
            } catch {
                return false
            }
        }
    }

    /// A playing stretch ended by itself (the end, or a failure): the player stops and tells its
    /// delegate. A stretch stopped by the player has been forgotten already.
    private func ended(_ playback: AudioPlayback, _ ending: AudioPlayback.Ending) {
        let finished: Bool? = state.withLock { s in
            guard s.playback === playback else { return nil }
            let heard = playback.heardFrame
            s.playback = nil
            switch ending {
            case .stopped: return nil
            case .finished:
                s.position = 0
                return true
            case .failed:
                s.position = heard
                return false
            }
        }
        guard let finished else { return }
        if case .failed(let error) = ending {
            delegate?.audioPlayerDecodeErrorDidOccur(self, error: error)
        }
        delegate?.audioPlayerDidFinishPlaying(self, successfully: finished)
    }

    /// Stops the playing stretch (silencing it at once) and keeps where it was heard.
    private func halt() {
        let playback: AudioPlayback? = state.withLock { s in
            defer { s.playback = nil }
            return s.playback
        }
        guard let playback else { return }
        playback.stop()
        state.position = playback.heardFrame
    }

    /// Pauses; `play()` goes on from where it was heard.
    open func pause() { halt() }

    /// Stops playing; `currentTime` stays where it was heard, as Apple's does.
    open func stop() { halt() }

    /// Whether the player is playing.
    open var isPlaying: Bool { state.playback != nil }

    /// The time heard now in the sound, in seconds; setting it moves playing there exactly (to
    /// the frame), at once when playing.
    open var currentTime: TimeInterval {
        get {
            let frame = state.withLock { s in min(s.playback?.heardFrame ?? s.position, s.length ?? .max) }
            return Double(frame) / format.sampleRate
        }
        set { restart { $0.position = Int64((max(0, newValue) * format.sampleRate).rounded()) } }
    }

    /// Applies `change` to the state, stopping the playing stretch first and starting another
    /// after when the player was playing.
    private func restart(_ change: (inout State) -> Void) {
        let wasPlaying = isPlaying
        if wasPlaying { halt() }
        state.withLock(change)
        if wasPlaying { play() }
    }

    /// The host clock in seconds: the time `play(atTime:)` takes.
    open var deviceCurrentTime: TimeInterval { Double(HostClock.now) / 1e9 }

    /// The playback volume, 0 (silent) to 1 (as the file is).
    open var volume: Float {
        get { shaping.volume }
        set {
            shaping.withLock { s in
                s.volume = max(0, min(1, newValue))
                s.fade = nil
            }
        }
    }

    /// Moves the volume to `volume` over `duration` seconds of playing (at once when not
    /// playing). The fade starts with the sound written next, which is heard up to 100 ms (the
    /// stream's buffer) after the call; so does a change of `volume` or `pan`.
    open func setVolume(_ volume: Float, fadeDuration duration: TimeInterval) {
        let frames = Int64((max(0, duration) * format.sampleRate).rounded())
        let playing = isPlaying
        shaping.withLock { s in
            let target = max(0, min(1, volume))
            s.fade = playing && frames > 0 ? (from: s.volume, frames: frames, start: nil) : nil
            s.volume = target
        }
    }

    /// The stereo position: -1 left only, 0 centred, 1 right only.
    open var pan: Float {
        get { shaping.pan }
        set { shaping.pan = max(-1, min(1, newValue)) }
    }

    /// Whether `rate` applies; set it before playing, as on Apple platforms.
    open var enableRate: Bool {
        get { state.enableRate }
        set { restart { $0.enableRate = newValue } }
    }

    /// The playback rate, 0.5 to 2 (1: as recorded), the pitch kept; applies when `enableRate`.
    open var rate: Float {
        get { state.rate }
        set {
            let clamped = max(0.5, min(2, newValue))
            guard clamped != state.rate else { return }
            if state.enableRate { restart { $0.rate = clamped } } else { state.rate = clamped }
        }
    }

    /// How many more times the sound plays after the first: 0 once, -1 until stopped.
    open var numberOfLoops: Int {
        get { state.numberOfLoops }
        set {
            let playback: AudioPlayback? = state.withLock { s in
                s.numberOfLoops = newValue
                return s.playback
            }
            playback?.setLoops(newValue)
        }
    }

    /// Whether the player measures its sound's power for `updateMeters()`.
    open var isMeteringEnabled: Bool {
        get { shaping.isMeteringEnabled }
        set { shaping.isMeteringEnabled = newValue }
    }

    /// Measures the sound heard over the last 100 ms, for `averagePower(forChannel:)` and
    /// `peakPower(forChannel:)`.
    open func updateMeters() {
        let meters = isMeteringEnabled ? state.playback?.meters() : nil
        state.meters = meters ?? []
    }

    /// The RMS power of a channel at the last `updateMeters()`, in dBFS: 0 for full scale,
    /// −160 for silence (or metering not enabled).
    open func averagePower(forChannel channelNumber: Int) -> Float {
        let meters = state.meters
        return meters.indices.contains(channelNumber) ? meters[channelNumber].average : -160
    }

    /// The peak power of a channel at the last `updateMeters()`, in dBFS: 0 for full scale,
    /// −160 for silence (or metering not enabled).
    open func peakPower(forChannel channelNumber: Int) -> Float {
        let meters = state.meters
        return meters.indices.contains(channelNumber) ? meters[channelNumber].peak : -160
    }
}
