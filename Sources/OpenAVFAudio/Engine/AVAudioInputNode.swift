import CaptureDevices
import Foundation
import HostSystem
import OpenCoreMedia

/// The block an input node pulls its audio from in manual rendering mode: the frames wanted;
/// a buffer list holding them in the format given with the block, or nil when there is none.
public typealias AVAudioIONodeInputBlock = (AVAudioFrameCount) -> UnsafePointer<AudioBufferList>?

/// The engine's input: the audio session's current input (a microphone through the sound
/// server or ALSA, or the Test Tone Microphone), captured from when the engine starts with the
/// node in use (connected or tapped) until it stops. Its output bus has the input's format:
/// its rate and channel count, 32-bit float.
///
/// An engine whose output plays renders the input in its cycles, from a queue the capture
/// fills; an engine that only listens (the input tapped, or connected to a sink node, and
/// nothing reaching the output) renders a cycle each time the input delivers, so taps and sink
/// nodes get the samples with the host times they were captured at. In manual rendering mode
/// the input comes from the block given to `setManualRenderingInputPCMFormat(_:inputBlock:)`.
open class AVAudioInputNode: AVAudioIONode, AVAudioMixing, @unchecked Sendable {
    /// What the capture hands the render thread: up to a second of samples.
    private struct Queue {
        var frames = 0
        var hostTimeOfFirst: UInt64 = 0
    }

    /// The input's format, found when the node was made (48 kHz mono when there is no input).
    private let format: AVAudioFormat
    private let queued: RenderBus
    private let queue = Locked(Queue())
    private var device: (any CaptureDeviceBackend)?
    private var manualInput: (format: AVAudioFormat, block: AVAudioIONodeInputBlock)?

    /// The node of the audio session's current input.
    init() {
        let device = AVAudioSession.sharedInstance().recordingDevice()?.device
        let audio = device?.audioFormats.first { $0.sampleFormat == .float32 } ?? device?.audioFormats.first
        format = AVAudioFormat(standardFormatWithSampleRate: Double(audio?.sampleRate ?? 48_000),
                               channels: AVAudioChannelCount(audio?.channelCount ?? 1))!
        queued = RenderBus(channelCount: Int(format.channelCount), capacity: Int(format.sampleRate))
        super.init(inputs: 0, outputs: 1)
    }

    override var defaultFormat: AVAudioFormat { manualInput?.format ?? format }

    /// Pulls the input from `block` in manual rendering mode, in `format`; false when the
    /// format is not 32-bit float linear PCM.
    open func setManualRenderingInputPCMFormat(_ format: AVAudioFormat, inputBlock block: @escaping AVAudioIONodeInputBlock) -> Bool {
        guard format.commonFormat == .pcmFormatFloat32 else { return false }
        let set = { self.manualInput = (format, block) }
        if let engine { engine.graph.withLock(set) } else { set() }
        return true
    }

    // MARK: Capture

    /// Starts capturing from the session's input (the engine starts with the node in use);
    /// `drive` renders a cycle for each delivery when nothing else does. Throws when there is
    /// no input or it cannot be opened.
    func startCapture(drive: (@Sendable (Int, UInt64) -> Void)?) throws {
        guard let device = AVAudioSession.sharedInstance().recordingDevice()?.device,
              let audio = device.audioFormats.first(where: {
                  $0.sampleFormat == .float32 && $0.sampleRate == Int(format.sampleRate) && $0.channelCount == Int(format.channelCount)
              }) else {
            throw AVAudioEngine.error(kAudioUnitErr_FailedInitialization, "the audio session has no input in \(format)")
        }
        queue.withLock { $0 = Queue() }
        let duration = AVAudioSession.sharedInstance().ioBufferDuration
        try device.start(format: .audio(audio), frameDuration: CMTime(seconds: duration, preferredTimescale: Int32(audio.sampleRate))) {
            [weak self] event in
            guard let self, case .success(let sample) = event, let buffer = sample.sampleBuffer else { return }
            let (frames, hostTime) = push(buffer)
            if frames > 0 { drive?(frames, hostTime) }
        }
        self.device = device
    }

