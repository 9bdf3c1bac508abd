import Foundation

/// The settings a mixer applies to one of its inputs: volume, and (through
/// `AVAudioStereoMixing`) pan. Setting them on a node sets them for every mixer it feeds; each
/// mixer's own setting is its `destination(forMixer:bus:)`. Apple's 3D mixing
/// (`AVAudio3DMixing`) is not here.
public protocol AVAudioMixing: AVAudioStereoMixing {
    /// The input's level, 0 (silent) to 1 (unchanged).
    var volume: Float { get set }

    /// The settings of the connection into `bus` of `mixer`, if the node feeds that bus.
    func destination(forMixer mixer: AVAudioNode, bus: AVAudioNodeBus) -> AVAudioMixingDestination?
}

extension AVAudioMixing where Self: AVAudioNode {
    /// The input's level for every mixer the node feeds (the last one set); setting it sets it
    /// for all of them.
    public var volume: Float {
        get { mixingDefaults.volume }
        set { setMixing { $0.volume = newValue } }
    }

    /// The input's pan for every mixer the node feeds (the last one set); setting it sets it for
    /// all of them.
    public var pan: Float {
        get { mixingDefaults.pan }
        set { setMixing { $0.pan = newValue } }
    }

    /// The settings of the connection into `bus` of `mixer`, if the node feeds that bus.
    public func destination(forMixer mixer: AVAudioNode, bus: AVAudioNodeBus) -> AVAudioMixingDestination? {
        guard let engine else { return nil }
        return engine.graph.withLock {
            guard let connection = engine.graph.connection(into: mixer, bus: bus), connection.source === self else { return nil }
            return connection.mixing
        }
    }
}
