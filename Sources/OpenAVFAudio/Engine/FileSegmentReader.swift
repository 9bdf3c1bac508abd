import Foundation
import HostSystem

/// The frames of a file segment a player plays, decoded ahead of the render thread: a serial
/// queue reads the file (its own `AVAudioFile`, so the caller's read position is untouched) in
/// chunks of about a third of a second, converted to the player's format (`AVAudioConverter`),
/// and keeps about a second ready; the render thread copies from the ready chunks and never
/// reads the file. Offline, a render that finds nothing ready reads the next chunk itself.
final class FileSegmentReader: @unchecked Sendable {
    /// The frames a chunk holds, at the player's rate.
    private static let chunkFrames = 16_384
    /// The chunks kept ready.
    private static let readyChunks = 3

    private struct Ready {
        var chunks: [AVAudioPCMBuffer] = []
        /// Frames of the first chunk already copied out.
        var consumed = 0
        /// Whether the segment has been read to its end (or failed).
        var isFinished = false
        /// Whether a read is queued or under way.
        var isReading = false
    }

    private let file: AVAudioFile
    private let format: AVAudioFormat
    private let converter: AVAudioConverter?
    private var remaining: AVAudioFramePosition
    private let ready = Locked(Ready())
    private let queue = DispatchQueue(label: "OpenAVFAudio.AVAudioPlayerNode file")
    /// Wakes the queue to read ahead: adding to a dispatch source allocates nothing, where a
    /// block sent to the queue would, on the render thread.
    private let wakeup: any DispatchSourceUserDataAdd

    /// A reader of `frameCount` frames of `file` from `startingFrame`, converted to `format`.
    /// Throws when the file cannot be opened again.
    init(file source: AVAudioFile, startingFrame: AVAudioFramePosition, frameCount: AVAudioFrameCount, format: AVAudioFormat) throws {
        file = try AVAudioFile(forReading: source.url, commonFormat: .pcmFormatFloat32, interleaved: false)
        file.framePosition = startingFrame
        remaining = min(AVAudioFramePosition(frameCount), max(0, file.length - startingFrame))
        self.format = format
        let processing = file.processingFormat
        converter = processing.sampleRate == format.sampleRate && processing.channelCount == format.channelCount
            ? nil : AVAudioConverter(from: processing, to: format)
        wakeup = DispatchSource.makeUserDataAddSource(queue: queue)
        wakeup.setEventHandler { [weak self] in
            guard let self else { return }
            while readChunk() {}
            ready.withLock { $0.isReading = false }
        }
        wakeup.activate()
        refill()
    }

    deinit {
        wakeup.cancel()
    }

    /// Copies up to `frames` frames into `target` from frame `offset` on; how many, and whether
    /// the segment is done (all copied). `wait` (offline) reads on the calling thread when
    /// nothing is ready.
    func copy(into target: RenderBus, at offset: Int, frames: Int, wait: Bool) -> (copied: Int, finished: Bool) {
        var copied = 0
        while copied < frames {
            let step: (Int, Bool)? = ready.withLock { state in
                guard let chunk = state.chunks.first, let planes = chunk.floatChannelData else {
                    return state.isFinished ? (0, true) : nil
                }
                let count = min(frames - copied, Int(chunk.frameLength) - state.consumed)
                for channel in 0..<min(target.channelCount, Int(chunk.format.channelCount)) {
                    (target.planes[channel] + offset + copied).update(from: planes[channel] + state.consumed, count: count)
                }
                state.consumed += count
                if state.consumed == Int(chunk.frameLength) {
                    state.chunks.removeFirst()
                    state.consumed = 0
                }
                return (count, false)
            }
            guard let (count, finished) = step else {
                // Nothing ready yet: offline reads it now, real time plays silence meanwhile.
                if wait { queue.sync { readChunk() } } else { break }
                continue
            }
            if finished { return (copied, true) }
            copied += count
        }
        refill()
        let finished = ready.withLock { $0.isFinished && $0.chunks.isEmpty }
        return (copied, finished)
    }

    /// Queues a read when fewer chunks than wanted are ready.
    private func refill() {
        let start = ready.withLock { state in
            guard !state.isFinished, !state.isReading, state.chunks.count < Self.readyChunks else { return false }
            state.isReading = true
            return true
        }
        guard start else { return }
        wakeup.add(data: 1)
    }

    /// Reads and converts the next chunk (on the queue); whether more chunks are wanted.
    @discardableResult
    private func readChunk() -> Bool {
        if ready.withLock({ $0.isFinished || $0.chunks.count >= Self.readyChunks }) { return false }
        let chunk = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(Self.chunkFrames))!
        do {
            if let converter {
                var failure: NSError?
                let status = converter.convert(to: chunk, error: &failure) { [self] packets, inputStatus in
                    guard remaining > 0 else {
                        inputStatus.pointee = .endOfStream
                        return nil
                    }
                    let count = min(AVAudioFramePosition(packets), remaining)
                    guard let input = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(count)),
                          (try? file.read(into: input, frameCount: AVAudioFrameCount(count))) != nil, input.frameLength > 0 else {
                        inputStatus.pointee = .endOfStream
                        return nil
                    }
                    remaining -= AVAudioFramePosition(input.frameLength)
                    inputStatus.pointee = .haveData
                    return input
                }
                if let failure { throw failure }
                let done = status == .endOfStream || status == .error
                ready.withLock { state in
                    if chunk.frameLength > 0 { state.chunks.append(chunk) }
                    state.isFinished = done
                }
            } else {
                let count = min(AVAudioFramePosition(Self.chunkFrames), remaining)
                if count > 0 { try file.read(into: chunk, frameCount: AVAudioFrameCount(count)) }
                remaining -= AVAudioFramePosition(chunk.frameLength)
                ready.withLock { state in
                    if chunk.frameLength > 0 { state.chunks.append(chunk) }
                    state.isFinished = remaining <= 0 || chunk.frameLength == 0
                }
            }
        } catch {
            ready.withLock { $0.isFinished = true }
        }
        return ready.withLock { !$0.isFinished && $0.chunks.count < Self.readyChunks }
    }
}
