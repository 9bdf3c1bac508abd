import Foundation

/// The mixing settings of one connection from a node into a mixer's input bus, as
/// `AVAudioMixing.destination(forMixer:bus:)` gives them.
open class AVAudioMixingDestination: NSObject, AVAudioMixing, @unchecked Sendable {
    /// The mixer's input bus the settings are for.
    public let connectionPoint: AVAudioConnectionPoint
    /// The settings, read by the render thread.
    private let settings: MixingSettings

    /// The settings of the connection into `connectionPoint`, starting from `initial`.
    init(connectionPoint: AVAudioConnectionPoint, initial: MixingSettings) {
        self.connectionPoint = connectionPoint
        settings = MixingSettings(volume: initial.volume, pan: initial.pan)
        super.init()
    }

    /// The settings as the render thread reads them.
    var current: MixingSettings { settings }

    /// The input's level, 0 to 1.
    open var volume: Float {
        get { settings.volume }
        set { settings.volume = newValue }
    }

    /// The input's pan, -1 to 1.
    open var pan: Float {
        get { settings.pan }
        set { settings.pan = newValue }
    }

    /// The destination itself, for its own mixer and bus.
    open func destination(forMixer mixer: AVAudioNode, bus: AVAudioNodeBus) -> AVAudioMixingDestination? {
        connectionPoint.node === mixer && connectionPoint.bus == bus ? self : nil
    }
}
