import Foundation

/// An audio mix you set up.
open class AVMutableAudioMix: AVAudioMix, @unchecked Sendable {
    /// An audio mix with no parameters yet.
    public required init() {
        super.init()
    }

    /// The volume settings of each track mixed.
    open override var inputParameters: [AVAudioMixInputParameters] {
        get { super.inputParameters }
        set { parameters = newValue }
    }
}
