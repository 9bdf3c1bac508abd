import Foundation
import HostSystem
import OpenAVFoundation

/// What `openav play` keeps while it plays sound files (no video, one audio track) through
/// `AVAudioPlayer`: the players in turn, the keys, the status line, the failures told.
final class AudioPlaySession: AVAudioPlayerDelegate, @unchecked Sendable {
    private let urls: [URL]
    private let loop: Bool
    private let sink: String?

    /// What the keys, the delegate and the playing loop share, behind one lock.
    private struct State {
        var player: AVAudioPlayer?
        var name = ""
        var finished = false
        var quitting = false
        var rate: Float
        var muted = false
        var failed = 0
        var tried = 0
    }

    private let state: Locked<State>
    /// How many files failed, and how many were tried.
    var failures: Int { state.failed }
    var itemsStarted: Int { state.tried }

    /// A session playing `urls` in turn (again and again with `loop`) at `rate` (kept within
    /// `AVAudioPlayer`'s 0.5 to 2) to `sink` (nil: the server's default).
    init(urls: [URL], loop: Bool, rate: Float, sink: String?) {
        self.urls = urls
        self.loop = loop
        self.sink = sink
        state = Locked(State(rate: max(0.5, min(2, rate))))
    }

    /// Whether every one of `urls` is a local file with sound and no video, one audio track:
    /// the files `AVAudioPlayer` plays (others go to `AVQueuePlayer`).
    static func plays(_ urls: [URL]) async -> Bool {
        for url in urls {
            guard url.isFileURL, let tracks = try? await AVURLAsset(url: url).load(.tracks) else { return false }
            guard tracks.filter({ $0.mediaType == .audio }).count == 1, !tracks.contains(where: { $0.mediaType == .video }) else { return false }
        }
        return true
    }

    /// Plays the files in turn from `start` seconds of the first, until the last ends or q or Ctrl-C.
    func run(start: Double?) async {
        var first = true
        repeat {
            for url in urls where !state.quitting {
                await play(url, from: first ? start : nil)
                first = false
            }
        } while loop && !state.quitting && state.failed < state.tried
        if isatty(STDERR_FILENO) != 0 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// Plays one file to its end (or q), drawing the status line.
    private func play(_ url: URL, from start: Double?) async {
        let player: AVAudioPlayer
        do {
            player = try AVAudioPlayer(contentsOf: url)
        } catch {
            state.withLock { s in
                s.tried += 1
                s.failed += 1
            }
            report("\(url.path): cannot play: \(Self.reason(error))")
            return
        }
        player.delegate = self
        player.currentDevice = sink
        player.enableRate = true
        state.withLock { s in
            s.tried += 1
            s.finished = false
            s.name = url.lastPathComponent
            s.player = player
            player.rate = s.rate
            player.volume = s.muted ? 0 : 1
        }
        if let start { player.currentTime = start }
        guard player.play() else {
            state.withLock { s in
                s.failed += 1
                s.player = nil
            }
            report("\(url.path): cannot play: no sound server")
            return
        }
        while !state.withLock({ $0.finished || $0.quitting }) {
            drawStatus(player)
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
        player.stop()
        state.player = nil
    }

    /// The player finished: the next file plays.
    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
        state.finished = true
    }

    /// The file failed to decode while playing: told, and the next file plays.
    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) {
        report("\(state.name): stopped: \(error.map(Self.reason) ?? "unknown error")")
    }

    /// The text of an error: its failure reason where it has one.
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        return error.userInfo[NSLocalizedFailureReasonErrorKey] as? String ?? error.localizedDescription
    }

    /// A line above the status line.
    func report(_ text: String) {
        FileHandle.standardError.write(Data(((isatty(STDERR_FILENO) != 0 ? "\r\u{1B}[K" : "") + text + "\n").utf8))
    }

    func quit() { state.quitting = true }

    /// Acts on a key: space pause, ←/→ seek ±5 s, [ ] slower and faster, m mute, q quit.
    func handle(_ key: TerminalKeys.Key) {
        guard let player = state.player else {
            if key == .character("q") { quit() }
            return
        }
        switch key {
        case .character(" "):
            if player.isPlaying { player.pause() } else { player.play() }
        case .character("m"):
            let muted = state.withLock { s in
                s.muted.toggle()
                return s.muted
            }
            player.volume = muted ? 0 : 1
        case .character("["), .character("]"):
            let faster = key == .character("]")
            let rate = state.withLock { s in
                s.rate = max(0.5, min(2, s.rate * (faster ? 1.25 : 0.8)))
                return s.rate
            }
            player.rate = rate
        case .character("a"): report("one audio language only")
        case .character("q"): quit()
        case .left, .right:
            player.currentTime = max(0, min(player.duration, player.currentTime + (key == .left ? -5 : 5)))
        default: break
        }
    }

    private func drawStatus(_ player: AVAudioPlayer) {
        guard isatty(STDERR_FILENO) != 0 else { return }
        let (name, rate, muted) = state.withLock { ($0.name, $0.rate, $0.muted) }
        let text = String(format: "%@  %@ / %@  %@%@%@", name, PlaySession.clock(player.currentTime), PlaySession.clock(player.duration),
                          player.isPlaying ? "playing" : "paused", rate == 1 ? "" : String(format: " at %.2fx", rate), muted ? "  muted" : "")
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }
}
