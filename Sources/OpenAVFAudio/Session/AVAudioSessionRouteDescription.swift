import Foundation

/// The ports a session's audio goes through now: the input recorded and the output played to.
open class AVAudioSessionRouteDescription: NSObject, @unchecked Sendable {
    /// The input ports (the preferred input, else the default source).
    public let inputs: [AVAudioSessionPortDescription]
    /// The output ports (the sound server's default sink).
    public let outputs: [AVAudioSessionPortDescription]

    init(inputs: [AVAudioSessionPortDescription], outputs: [AVAudioSessionPortDescription]) {
        self.inputs = inputs
        self.outputs = outputs
        super.init()
    }
}
