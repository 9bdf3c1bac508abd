import Foundation
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
    private var samples: [CMSampleBuffer] = []
    private var head = 0
    private var bufferedFrames = 0
    private var ended = false
    private var stopped = false
    /// How many frames are read ahead at most.
    private let limit: Int

    /// Starts reading `output` ahead, at most `limit` frames.
    init(output: AVAssetReaderOutput, limit: Int) {
        self.limit = limit
        let thread = Thread { [self] in read(output) }
        thread.name = "OpenAVFoundation.AVPlayer.sound"
        thread.start()
    }

    private func read(_ output: AVAssetReaderOutput) {
        while condition.withLock({ () -> Bool in
            while !stopped && bufferedFrames >= limit { condition.wait() }
            return !stopped
        }), let sample = output.copyNextSampleBuffer() {
            condition.withLock {
                samples.append(sample)
                bufferedFrames += sample.numSamples
            }
        }
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }

    /// The next sample, without waiting.
    func next() -> Next {
        condition.withLock {
            guard head < samples.count else { return ended ? .end : .waiting }
            let sample = samples[head]
            head += 1
            if head == samples.count {
                samples.removeAll(keepingCapacity: true)
                head = 0
            }
            bufferedFrames -= sample.numSamples
            condition.broadcast()
            return .sample(sample)
        }
    }

    /// How many frames are at hand, and whether reading has ended.
    var buffered: (frames: Int, ended: Bool) { condition.withLock { (bufferedFrames, ended) } }

    /// Stops reading ahead (the reader is cancelled by its owner, which ends a read under way).
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}
