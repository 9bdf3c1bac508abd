import Foundation
import MediaEngine
import OpenCoreMedia

/// One pass of an asset reader over its file: the demuxer, and the packets read for one output
/// while another asked, kept in order until their output asks. Thread-safe: outputs may be read
/// from different threads, as the guide's reencoder does.
final class ReadingSession: @unchecked Sendable {
    private let lock = NSLock()
    private let demuxer: Demuxer
    private var queues: [Int: [Packet]]
    private var heads: [Int: Int]
    private var endOfFile = false
    /// The first read failure, after which every output ends.
    private(set) var failure: AVError?

    /// Opens the file for the given streams and moves to `start` (at the key frame before it,
    /// in `seekStream`) when it is past the beginning.
    init(url: URL, streams: Set<Int>, start: CMTime, seekStream: Int?) throws(AVError) {
        do throws(EngineError) {
            demuxer = try Demuxer(url: url)
            if let seekStream, start.isNumeric, start > .zero {
                try demuxer.seek(to: start, inStream: seekStream)
            }
        } catch {
            throw AVError(error, fallback: .failedToParse)
        }
        queues = Dictionary(uniqueKeysWithValues: streams.map { ($0, []) })
        heads = Dictionary(uniqueKeysWithValues: streams.map { ($0, 0) })
    }

    /// Opens a decoder for a stream of the file.
    func makeDecoder(forStream index: Int) throws(AVError) -> Decoder {
        do throws(EngineError) {
            lock.lock()
            defer { lock.unlock() }
            return try demuxer.makeDecoder(forStream: index)
        } catch {
            throw AVError(error, fallback: .decodeFailed)
        }
    }

    /// The next packet of stream `index` in decode order, or nil at the end of the file or
    /// after a read failure.
    func nextPacket(forStream index: Int) -> Packet? {
        lock.withLock {
            while true {
                if let head = heads[index], let queue = queues[index], head < queue.count {
                    let packet = queue[head]
                    if head + 1 == queue.count {
                        // Drained: reuse the storage.
                        queues[index]!.removeAll(keepingCapacity: true)
                        heads[index] = 0
                    } else if head >= 64 {
                        queues[index]!.removeFirst(head + 1)
                        heads[index] = 0
                    } else {
                        heads[index] = head + 1
                    }
                    return packet
                }
                guard !endOfFile, failure == nil else { return nil }
                do throws(EngineError) {
                    guard let packet = try demuxer.readPacket() else {
                        endOfFile = true
                        return nil
                    }
                    queues[packet.streamIndex]?.append(packet)
                } catch {
                    failure = AVError(error, fallback: .failedToLoadMediaData)
                    return nil
                }
            }
        }
    }
}
