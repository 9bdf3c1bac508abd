import Foundation
import HostSystem
import OpenCoreMedia

/// Sound of an item on the network, read ahead on a thread of its own, so that the player's
/// thread never waits for the network: it takes what has arrived, and sees when nothing has
/// (a stall) rather than blocking on the read.
final class SoundReadAhead: @unchecked Sendable {
    /// What the next sample is.
    enum Next {
        case sample(CMSampleBuffer)
        /// Nothing has arrived yet.
        case waiting
        /// The reading ended (at the end, or failed: the reader says which).
        case end
    }

    private let condition = NSCondition()
    /// The samples read ahead, at most `duration` of sound (the reading thread waits for room).
    private var samples: BoundedQueue<CMSampleBuffer>
    private var ended = false
    private var stopped = false

    /// Starts reading `output` (PCM at `sampleRate`) ahead, at most `duration` of sound.
    init(output: AVAssetReaderOutput, sampleRate: Int, duration: CMTime) {
        samples = BoundedQueue(limits: .init(count: 4096, duration: duration), policy: .block) { sample in
            (CMSampleBufferGetTotalSampleSize(sample), CMTime(value: CMTimeValue(sample.numSamples), timescale: CMTimeScale(sampleRate)))
        }
        let thread = Thread { [self] in read(output) }
        thread.name = "OpenAVFoundation.AVPlayer.sound"
        thread.start()
    }

    private func read(_ output: AVAssetReaderOutput) {
        while condition.withLock({ () -> Bool in
            while !stopped && samples.isFull { condition.wait() }
            return !stopped
        }), let sample = output.copyNextSampleBuffer() {
            condition.withLock { _ = samples.push(sample) }
        }
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }

    /// The next sample, without waiting.
    func next() -> Next {
        condition.withLock {
            guard let sample = samples.pop() else { return ended ? .end : .waiting }
            condition.broadcast()
            return .sample(sample)
        }
    }

    /// How much sound is at hand, and whether reading has ended.
    var buffered: (duration: CMTime, ended: Bool) { condition.withLock { (samples.duration, ended) } }

    /// Stops reading ahead (the reader is cancelled by its owner, which ends a read under way).
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}
