/// An `AudioBufferList` in memory, seen as a collection of its buffers (all `mNumberBuffers` of
/// them, not only `mBuffers`).
public struct UnsafeMutableAudioBufferListPointer: MutableCollection, RandomAccessCollection {
    /// The list.
    public var unsafeMutablePointer: UnsafeMutablePointer<AudioBufferList>

    /// Views the list at `p`.
    public init(_ p: UnsafeMutablePointer<AudioBufferList>) {
        unsafeMutablePointer = p
    }

    /// Views the list at `p`; nil for nil.
    public init?(_ p: UnsafeMutablePointer<AudioBufferList>?) {
        guard let p else { return nil }
        self.init(p)
    }

    /// The list, read-only.
    public var unsafePointer: UnsafePointer<AudioBufferList> { UnsafePointer(unsafeMutablePointer) }

    /// How many buffers the list holds (its `mNumberBuffers`).
    public var count: Int {
        get { Int(unsafeMutablePointer.pointee.mNumberBuffers) }
        nonmutating set { unsafeMutablePointer.pointee.mNumberBuffers = UInt32(newValue) }
    }

    /// 0.
    public var startIndex: Int { 0 }
    /// `count`.
    public var endIndex: Int { count }

    /// The buffer at `index` (within `count`).
    public subscript(index: Int) -> AudioBuffer {
        get {
            Misuse.check(index >= 0 && index < count, .audioBufferIndexOutOfRange(index: index))
            return buffersStart[index]
        }
        nonmutating set {
            Misuse.check(index >= 0 && index < count, .audioBufferIndexOutOfRange(index: index))
            buffersStart[index] = newValue
        }
    }

    /// Where the buffers begin: the list's `mBuffers`.
    var buffersStart: UnsafeMutablePointer<AudioBuffer> {
        (UnsafeMutableRawPointer(unsafeMutablePointer) + MemoryLayout<AudioBufferList>.offset(of: \.mBuffers)!)
            .assumingMemoryBound(to: AudioBuffer.self)
    }
}
