import Foundation

/// A node that connects the engine to the outside: its output (`AVAudioOutputNode`).
open class AVAudioIONode: AVAudioNode, @unchecked Sendable {
    /// The time between a sample reaching the node and its being heard: the sound server's
    /// latency while the engine plays to it, 0 in manual rendering mode.
    open var presentationLatency: TimeInterval { engine?.presentationLatency ?? 0 }

    /// Whether the sound server's voice processing (echo cancelling) is on; it is not used here.
    open var isVoiceProcessingEnabled: Bool { false }

    /// Turns voice processing on or off; not available here, so turning it on throws
    /// (`kAudioUnitErr_FailedInitialization`).
    open func setVoiceProcessingEnabled(_ enabled: Bool) throws {
        if enabled { throw AVAudioEngine.error(kAudioUnitErr_FailedInitialization, "voice processing is not available") }
    }
}