    /// Stops capturing.
    func stopCapture() {
        device?.stop()
        device = nil
    }

    /// Adds a captured buffer (interleaved float) to the queue; its frames and host time.
    private func push(_ buffer: CMSampleBuffer) -> (Int, UInt64) {
        guard let block = buffer.dataBuffer else { return (0, 0) }
        let channels = queued.channelCount
        let frames = buffer.numSamples
        let hostTime = UInt64(max(0, buffer.presentationTimeStamp.seconds) * 1e9)
        var pointer: UnsafeMutablePointer<CChar>?
        var length = 0
        guard CMBlockBufferGetDataPointer(block, atOffset: 0, lengthAtOffsetOut: &length, totalLengthOut: nil, dataPointerOut: &pointer) == 0,
              let pointer, length >= frames * channels * 4 else { return (0, 0) }
        let samples = UnsafeRawPointer(pointer).assumingMemoryBound(to: Float.self)
        queue.withLock { state in
            // When the render falls a second behind, the oldest frames go.
            let room = queued.capacity - state.frames
            if frames > room {
                let dropped = min(state.frames, frames - room)
                for channel in 0..<channels {
                    queued.planes[channel].update(from: queued.planes[channel] + dropped, count: state.frames - dropped)
                }
                state.frames -= dropped
                state.hostTimeOfFirst += UInt64(Double(dropped) / format.sampleRate * 1e9)
            }
            let count = min(frames, queued.capacity - state.frames)
            for channel in 0..<channels {
                let plane = queued.planes[channel] + state.frames
                for frame in 0..<count { plane[frame] = samples[frame * channels + channel] }
            }
            if state.frames == 0 { state.hostTimeOfFirst = hostTime }
            state.frames += count
        }
        return (frames, hostTime)
    }

    // MARK: Rendering

    override func render(bus: AVAudioNodeBus, frames: Int, into target: RenderBus, cycle: RenderCycle, graph: EngineGraph) {
        if let manualInput {
            renderManual(manualInput, frames: frames, into: target)
            return
        }
        queue.withLock { state in
            let count = min(frames, state.frames)
            for channel in 0..<target.channelCount {
                let plane = queued.planes[min(channel, queued.channelCount - 1)]
                target.planes[channel].update(from: plane, count: count)
                (target.planes[channel] + count).update(repeating: 0, count: frames - count)
            }
            for channel in 0..<queued.channelCount {
                queued.planes[channel].update(from: queued.planes[channel] + count, count: state.frames - count)
            }
            state.frames -= count
            state.hostTimeOfFirst += UInt64(Double(count) / format.sampleRate * 1e9)
        }
    }

    /// Renders from the manual rendering input block (deinterleaved or interleaved float).
    private func renderManual(_ input: (format: AVAudioFormat, block: AVAudioIONodeInputBlock), frames: Int, into target: RenderBus) {
        guard let list = input.block(AVAudioFrameCount(frames)) else { return target.silence(frames) }
        let buffers = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list))
        let channels = Int(input.format.channelCount)
        for channel in 0..<target.channelCount {
            let source = min(channel, channels - 1)
            let interleaved = input.format.isInterleaved
            guard let data = buffers[interleaved ? 0 : source].mData?.assumingMemoryBound(to: Float.self) else {
                target.planes[channel].update(repeating: 0, count: frames)
                continue
            }
            let available = Int(buffers[interleaved ? 0 : source].mDataByteSize) / 4 / (interleaved ? channels : 1)
            let count = min(frames, available)
            for frame in 0..<count { target.planes[channel][frame] = interleaved ? data[frame * channels + source] : data[frame] }
            (target.planes[channel] + count).update(repeating: 0, count: frames - count)
        }
    }
}
