/// `CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer` flag: every buffer 16-byte aligned.
/// Here every buffer is as aligned as the sample buffer's memory: a contiguous copy, when one is
/// made, is aligned; accepted for Apple's code.
public let kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment: UInt32 = 1

/// Fills `bufferListOut` with buffers pointing into a linear PCM sample buffer's samples: one
/// buffer of interleaved channels, or one buffer a channel for non-interleaved audio. The
/// memory stays valid while `blockBufferOut`'s block buffer (required) lives: the sample
/// buffer's own when its data is contiguous, else a contiguous copy. With `bufferListOut` nil,
/// only `bufferListSizeNeededOut` is set.
///
/// Errors: `kCMSampleBufferError_ArrayTooSmall` (the list has less room than needed),
/// `kCMSampleBufferError_InvalidMediaFormat` (not linear PCM), `kCMSampleBufferError_BufferNotReady`,
/// `kCMSampleBufferError_RequiredParameterMissing` (no data, or no `blockBufferOut`).
@discardableResult
public func CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
    _ sbuf: CMSampleBuffer, bufferListSizeNeededOut: UnsafeMutablePointer<Int>?,
    bufferListOut: UnsafeMutablePointer<AudioBufferList>?, bufferListSize: Int,
    blockBufferAllocator blockBufferStructureAllocator: CFAllocator?,
    blockBufferMemoryAllocator blockBufferBlockAllocator: CFAllocator?,
    flags: UInt32, blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>?
) -> OSStatus {
    guard let format = CMSampleBufferGetFormatDescription(sbuf),
          let description = CMAudioFormatDescriptionGetStreamBasicDescription(format)?.pointee,
          description.mFormatID == kAudioFormatLinearPCM
    else { return kCMSampleBufferError_InvalidMediaFormat }
    let channels = max(1, Int(description.mChannelsPerFrame))
    let nonInterleaved = description.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
    let count = nonInterleaved ? channels : 1
    let needed = AudioBufferList.sizeInBytes(maximumBuffers: count)
    bufferListSizeNeededOut?.pointee = needed
    guard let bufferListOut else { return noErr }
    guard bufferListSize >= needed else { return kCMSampleBufferError_ArrayTooSmall }
    guard CMSampleBufferDataIsReady(sbuf) else { return kCMSampleBufferError_BufferNotReady }
    guard let data = CMSampleBufferGetDataBuffer(sbuf), let blockBufferOut else { return kCMSampleBufferError_RequiredParameterMissing }
    let length = CMBlockBufferGetDataLength(data)
    var block = data
    if length > 0, !CMBlockBufferIsRangeContiguous(data, atOffset: 0, length: length) {
        var contiguous: CMBlockBuffer?
        let status = CMBlockBufferCreateContiguous(allocator: blockBufferStructureAllocator, sourceBuffer: data,
                                                   blockAllocator: blockBufferBlockAllocator, customBlockSource: nil,
                                                   offsetToData: 0, dataLength: length, flags: 0, blockBufferOut: &contiguous)
        guard status == noErr, let contiguous else { return status }
        block = contiguous
    }
    var start: UnsafeMutablePointer<CChar>?
    if length > 0 {
        let status = CMBlockBufferGetDataPointer(block, atOffset: 0, lengthAtOffsetOut: nil, totalLengthOut: nil, dataPointerOut: &start)
        guard status == noErr else { return status }
    }
    let list = UnsafeMutableAudioBufferListPointer(bufferListOut)
    list.count = count
    let bytes = length / count
    for index in 0..<count {
        list[index] = AudioBuffer(mNumberChannels: nonInterleaved ? 1 : UInt32(channels), mDataByteSize: UInt32(bytes),
                                  mData: start.map { UnsafeMutableRawPointer($0) + index * bytes })
    }
    blockBufferOut.pointee = block
    return noErr
}

extension CMSampleBuffer {
    /// Calls `body` with an audio buffer list pointing into the linear PCM samples and the block
    /// buffer that keeps that memory alive, as
    /// `CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer` fills them: one buffer of
    /// interleaved channels, or one a channel. The list lives only during the call.
    ///
    /// Throws an `NSError` in `NSOSStatusErrorDomain` with the function's status
    /// (`kCMSampleBufferError_InvalidMediaFormat` when the samples are not linear PCM).
    public func withAudioBufferList<R>(
        blockBufferMemoryAllocator: CFAllocator? = kCFAllocatorDefault, flags: CMSampleBuffer.Flags = [],
        body: (UnsafeMutableAudioBufferListPointer, CMBlockBuffer) throws -> R
    ) throws -> R {
        var size = 0
        var status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            self, bufferListSizeNeededOut: &size, bufferListOut: nil, bufferListSize: 0, blockBufferAllocator: nil,
            blockBufferMemoryAllocator: blockBufferMemoryAllocator, flags: flags.rawValue, blockBufferOut: nil)
        guard status == noErr else { throw CMSampleBuffer.error(status) }
        let list = AudioBufferList.allocate(maximumBuffers: max(1, (size - AudioBufferList.sizeInBytes(maximumBuffers: 1))
                                                                / MemoryLayout<AudioBuffer>.stride + 1))
        defer { list.unsafeMutablePointer.deallocate() }
        var block: CMBlockBuffer?
        status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            self, bufferListSizeNeededOut: nil, bufferListOut: list.unsafeMutablePointer, bufferListSize: size,
            blockBufferAllocator: nil, blockBufferMemoryAllocator: blockBufferMemoryAllocator, flags: flags.rawValue,
            blockBufferOut: &block)
        guard status == noErr, let block else { throw CMSampleBuffer.error(status == noErr ? kCMSampleBufferError_RequiredParameterMissing : status) }
        return try body(list, block)
    }
}
