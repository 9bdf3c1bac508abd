import ArgumentParser
import Dispatch
import Foundation
import HostSystem
import OpenAVFoundation

/// `openav play FILE…`: plays files in turn with sound through `AVQueuePlayer`, the video in a
/// window (an `AVPlayerLayer` in an `AVDisplayWindow`), with a status line and keys on a
/// terminal and in the window. Sound files (local, no video, one audio track) play through
/// `AVAudioPlayer` instead (`AudioPlaySession`).
struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play media files in turn, with sound and video (AVQueuePlayer, AVPlayerLayer; sound files: AVAudioPlayer).",
        discussion: """
            Sound goes to the sound server (PulseAudio, or PipeWire through pipewire-pulse); without one, playback \
            runs silent on the host clock. Video is shown in a window (X11, Wayland or the KMS/DRM console); without \
            a display the files play without video. Keys on a terminal and in the window: space pause, ←/→ exact \
            seek ±5 s, [ and ] slower and faster (the pitch kept), m mute, a next audio language, s next subtitles \
            (then none), f full screen (in the window), q quit; \
            closing the window quits. The status line shows the time, the rate, the pictures dropped, and A-V: how \
            far the pictures on screen trail the sound, in milliseconds (up to one redraw is on time). Subtitles \
            chosen (--subtitles, the s key, or a file's default) are printed above it as playback reaches each cue. \
            Sound files (local files without video, with one audio track) play through AVAudioPlayer, at rates \
            from 0.5 to 2.
            """
    )

    @Argument(help: "The files to play, in order.")
    var files: [String]

    @Flag(help: "Play the sound only, without a window.")
    var noVideo = false

    @Option(help: "Play at this rate (0.25 to 4; the pitch is kept).")
    var rate: Float = 1

    @Option(help: "Start the first file at this time, in seconds.")
    var start: Double?

    @Option(help: "The PulseAudio sink to play to (as `pactl list short sinks` names it).")
    var audioDevice: String?

    @Flag(help: "Play the files again and again until q or Ctrl-C.")
    var loop = false

    @Option(help: "The audio language to play where a file has several (such as en, fr, pt-BR).")
    var audioLanguage: String?

    @Option(help: "Show the subtitles in this language (such as en, fr), printed above the status line.")
    var subtitles: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("give the files to play") }
        if let start, start < 0 { throw ValidationError("--start must not be negative") }
        if !(0.25...4).contains(rate) { throw ValidationError("--rate must be between 0.25 and 4") }
    }

    func run() async throws {
        let urls = files.map { URL(mediaArgument: $0) }
        if audioLanguage == nil, subtitles == nil, await AudioPlaySession.plays(urls) {
            try await playSound(urls)
            return
        }
        let player = AVQueuePlayer(items: urls.map(AVPlayerItem.init(url:)))
        if let audioDevice { player.audioOutputDeviceUniqueID = audioDevice }
        if let audioLanguage {
            player.setMediaSelectionCriteria(AVPlayerMediaSelectionCriteria(preferredLanguages: [audioLanguage], preferredMediaCharacteristics: nil),
                                             forMediaCharacteristic: .audible)
        }
        if let subtitles {
            player.setMediaSelectionCriteria(AVPlayerMediaSelectionCriteria(preferredLanguages: [subtitles], preferredMediaCharacteristics: nil),
                                             forMediaCharacteristic: .legible)
        }
        let session = PlaySession(player: player, urls: urls, loop: loop)
        if let start {
            _ = await player.seek(to: CMTime(seconds: start, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        }
        player.defaultRate = rate
        let window = noVideo ? nil : await Self.window(for: player, session: session)
        player.play()
        let interrupt = InterruptHandler { session.quit() }
        let keys = TerminalKeys { session.handle($0) }
        await session.waitUntilDone()
        window?.close()
        keys?.restore()
        interrupt.cancel()
        if session.failures > 0 && session.failures == session.itemsStarted {
            throw CommandFailure("nothing could be played")
        }
    }
}

extension Play {
    /// Plays sound files in turn through `AVAudioPlayer`, with the status line and the keys.
    func playSound(_ urls: [URL]) async throws {
        let session = AudioPlaySession(urls: urls, loop: loop, rate: rate, sink: audioDevice)
        let interrupt = InterruptHandler { session.quit() }
        let keys = TerminalKeys { session.handle($0) }
        await session.run(start: start)
        keys?.restore()
        interrupt.cancel()
        if session.failures > 0 && session.failures == session.itemsStarted {
            throw CommandFailure("nothing could be played")
        }
    }

    /// A window showing the player's video, the size of the first item's pictures (at most
    /// 1280x720 points), its keys going to the session; nil, said in one line, without a display
    /// or when the first item has no video.
    static func window(for player: AVQueuePlayer, session: PlaySession) async -> AVDisplayWindow? {
        guard let item = player.currentItem else { return nil }
        guard let tracks = try? await item.asset.load(.tracks), let video = tracks.first(where: { $0.mediaType == .video }) else {
            return nil
        }
        let (natural, transform) = (try? await video.load(.naturalSize, .preferredTransform)) ?? (CGSize(width: 1280, height: 720), .identity)
        let turned = natural.applying(transform)
        let size = AVMakeRect(aspectRatio: CGSize(width: abs(turned.width), height: abs(turned.height)),
                              insideRect: CGRect(x: 0, y: 0, width: min(1280, abs(turned.width)), height: min(720, abs(turned.height)))).size
        do {
            let window = try AVDisplayWindow(layer: AVPlayerLayer(player: player), title: "openav play",
                                             size: CGSize(width: size.width.rounded(), height: size.height.rounded()))
            window.closeHandler = { session.quit() }
            window.keyHandler = { [weak window] key in
                switch key {
                case .character("f"): window?.toggleFullScreen()
                case .character(let character): session.handle(.character(character))
                case .leftArrow: session.handle(.left)
                case .rightArrow: session.handle(.right)
                case .escape: if window?.isFullScreen == true { window?.isFullScreen = false }
                default: break
                }
            }
            session.window = window
            return window
        } catch let error as AVError {
            session.report("no video: \(error.failureText)")
            return nil
        } catch {
            return nil
        }
    }
}

/// What `openav play` keeps while it runs: the player, the status line, the failures told.
final class PlaySession: @unchecked Sendable {
    private let player: AVQueuePlayer
    private let urls: [URL]
    private let loop: Bool
    private var observers: [NSObjectProtocol] = []
    /// Prints the cues of the subtitles chosen.
    private lazy var subtitleLines = SubtitleLines { [weak self] line in self?.report(line) }

    /// What the player's notifications and observations change, behind one lock.
    private struct State {
        var quitting = false
        var names: [ObjectIdentifier: String] = [:]
        var statusObservations: [NSKeyValueObservation] = []
        var failed = 0
        var tried = 0
        /// The items whose outcome (ready or failed) was counted.
        var settled: Set<ObjectIdentifier> = []
    }

    private let state = Locked(State())
    /// The window showing the video, titled with the item playing.
    weak var window: AVDisplayWindow?
    /// How many items failed, and how many were tried.
    var failures: Int { state.failed }
    var itemsStarted: Int { state.tried }

    init(player: AVQueuePlayer, urls: [URL], loop: Bool) {
        self.player = player
        self.urls = urls
        self.loop = loop
        for (item, url) in zip(player.items(), urls) { watch(item, url) }
        observers.append(NotificationCenter.default.addObserver(forName: AVPlayerItem.didPlayToEndTimeNotification, object: nil, queue: nil) { [weak self] note in
            self?.ended(note.object as? AVPlayerItem)
        })
        observers.append(NotificationCenter.default.addObserver(forName: AVPlayerItem.failedToPlayToEndTimeNotification, object: nil, queue: nil) { [weak self] note in
            guard let self, let item = note.object as? AVPlayerItem else { return }
            let error = note.userInfo?[AVPlayerItemFailedToPlayToEndTimeErrorKey] as? AVError
            self.report("\(self.name(of: item)): stopped: \(error?.failureText ?? "unknown error")")
            self.ended(item)
        })
    }

    deinit { observers.forEach(NotificationCenter.default.removeObserver) }

    private func name(of item: AVPlayerItem) -> String { state.withLock { $0.names[ObjectIdentifier(item)] ?? "?" } }

    /// An item ended: with --loop, a fresh item of the same file joins the end of the queue.
    private func ended(_ item: AVPlayerItem?) {
        guard loop, let item, let url = (item.asset as? AVURLAsset)?.url else { return }
        let again = AVPlayerItem(url: url)
        watch(again, url)
        player.insert(again, after: nil)
    }

    /// Names an item, tells when it fails and prints its subtitles.
    private func watch(_ item: AVPlayerItem, _ url: URL) {
        subtitleLines.follow(item)
        // `.initial` too: a missing file can fail before the observation is made (a busy
        // machine), and each item is counted once whichever report comes first.
        let observation = item.observe(\.status, options: [.initial, .new]) { [weak self] item, change in
            guard let self, let status = change.newValue, status != .unknown else { return }
            let first = state.withLock { s in
                guard s.settled.insert(ObjectIdentifier(item)).inserted else { return false }
                s.tried += 1
                if status == .failed { s.failed += 1 }
                return true
            }
            if first, status == .failed {
                report("\(url.path): cannot play: \((item.error as? AVError)?.failureText ?? "unknown error")")
            }
        }
        state.withLock { s in
            s.names[ObjectIdentifier(item)] = url.lastPathComponent
            s.statusObservations.append(observation)
        }
    }

    /// A line above the status line.
    func report(_ text: String) {
        FileHandle.standardError.write(Data(((isatty(STDERR_FILENO) != 0 ? "\r\u{1B}[K" : "") + text + "\n").utf8))
    }

    func quit() { state.quitting = true }

    /// Acts on a key.
    func handle(_ key: TerminalKeys.Key) {
        switch key {
        case .character(" "): player.rate == 0 ? player.play() : player.pause()
        case .character("m"): player.isMuted.toggle()
        case .character("a"): nextAudioLanguage()
        case .character("s"): nextSubtitles()
        case .character("["), .character("]"):
            let faster = key == .character("]")
            let rate = max(0.25, min(4, player.defaultRate * (faster ? 1.25 : 0.8)))
            player.defaultRate = rate
            if player.rate != 0 { player.rate = rate }
        case .character("q"): quit()
        case .left, .right:
            let now = player.currentTime()
            guard now.isNumeric else { return }
            let step = CMTime(value: key == .left ? -5 : 5, timescale: 1)
            player.seek(to: max(.zero, now + step), toleranceBefore: .zero, toleranceAfter: .zero)
        default: break
        }
    }

    /// Presents the current item's next audio language (after the last, the first) and says which.
    private func nextAudioLanguage() {
        guard let item = player.currentItem, let group = item.asset.mediaSelectionGroup(forMediaCharacteristic: .audible),
              !group.options.isEmpty else {
            report("one audio language only")
            return
        }
        let current = item.currentMediaSelection.selectedMediaOption(in: group).flatMap { group.options.firstIndex(of: $0) } ?? -1
        let next = group.options[(current + 1) % group.options.count]
        item.select(next, in: group)
        report("audio: \(next.displayName)")
    }

    /// Presents the current item's next subtitles (after the last, none; after none, the first)
    /// and says which.
    private func nextSubtitles() {
        guard let item = player.currentItem, let group = item.asset.mediaSelectionGroup(forMediaCharacteristic: .legible),
              !group.options.isEmpty else {
            report("no subtitles")
            return
        }
        let current = item.currentMediaSelection.selectedMediaOption(in: group).flatMap { group.options.firstIndex(of: $0) } ?? -1
        let next = current + 1 < group.options.count ? group.options[current + 1] : nil
        item.select(next, in: group)
        report("subtitles: \(next?.displayName ?? "none")")
    }

    /// Waits until the queue is played (or q, or Ctrl-C), drawing the status line and telling
    /// failed items.
    func waitUntilDone() async {
        var emptySince: Date?
        while !state.quitting {
            if let item = player.currentItem {
                if let window, window.title != name(of: item) { window.title = name(of: item) }
                drawStatus(item)
            } else if player.items().isEmpty {
                // A file that cannot be opened leaves the queue as it fails, and its status
                // change may be told a moment later: done once every item's outcome is known
                // (or after 2 s).
                let since = emptySince ?? Date()
                emptySince = since
                if state.withLock({ $0.settled.count >= $0.names.count }) || Date().timeIntervalSince(since) > 2 { break }
            }
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
        if isatty(STDERR_FILENO) != 0 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    private func drawStatus(_ item: AVPlayerItem) {
        guard isatty(STDERR_FILENO) != 0, item.status == .readyToPlay else { return }
        let time = player.currentTime().seconds, duration = item.duration.seconds
        let state = player.rate == 0 ? "paused" : "playing"
        let rate = player.defaultRate == 1 ? "" : String(format: " at %.2fx", player.defaultRate)
        // Pictures the window passed over, and stalls of a network item, from the access log.
        let events = item.accessLog()?.events ?? []
        let hasVideo = window != nil && item.tracks.contains { $0.isEnabled && $0.assetTrack?.mediaType == .video }
        let dropped = hasVideo ? "  \(events.reduce(0) { $0 + $1.numberOfDroppedVideoFrames }) dropped" : ""
        // How far the pictures trail the sound (the player's clock) on screen.
        let lateness = hasVideo ? (window?.layer as? AVPlayerLayer)?.pictureLateness : nil
        let offset = lateness.map { String(format: "  A-V %+ld ms", Int(($0 * 1000).rounded())) } ?? ""
        let stalls = events.reduce(0) { $0 + $1.numberOfStalls }
        let text = String(format: "%@  %@ / %@  %@%@%@%@%@%@", name(of: item), Self.clock(time), Self.clock(duration), state, rate,
                          dropped, offset, stalls > 0 ? "  \(stalls) stalls" : "", player.isMuted ? "  muted" : "")
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }

    /// m:ss of a time in seconds.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "-:--" }
        let whole = Int(seconds)
        return String(format: "%d:%02d", whole / 60, whole % 60)
    }
}
