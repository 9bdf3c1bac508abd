import Foundation
import OpenCoreMedia

/// A buffer of audio in some format, as Core Audio buffers (`AudioBufferList`); its subclasses
/// `AVAudioPCMBuffer` and `AVAudioCompressedBuffer` hold linear PCM and compressed packets.
open class AVAudioBuffer: NSObject, @unchecked Sendable {
    /// The format of the audio in the buffer.
    public let format: AVAudioFormat
    /// The buffer list, with room for one buffer a channel; owned.
    package let bufferList: UnsafeMutableAudioBufferListPointer

    /// A buffer list of `bufferCount` buffers for `format`; the subclass fills the buffers in.
    package init(format: AVAudioFormat, bufferCount: Int) {
        self.format = format
        bufferList = AudioBufferList.allocate(maximumBuffers: max(1, bufferCount))
        super.init()
    }

    deinit {
        bufferList.unsafeMutablePointer.deinitialize(count: 1)
        UnsafeMutableRawPointer(bufferList.unsafeMutablePointer).deallocate()
    }

    /// The buffer's audio as a Core Audio buffer list, valid as long as the buffer lives. Its
    /// byte sizes follow the valid frames.
    public var audioBufferList: UnsafePointer<AudioBufferList> { bufferList.unsafePointer }

    /// The buffer list to write into; changing a buffer's `mDataByteSize` changes the valid
    /// frames as `frameLength` reads them.
    public var mutableAudioBufferList: UnsafeMutablePointer<AudioBufferList> { bufferList.unsafeMutablePointer }
}
