import Foundation
import OpenCoreMedia

/// A channel layout: which speaker each channel of an audio format feeds, as a Core Audio
/// `AudioChannelLayout` (a layout tag, a channel bitmap or channel descriptions).
open class AVAudioChannelLayout: NSObject, @unchecked Sendable {
    /// The layout's bytes: an `AudioChannelLayout` with all its channel descriptions.
    private let storage: UnsafeMutableRawPointer
    /// The byte size of `storage`.
    private let byteCount: Int

    /// A layout with a layout tag, such as `kAudioChannelLayoutTag_Stereo`; nil for
    /// `kAudioChannelLayoutTag_UseChannelDescriptions` and `kAudioChannelLayoutTag_UseChannelBitmap`,
    /// which need the full layout (`init(layout:)`).
    public convenience init?(layoutTag: AudioChannelLayoutTag) {
        guard layoutTag != kAudioChannelLayoutTag_UseChannelDescriptions,
              layoutTag != kAudioChannelLayoutTag_UseChannelBitmap else { return nil }
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = layoutTag
        self.init(layout: &layout)
    }

    /// A layout copied from a Core Audio channel layout, with as many channel descriptions as
    /// its `mNumberChannelDescriptions` says.
    public init(layout: UnsafePointer<AudioChannelLayout>) {
        byteCount = AudioChannelLayout.byteSize(descriptionCount: Int(layout.pointee.mNumberChannelDescriptions))
        storage = .allocate(byteCount: byteCount, alignment: MemoryLayout<AudioChannelLayout>.alignment)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        storage.copyMemory(from: layout, byteCount: min(byteCount, AudioChannelLayout.byteSize(
            descriptionCount: Int(layout.pointee.mNumberChannelDescriptions))))
        super.init()
    }

    deinit {
        storage.deallocate()
    }

    /// The layout's tag.
    public var layoutTag: AudioChannelLayoutTag { layout.pointee.mChannelLayoutTag }

    /// The Core Audio layout, valid as long as this object lives.
    public var layout: UnsafePointer<AudioChannelLayout> {
        UnsafePointer(storage.assumingMemoryBound(to: AudioChannelLayout.self))
    }

    /// The number of channels: the tag's low 16 bits, else the bitmap's channels or the number
    /// of channel descriptions.
    public var channelCount: AVAudioChannelCount {
        let tag = layoutTag
        switch tag {
        case kAudioChannelLayoutTag_UseChannelDescriptions: return layout.pointee.mNumberChannelDescriptions
        case kAudioChannelLayoutTag_UseChannelBitmap: return UInt32(layout.pointee.mChannelBitmap.rawValue.nonzeroBitCount)
        default: return tag & 0xFFFF
        }
    }

    /// The layout's bytes, as `AVChannelLayoutKey` holds them.
    package var data: Data { Data(bytes: storage, count: byteCount) }

    /// The layout's byte size, as `CMAudioFormatDescriptionCreate` takes it.
    package var layoutSize: Int { byteCount }

    /// Whether both layouts have the same bytes.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioChannelLayout else { return false }
        return other.byteCount == byteCount && memcmp(other.storage, storage, byteCount) == 0
    }

    /// A hash of the layout tag, consistent with `isEqual(_:)`.
    open override var hash: Int { Int(layoutTag) }
}
