import Foundation
import OpenCoreMedia

/// One channel of a port: its name and number.
open class AVAudioSessionChannelDescription: NSObject, @unchecked Sendable {
    /// The channel's name ("front-left", "mono": the sound server's channel position).
    public let channelName: String
    /// The UID of the port the channel belongs to.
    public let owningPortUID: String
    /// The channel's number on its port, from 1.
    public let channelNumber: Int
    /// The channel's Core Audio label (`kAudioChannelLabel_Unknown` on Linux).
    public let channelLabel: AudioChannelLabel

    init(channelName: String, owningPortUID: String, channelNumber: Int) {
        self.channelName = channelName
        self.owningPortUID = owningPortUID
        self.channelNumber = channelNumber
        channelLabel = 0xFFFF_FFFF
        super.init()
    }
}
