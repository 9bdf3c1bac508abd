import Foundation
import OpenCoreVideo

/// The arrangement of the channels of an audio stream: a tag, a bitmap or explicit descriptions.
///
/// As in C, the struct holds room for one channel description; a layout with more descriptions
/// is a larger block of memory in which the further descriptions follow the first, and is
/// passed by pointer with its byte size (see `CMAudioFormatDescriptionCreate`).
public struct AudioChannelLayout: Sendable {
    /// A standard layout, or `kAudioChannelLayoutTag_UseChannelBitmap`/`UseChannelDescriptions`.
    public var mChannelLayoutTag: AudioChannelLayoutTag
    /// The speaker positions, when the tag is `kAudioChannelLayoutTag_UseChannelBitmap`.
    public var mChannelBitmap: AudioChannelBitmap
    /// How many descriptions follow, when the tag is `kAudioChannelLayoutTag_UseChannelDescriptions`.
    public var mNumberChannelDescriptions: UInt32
    /// The first channel description; further ones follow it in memory.
    public var mChannelDescriptions: AudioChannelDescription

    /// Creates a layout with every field zero.
    public init() {
        self.init(mChannelLayoutTag: 0, mChannelBitmap: [], mNumberChannelDescriptions: 0,
                  mChannelDescriptions: AudioChannelDescription())
    }

    /// Creates a layout from every field, as Apple's memberwise initializer.
    public init(mChannelLayoutTag: AudioChannelLayoutTag, mChannelBitmap: AudioChannelBitmap,
                mNumberChannelDescriptions: UInt32, mChannelDescriptions: AudioChannelDescription) {
        self.mChannelLayoutTag = mChannelLayoutTag
        self.mChannelBitmap = mChannelBitmap
        self.mNumberChannelDescriptions = mNumberChannelDescriptions
        self.mChannelDescriptions = mChannelDescriptions
    }

    /// The byte size of a layout holding `descriptionCount` channel descriptions (at least one
    /// slot, as in C). Package helper.
    package static func byteSize(descriptionCount: Int) -> Int {
        let header = MemoryLayout<AudioChannelLayout>.offset(of: \AudioChannelLayout.mChannelDescriptions)!
        return max(MemoryLayout<AudioChannelLayout>.size,
                   header + max(descriptionCount, 1) * MemoryLayout<AudioChannelDescription>.stride)
    }
}
