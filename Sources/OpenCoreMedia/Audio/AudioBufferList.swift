/// A variable-length list of `AudioBuffer`s, laid out as Core Audio's C structure: a count, then
/// the buffers one after another. `mBuffers` is the first; the others follow it in memory, so a
/// list of more than one lives in memory from `allocate(maximumBuffers:)` (or a caller's buffer
/// of `sizeInBytes(maximumBuffers:)`) and is read through `UnsafeMutableAudioBufferListPointer`.
public struct AudioBufferList {
    /// How many buffers the list holds.
    public var mNumberBuffers: UInt32
    /// The first buffer.
    public var mBuffers: AudioBuffer

    /// An empty list.
    public init() {
        self.init(mNumberBuffers: 0, mBuffers: AudioBuffer())
    }

    /// A list of `mNumberBuffers` buffers whose first is `mBuffers`.
    public init(mNumberBuffers: UInt32, mBuffers: AudioBuffer) {
        self.mNumberBuffers = mNumberBuffers
        self.mBuffers = mBuffers
    }

    /// The bytes a list of `maximumBuffers` buffers takes.
    public static func sizeInBytes(maximumBuffers: Int) -> Int {
        Misuse.check(maximumBuffers >= 1, .audioBufferListWithoutRoom)
        return MemoryLayout<AudioBufferList>.offset(of: \.mBuffers)! + maximumBuffers * MemoryLayout<AudioBuffer>.stride
    }

    /// A new list with room for `maximumBuffers` buffers, all empty, its count set to that
    /// number; the caller frees it (`unsafeMutablePointer.deallocate()`, or `free`).
    public static func allocate(maximumBuffers: Int) -> UnsafeMutableAudioBufferListPointer {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: sizeInBytes(maximumBuffers: maximumBuffers),
                                                   alignment: MemoryLayout<AudioBufferList>.alignment)
        let list = raw.bindMemory(to: AudioBufferList.self, capacity: 1)
        list.initialize(to: AudioBufferList(mNumberBuffers: UInt32(maximumBuffers), mBuffers: AudioBuffer()))
        let pointer = UnsafeMutableAudioBufferListPointer(list)
        for index in 1..<max(1, maximumBuffers) { pointer.buffersStart.advanced(by: index).initialize(to: AudioBuffer()) }
        return pointer
    }
}
