import Foundation

/// An input or output port of the session: a sound-server source or sink, or a capture
/// device without a server (ALSA, the Test Tone Microphone).
///
/// Linux: `portType` comes from the device's properties (`device.bus`, `device.form_factor`,
/// `device.icon_name`, `bluetooth.protocol`); `uid` is the source's or sink's name (the
/// capture device's `uniqueID`).
open class AVAudioSessionPortDescription: NSObject, @unchecked Sendable {
    /// The kind of port.
    public let portType: AVAudioSession.Port
    /// The name people see.
    public let portName: String
    /// A name unique among the ports, stable across runs.
    public let uid: String
    /// Whether the port processes voice calls in hardware (never on Linux).
    public var hasHardwareVoiceCallProcessing: Bool { false }
    /// The port's channels.
    public let channels: [AVAudioSessionChannelDescription]?
    /// The port's data sources, when it has several; else nil.
    public let dataSources: [AVAudioSessionDataSourceDescription]?
    /// The data source in use.
    public let selectedDataSource: AVAudioSessionDataSourceDescription?
    /// Whether the port is spatial-audio capable (never on Linux).
    public var isSpatialAudioEnabled: Bool { false }

    /// The source (or sink) to record from (or play to) when no data source is chosen.
    let deviceName: String
    /// The session whose port this is.
    private weak var session: AVAudioSession?

    init(portType: AVAudioSession.Port, portName: String, uid: String, deviceName: String, channelNames: [String],
         dataSources: [AVAudioSessionDataSourceDescription]?, selected: AVAudioSessionDataSourceDescription?,
         session: AVAudioSession?) {
        self.portType = portType
        self.portName = portName
        self.uid = uid
        self.deviceName = deviceName
        channels = channelNames.enumerated().map {
            AVAudioSessionChannelDescription(channelName: $0.element, owningPortUID: uid, channelNumber: $0.offset + 1)
        }
        self.dataSources = dataSources
        selectedDataSource = selected
        self.session = session
        super.init()
    }

    /// The data source chosen with `setPreferredDataSource(_:)`, if any.
    public var preferredDataSource: AVAudioSessionDataSourceDescription? {
        session?.preferredDataSource(ofPort: uid)
    }

    /// Chooses a data source of this port (nil: the default). A data source that is a port of
    /// a PulseAudio source is switched to on the server at once; one that is a source of the
    /// card is the one recorded while this port is the input. Throws `.badParam` for a data
    /// source that is not this port's.
    open func setPreferredDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
        guard let session else { throw AVAudioSession.error(.badParam, "the port \(portName) is gone") }
        if let dataSource, !(dataSources ?? []).contains(where: { $0.isEqual(dataSource) }) {
            throw AVAudioSession.error(.badParam, "\(dataSource.dataSourceName) is not a data source of \(portName)")
        }
        try session.setPreferredDataSource(dataSource, ofPort: uid)
    }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? AVAudioSessionPortDescription)?.uid == uid
    }

    open override var hash: Int { uid.hashValue }
}
