import Foundation
import OpenCoreMedia

/// The block a source node renders with: set the flag when the output is silence, the time of
/// the first frame, the frames wanted, and the buffer list to fill (deinterleaved 32-bit float,
/// one buffer a channel, in the node's format); returns `noErr` or an error code.
public typealias AVAudioSourceNodeRenderBlock = (UnsafeMutablePointer<ObjCBool>, UnsafePointer<AudioTimeStamp>, AVAudioFrameCount,
                                                 UnsafeMutablePointer<AudioBufferList>) -> OSStatus

/// A node whose output a block renders, on the render thread, each cycle: synthesizers, test
/// tones, audio from elsewhere. The block must not wait, allocate or take locks others hold long.
open class AVAudioSourceNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    private let renderBlock: AVAudioSourceNodeRenderBlock
    private let format: AVAudioFormat?
    /// The buffer list handed to the block, over the output bus's planes; made with the bus.
    private var list: UnsafeMutableAudioBufferListPointer?
    private var time = AudioTimeStamp()
    private var isSilence = ObjCBool(false)

    /// A node rendering with `block` in the format its output is connected in.
    public init(renderBlock block: @escaping AVAudioSourceNodeRenderBlock) {
        renderBlock = block
        format = nil
        super.init(inputs: 0, outputs: 1)
    }

    /// A node rendering with `block` in `format` (32-bit float), which is also its output's
    /// format until connected otherwise.
    public init(format: AVAudioFormat, renderBlock block: @escaping AVAudioSourceNodeRenderBlock) {
        precondition(format.commonFormat == .pcmFormatFloat32, "AVAudioSourceNode: the format is 32-bit float linear PCM (\(format))")
        renderBlock = block
        self.format = AVAudioFormat(standardFormatWithSampleRate: format.sampleRate, channels: format.channelCount)
        super.init(inputs: 0, outputs: 1)
    }

    deinit {
        if let list { UnsafeMutableRawPointer(list.unsafeMutablePointer).deallocate() }
    }

    override var defaultFormat: AVAudioFormat { format ?? AVAudioNode.standardStereo }

    override func prepareRendering(maximumFrames: Int) {
        super.prepareRendering(maximumFrames: maximumFrames)
        guard let bus = renderBuses[0] else { return }
        if let list { UnsafeMutableRawPointer(list.unsafeMutablePointer).deallocate() }
        let made = AudioBufferList.allocate(maximumBuffers: bus.channelCount)
        for channel in 0..<bus.channelCount {
            made[channel] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 0, mData: UnsafeMutableRawPointer(bus.planes[channel]))
        }
        list = made
    }

    override func render(bus: AVAudioNodeBus, frames: Int, into target: RenderBus, cycle: RenderCycle, graph: EngineGraph) {
        guard let list else { return target.silence(frames) }
        for channel in 0..<target.channelCount {
            list[channel].mData = UnsafeMutableRawPointer(target.planes[channel])
            list[channel].mDataByteSize = UInt32(frames * MemoryLayout<Float>.size)
        }
        time = AudioTimeStamp(mSampleTime: Float64(renderedFrames), mHostTime: cycle.hostTime, mRateScalar: 1, mWordClockTime: 0,
                              mSMPTETime: SMPTETime(), mFlags: [.sampleTimeValid, .hostTimeValid, .rateScalarValid], mReserved: 0)
        isSilence = false
        let status = renderBlock(&isSilence, &time, AVAudioFrameCount(frames), list.unsafeMutablePointer)
        if status != 0 || isSilence.boolValue { target.silence(frames) }
    }
}
