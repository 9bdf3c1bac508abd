import Foundation
import OpenCoreMedia

/// Makes a microphone's interleaved PCM sample buffers of a fixed frame count, stamped on the
/// host clock, recycling their memory: the one buffer factory of every audio backend.
final class PCMBufferMaker: @unchecked Sendable {
    /// The format of the buffers.
    let format: CaptureAudioFormat
    /// Frames in each buffer.
    let framesPerBuffer: Int
    private let formatDescription: CMFormatDescription
    private let blocks: RecyclingBlocks

    /// A maker of buffers of `framesPerBuffer` frames of `format`.
    init(format: CaptureAudioFormat, framesPerBuffer: Int) {
        self.format = format
        self.framesPerBuffer = framesPerBuffer
        formatDescription = format.formatDescription
        blocks = RecyclingBlocks(byteCount: framesPerBuffer * format.bytesPerFrame)
    }

    /// The buffer duration when `start` is given none: 10 ms.
    static let defaultBufferDuration = CMTime(value: 1, timescale: 100)

    /// Bytes of one buffer's samples.
    var byteCount: Int { blocks.byteCount }

    /// A block to fill with one buffer's samples; hand it to `makeBuffer(block:firstSample:)`
    /// or back with `discard(_:)`.
    func takeBlock() -> UnsafeMutableRawPointer { blocks.take() }

    /// Returns an unused block.
    func discard(_ block: UnsafeMutableRawPointer) { blocks.give(back: block) }

    /// The sample buffer of a filled block whose first frame is at host time
    /// `firstSample / sampleRate` seconds; it owns the block and recycles it when released.
    func makeBuffer(block: UnsafeMutableRawPointer, firstSample: UInt64) -> CMSampleBuffer? {
        let rate = CMTimeScale(format.sampleRate)
        let blocks = self.blocks
        let dataBuffer = CMBlockBuffer(wrapping: block, length: blocks.byteCount, release: { blocks.give(back: block) })
        var timing = CMSampleTimingInfo(
            duration: CMTime(value: 1, timescale: rate),
            presentationTimeStamp: CMTime(value: CMTimeValue(firstSample), timescale: rate),
            decodeTimeStamp: .invalid)
        var size = format.bytesPerFrame
        var sampleBuffer: CMSampleBuffer?
        CMSampleBufferCreateReady(
            allocator: nil, dataBuffer: dataBuffer, formatDescription: formatDescription, sampleCount: framesPerBuffer,
            sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &size,
            sampleBufferOut: &sampleBuffer)
        return sampleBuffer
    }
}

/// Fixed-size memory blocks handed back when their block buffer goes away, and reused.
final class RecyclingBlocks: @unchecked Sendable {
    let byteCount: Int
    private let lock = NSLock()
    private var free: [UnsafeMutableRawPointer] = []
    /// Free blocks kept for reuse; more are freed.
    private let keep = 64

    init(byteCount: Int) {
        self.byteCount = byteCount
    }

    deinit {
        free.forEach { $0.deallocate() }
    }

    func take() -> UnsafeMutableRawPointer {
        if let block = lock.withLock({ free.popLast() }) { return block }
        return UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
    }

    func give(back block: UnsafeMutableRawPointer) {
        let kept = lock.withLock { () -> Bool in
            guard free.count < keep else { return false }
            free.append(block)
            return true
        }
        if !kept { block.deallocate() }
    }
}

extension CaptureDeviceBackend {
    /// What a microphone's `start` is asked for, checked: the audio format, which must be one
    /// of `formats`, or for a microphone whose server converts (`convertsAudioFormats`) any rate
    /// from 8 to 192 kHz and 1 to 8 channels of one of its sample formats (else
    /// `unsupportedFormat`), and the frames of a buffer lasting
    /// `bufferDuration` (nil: `PCMBufferMaker.defaultBufferDuration`), from one sample to one
    /// second (else `unsupportedFrameDuration`).
    func audioRequest(_ format: CaptureFormat,
                      bufferDuration: CMTime?) throws(CaptureDeviceError) -> (format: CaptureAudioFormat, framesPerBuffer: Int) {
        guard case .audio(let audio) = format,
              formats.contains(format) || (convertsAudioFormats && (8_000...192_000).contains(audio.sampleRate)
                  && (1...8).contains(audio.channelCount) && audioFormats.contains { $0.sampleFormat == audio.sampleFormat })
        else {
            throw CaptureDeviceError(.unsupportedFormat, "\(localizedName) has no format \(format)")
        }
        let duration = bufferDuration ?? PCMBufferMaker.defaultBufferDuration
        let frames = duration.isNumeric && duration.timescale > 0
            ? Int((duration.seconds * Double(audio.sampleRate)).rounded()) : 0
        guard frames >= 1, frames <= audio.sampleRate else {
            throw CaptureDeviceError(.unsupportedFrameDuration,
                                     "\(localizedName) buffers last from one sample to one second, not \(duration.seconds) s")
        }
        return (audio, frames)
    }
}
