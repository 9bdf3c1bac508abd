import Foundation
import OpenCoreMedia

/// The block a sink node receives audio with: the time of the first frame, the frames, and the
/// buffer list holding them (deinterleaved 32-bit float, one buffer a channel); returns `noErr`
/// or an error code.
public typealias AVAudioSinkNodeReceiverBlock = (UnsafePointer<AudioTimeStamp>, AVAudioFrameCount, UnsafePointer<AudioBufferList>) -> OSStatus

/// A node that hands what reaches its input to a block, on the render thread, each cycle: for
/// recognizers, meters and network senders that want the samples as they are rendered. The
/// block must not wait, allocate or take locks others hold long.
open class AVAudioSinkNode: AVAudioNode, @unchecked Sendable {
    private let receiverBlock: AVAudioSinkNodeReceiverBlock
    /// The buffer list handed to the block; made for the input's channel count.
    private var list: UnsafeMutableAudioBufferListPointer?
    private var time = AudioTimeStamp()

    /// A node handing its input to `block`.
    public init(receiverBlock block: @escaping AVAudioSinkNodeReceiverBlock) {
        receiverBlock = block
        super.init(inputs: 1, outputs: 0)
    }

    deinit {
        if let list { UnsafeMutableRawPointer(list.unsafeMutablePointer).deallocate() }
    }

    override func inputWasConnected(bus: AVAudioNodeBus, format: AVAudioFormat) {
        if let list { UnsafeMutableRawPointer(list.unsafeMutablePointer).deallocate() }
        list = AudioBufferList.allocate(maximumBuffers: Int(format.channelCount))
    }

    /// Pulls the cycle's input and hands it to the block (render thread, graph lock held).
    func receive(frames: Int, cycle: RenderCycle, graph: EngineGraph) {
        guard let list, let connection = graph.connection(into: self, bus: 0) else { return }
        let rate = connection.format.sampleRate
        let count = rate == cycle.sampleRate ? frames : Int((Double(frames) * rate / cycle.sampleRate).rounded())
        guard let input = graph.pull(into: self, bus: 0, frames: count, cycle: cycle) else { return }
        for channel in 0..<min(list.count, input.channelCount) {
            list[channel] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(input.frames * MemoryLayout<Float>.size),
                                        mData: UnsafeMutableRawPointer(input.planes[channel]))
        }
        beginRender(cycle, rate: rate)
        time = AudioTimeStamp(mSampleTime: Float64(renderedFrames), mHostTime: cycle.hostTime, mRateScalar: 1, mWordClockTime: 0,
                              mSMPTETime: SMPTETime(), mFlags: [.sampleTimeValid, .hostTimeValid], mReserved: 0)
        renderedFrames += Int64(input.frames)
        _ = receiverBlock(&time, AVAudioFrameCount(input.frames), list.unsafePointer)
    }
}
