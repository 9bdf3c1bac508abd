import Foundation
import OpenCoreMedia

/// An audio format: a Core Audio stream description with an optional channel layout and magic
/// cookie, and accessors for the common PCM formats, including the standard one
/// (non-interleaved 32-bit float). Immutable.
open class AVAudioFormat: NSObject, @unchecked Sendable {
    /// The stream description, at a stable address for `streamDescription`.
    private let asbd: UnsafeMutablePointer<AudioStreamBasicDescription>
    /// The channel layout, nil for a mono or stereo format made without one.
    public let channelLayout: AVAudioChannelLayout?
    /// The codec's magic cookie (an AAC `AudioSpecificConfig`, an ALAC configuration…); nil for
    /// linear PCM.
    open var magicCookie: Data?

    /// The standard format (non-interleaved 32-bit float) at a sample rate and channel count;
    /// nil for more than two channels (which need a layout) or no channels.
    public convenience init?(standardFormatWithSampleRate sampleRate: Double, channels: AVAudioChannelCount) {
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, channels: channels, interleaved: false)
    }

    /// The standard format (non-interleaved 32-bit float) at a sample rate, with the layout's
    /// channels.
    public convenience init(standardFormatWithSampleRate sampleRate: Double, channelLayout layout: AVAudioChannelLayout) {
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, interleaved: false, channelLayout: layout)
    }

    /// A common PCM format; nil for `.otherFormat`, no channels, more than two channels (which
    /// need a layout), or a rate that is not positive.
    public convenience init?(commonFormat format: AVAudioCommonFormat, sampleRate: Double,
                             channels: AVAudioChannelCount, interleaved: Bool) {
        guard let description = Self.pcmDescription(format, sampleRate: sampleRate, channels: channels,
                                                    interleaved: interleaved), channels <= 2 else { return nil }
        self.init(description: description, layout: nil, magicCookie: nil)
    }

    /// A common PCM format with the layout's channels. `.otherFormat` is a programmer error.
    public convenience init(commonFormat format: AVAudioCommonFormat, sampleRate: Double, interleaved: Bool,
                            channelLayout layout: AVAudioChannelLayout) {
        guard let description = Self.pcmDescription(format, sampleRate: sampleRate, channels: layout.channelCount,
                                                    interleaved: interleaved) else {
            preconditionFailure("AVAudioFormat(commonFormat:sampleRate:interleaved:channelLayout:) needs a PCM common "
                                + "format, a positive sample rate and a layout with channels")
        }
        self.init(description: description, layout: layout, magicCookie: nil)
    }

    /// A format from a Core Audio stream description; nil for more than two channels (use
    /// `init(streamDescription:channelLayout:)`) or a description without a rate or channels.
    public convenience init?(streamDescription asbd: UnsafePointer<AudioStreamBasicDescription>) {
        self.init(streamDescription: asbd, channelLayout: nil)
    }

    /// A format from a Core Audio stream description and a channel layout, which may be nil
    /// only for one or two channels; nil when the layout's channel count differs.
    public convenience init?(streamDescription asbd: UnsafePointer<AudioStreamBasicDescription>,
                             channelLayout layout: AVAudioChannelLayout?) {
        let description = asbd.pointee
        guard description.mSampleRate > 0, description.mChannelsPerFrame > 0 else { return nil }
        if let layout {
            guard layout.channelCount == description.mChannelsPerFrame else { return nil }
        } else if description.mChannelsPerFrame > 2 {
            return nil
        }
        self.init(description: description, layout: layout, magicCookie: nil)
    }

    /// The format of an audio format description: its stream description, channel layout and
    /// magic cookie.
    public convenience init(cmAudioFormatDescription formatDescription: CMAudioFormatDescription) {
        let description = CMAudioFormatDescriptionGetStreamBasicDescription(formatDescription)?.pointee
            ?? AudioStreamBasicDescription()
        var layoutSize = 0
        let layout = CMAudioFormatDescriptionGetChannelLayout(formatDescription, sizeOut: &layoutSize)
            .map(AVAudioChannelLayout.init(layout:))
        var cookieSize = 0
        let cookie = CMAudioFormatDescriptionGetMagicCookie(formatDescription, sizeOut: &cookieSize)
            .map { Data(bytes: $0, count: cookieSize) }
        self.init(description: description, layout: layout, magicCookie: cookie)
    }

    /// A format from an audio settings dictionary (`AVFormatIDKey`, `AVSampleRateKey`,
    /// `AVNumberOfChannelsKey`, the `AVLinearPCM…` keys, `AVChannelLayoutKey`); nil when a key
    /// is missing or its value cannot be used. The encoder keys are accepted and ignored here
    /// (they configure a writer, not the format).
    public convenience init?(settings: [String: Any]) {
        guard let parsed = AudioSettings(settings) else { return nil }
        self.init(description: parsed.description, layout: parsed.layout, magicCookie: nil)
    }

    /// The designated initializer behind the public ones.
    package init(description: AudioStreamBasicDescription, layout: AVAudioChannelLayout?, magicCookie: Data?) {
        asbd = .allocate(capacity: 1)
        asbd.initialize(to: description)
        self.channelLayout = layout
        self.magicCookie = magicCookie
        super.init()
    }

    deinit {
        asbd.deallocate()
    }

    /// The Core Audio stream description, valid as long as this format lives.
    public var streamDescription: UnsafePointer<AudioStreamBasicDescription> { UnsafePointer(asbd) }

    /// The sample rate in hertz.
    public var sampleRate: Double { asbd.pointee.mSampleRate }

    /// The number of channels.
    public var channelCount: AVAudioChannelCount { asbd.pointee.mChannelsPerFrame }

    /// Whether the channels are interleaved in one buffer, rather than one buffer a channel.
    public var isInterleaved: Bool { asbd.pointee.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0 }

    /// The common format of the samples, `.otherFormat` when they are none of the four.
    public var commonFormat: AVAudioCommonFormat {
        let d = asbd.pointee
        guard d.mFormatID == kAudioFormatLinearPCM, d.mFormatFlags & kAudioFormatFlagIsBigEndian == 0,
              d.mFramesPerPacket == 1 else { return .otherFormat }
        let bytesPerSample = isInterleaved ? d.mBytesPerFrame / max(1, d.mChannelsPerFrame) : d.mBytesPerFrame
        guard bytesPerSample * 8 == d.mBitsPerChannel else { return .otherFormat }
        if d.mFormatFlags & kAudioFormatFlagIsFloat != 0 {
            switch d.mBitsPerChannel {
            case 32: return .pcmFormatFloat32
            case 64: return .pcmFormatFloat64
            default: return .otherFormat
            }
        }
        guard d.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0 else { return .otherFormat }
        switch d.mBitsPerChannel {
        case 16: return .pcmFormatInt16
        case 32: return .pcmFormatInt32
        default: return .otherFormat
        }
    }

    /// Whether this is the standard format: non-interleaved native-endian 32-bit float.
    public var isStandard: Bool {
        commonFormat == .pcmFormatFloat32 && !isInterleaved
    }

    /// The format as an audio settings dictionary: the `AVLinearPCM…` keys for linear PCM,
    /// the format ID, rate and channel count always, and the layout when there is one.
    public var settings: [String: Any] {
        let d = asbd.pointee
        var settings: [String: Any] = [
            AVFormatIDKey: NSNumber(value: d.mFormatID),
            AVSampleRateKey: NSNumber(value: d.mSampleRate),
            AVNumberOfChannelsKey: NSNumber(value: d.mChannelsPerFrame),
        ]
        if d.mFormatID == kAudioFormatLinearPCM {
            settings[AVLinearPCMBitDepthKey] = NSNumber(value: d.mBitsPerChannel)
            settings[AVLinearPCMIsFloatKey] = NSNumber(value: d.mFormatFlags & kAudioFormatFlagIsFloat != 0)
            settings[AVLinearPCMIsBigEndianKey] = NSNumber(value: d.mFormatFlags & kAudioFormatFlagIsBigEndian != 0)
            settings[AVLinearPCMIsNonInterleaved] = NSNumber(value: d.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0)
        }
        if let channelLayout { settings[AVChannelLayoutKey] = channelLayout.data }
        return settings
    }

    /// The format as a Core Media audio format description.
    public var formatDescription: CMAudioFormatDescription {
        var result: CMAudioFormatDescription?
        let cookie = magicCookie ?? Data()
        cookie.withUnsafeBytes { cookieBytes in
            _ = CMAudioFormatDescriptionCreate(
                allocator: nil, asbd: asbd, layoutSize: channelLayout?.layoutSize ?? 0,
                layout: channelLayout?.layout, magicCookieSize: cookieBytes.count,
                magicCookie: cookieBytes.count > 0 ? cookieBytes.baseAddress : nil, extensions: nil,
                formatDescriptionOut: &result)
        }
        guard let result else { preconditionFailure("AVAudioFormat: a valid format always has a format description") }
        return result
    }

    /// Whether both formats have the same stream description and channel layout.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioFormat, other.asbd.pointee == asbd.pointee else { return false }
        if other === self { return true }
        // One or two channels without a layout are mono or stereo (a layout is needed only
        // beyond two), so a stereo file's format equals one made for stereo from settings.
        switch (channelLayout ?? standardLayout, other.channelLayout ?? other.standardLayout) {
        case (nil, nil): return true
        case (let mine?, let theirs?): return mine.isEqual(theirs)
        default: return false
        }
    }

    /// The layout one or two channels have when none is given: mono or stereo.
    private var standardLayout: AVAudioChannelLayout? {
        switch channelCount {
        case 1: AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Mono)
        case 2: AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo)
        default: nil
        }
    }

    /// A hash of the stream description, consistent with `isEqual(_:)`.
    open override var hash: Int { asbd.pointee.hashValue }

    /// "2 ch, 48000 Hz, Float32, deinterleaved", as Apple's description reads.
    open override var description: String {
        let name: String = switch commonFormat {
        case .pcmFormatFloat32: "Float32"
        case .pcmFormatFloat64: "Float64"
        case .pcmFormatInt16: "Int16"
        case .pcmFormatInt32: "Int32"
        case .otherFormat: "format \(formatIDText)"
        }
        return "<AVAudioFormat: \(channelCount) ch, \(Int(sampleRate)) Hz, \(name)\(isInterleaved ? "" : ", deinterleaved")>"
    }

    /// The format ID as four characters.
    private var formatIDText: String {
        let id = asbd.pointee.mFormatID
        return String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: id >> $0) }, as: UTF8.self)
    }

    /// The linear PCM stream description of a common format, nil for `.otherFormat`, no
    /// channels or a rate that is not positive.
    private static func pcmDescription(_ format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount,
                                       interleaved: Bool) -> AudioStreamBasicDescription? {
        guard sampleRate > 0, channels > 0 else { return nil }
        let (bits, isFloat): (UInt32, Bool)
        switch format {
        case .pcmFormatFloat32: (bits, isFloat) = (32, true)
        case .pcmFormatFloat64: (bits, isFloat) = (64, true)
        case .pcmFormatInt16: (bits, isFloat) = (16, false)
        case .pcmFormatInt32: (bits, isFloat) = (32, false)
        case .otherFormat: return nil
        }
        return AudioSettings.pcmDescription(sampleRate: sampleRate, channels: channels, bits: bits, isFloat: isFloat,
                                            isBigEndian: false, isNonInterleaved: !interleaved)
    }
}
