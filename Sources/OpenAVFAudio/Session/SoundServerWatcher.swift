import CaptureDevices
import Foundation

/// An active session's watch on the sound server: PulseAudio's events become the session's
/// route change and interruption notifications, posted on the watcher's thread
/// (`OpenAVFAudio.AVAudioSession`).
final class SoundServerWatcher: @unchecked Sendable {
    private let watcher: PulseAudioEventWatcher

    init(session: AVAudioSession, server: String?) {
        watcher = PulseAudioEventWatcher(server: server) { [weak session] event in
            guard let session else { return }
            switch event {
            case .sourceAdded: session.postRouteChange(.newDeviceAvailable, previous: nil)
            case .sourceRemoved: session.postRouteChange(.oldDeviceUnavailable, previous: nil)
            case .serverLost: session.postInterruption(.began)
            case .serverBack: session.postInterruption(.ended)
            }
        }
    }

    func start() { watcher.start(name: "OpenAVFAudio.AVAudioSession") }

    func stop() { watcher.stop() }
}
