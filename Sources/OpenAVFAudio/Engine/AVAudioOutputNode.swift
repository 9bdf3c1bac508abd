import Foundation

/// The engine's output: what reaches its input bus is played to the sound server's default
/// sink, or handed to the caller in manual rendering mode. One input bus, and one output bus
/// whose format is the sink's (or the manual rendering format).
open class AVAudioOutputNode: AVAudioIONode, @unchecked Sendable {
    /// The engine's output node (engines make their own: `AVAudioEngine.outputNode`).
    init() {
        super.init(inputs: 1, outputs: 1)
    }

    /// The output bus's format is the engine's output format, and so is the input's default.
    override var defaultFormat: AVAudioFormat { engine?.outputFormat ?? AVAudioEngine.hardwareFormat }

    /// The output bus is the device's: nothing renders into it.
    override func prepareRendering(maximumFrames: Int) {}
}
