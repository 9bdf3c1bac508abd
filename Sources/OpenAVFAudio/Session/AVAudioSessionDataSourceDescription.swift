import Foundation

/// One of a port's data sources: a microphone among several of one device (the ports of a
/// PulseAudio source, "Front Microphone", "Rear Microphone"; or the sources of one card).
///
/// Linux: `location` and `orientation` come from the port's or source's name (front, rear,
/// back, top, bottom, left, right); polar patterns are never supported.
open class AVAudioSessionDataSourceDescription: NSObject, @unchecked Sendable {
    /// The data source's number among its port's.
    public let dataSourceID: NSNumber
    /// The name people see.
    public let dataSourceName: String
    /// Where it sits, when its name says.
    public let location: AVAudioSession.Location?
    /// Which way it faces, when its name says.
    public let orientation: AVAudioSession.Orientation?
    /// Always nil on Linux.
    public var supportedPolarPatterns: [AVAudioSession.PolarPattern]? { nil }
    /// Always nil on Linux.
    public var selectedPolarPattern: AVAudioSession.PolarPattern? { nil }
    /// Always nil on Linux.
    public var preferredPolarPattern: AVAudioSession.PolarPattern? { nil }

    /// The PulseAudio source recorded when this data source is chosen.
    let sourceName: String
    /// The source's port to switch to, for a data source that is a port.
    let portName: String?

    init(id: Int, name: String, sourceName: String, portName: String?, hint: String) {
        dataSourceID = NSNumber(value: id)
        dataSourceName = name
        self.sourceName = sourceName
        self.portName = portName
        let words = hint.lowercased()
        func says(_ word: String) -> Bool { words.contains(word) }
        orientation = says("front") ? .front : says("rear") || says("back") ? .back : says("top") ? .top
            : says("bottom") ? .bottom : says("left") ? .left : says("right") ? .right : nil
        location = says("upper") || says("top") ? .upper : says("lower") || says("bottom") ? .lower : nil
        super.init()
    }

    /// Polar patterns cannot be chosen on Linux: throws `AVAudioSession.ErrorCode.badParam`'s error
    /// for any pattern but nil.
    open func setPreferredPolarPattern(_ pattern: AVAudioSession.PolarPattern?) throws {
        if pattern != nil { throw AVAudioSession.error(.badParam, "\(dataSourceName) has no polar patterns") }
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioSessionDataSourceDescription else { return false }
        return (sourceName, portName, dataSourceID) == (other.sourceName, other.portName, other.dataSourceID)
    }

    open override var hash: Int { sourceName.hashValue ^ (portName?.hashValue ?? 0) }
}
