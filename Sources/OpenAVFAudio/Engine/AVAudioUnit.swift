import Foundation

/// A node that processes audio as an audio unit does: the effects (`AVAudioUnitEffect`,
/// `AVAudioUnitTimeEffect`) are its subclasses. Here the units are libavfilter's filters.
open class AVAudioUnit: AVAudioNode, @unchecked Sendable {
    /// The unit's name.
    public let name: String
    /// Who makes the unit: FFmpeg's libavfilter.
    open var manufacturerName: String { "FFmpeg libavfilter" }
    /// The unit's version.
    open var version: Int { 1 }

    /// A unit of one input and one output bus named `name`.
    init(name: String) {
        self.name = name
        super.init(inputs: 1, outputs: 1)
    }

    /// An effect's output has the format of its input's connection.
    override func inputWasConnected(bus: AVAudioNodeBus, format: AVAudioFormat) {
        if bus == 0, engine?.graph.connections(from: self, bus: 0).isEmpty ?? true { outputFormats[0] = format }
    }
}
