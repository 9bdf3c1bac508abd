import Foundation
import MediaEngine
import OpenCoreMedia

/// One pass of an asset reader over its file: the demuxer, and the packets read for one output
/// while another asked, kept in order until their output asks. Thread-safe: outputs may be read
/// from different threads, as the guide's reencoder does.
final class ReadingSession: @unchecked Sendable {
    /// The packets of one stream read before its output asked for them, oldest first.
    private struct PacketQueue {
        private var packets: [Packet] = []
        private var head = 0

        mutating func append(_ packet: Packet) { packets.append(packet) }

        mutating func popFirst() -> Packet? {
            guard head < packets.count else { return nil }
            let packet = packets[head]
            head += 1
            if head == packets.count {
                // Drained: reuse the storage.
                packets.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 {
                packets.removeFirst(head)
                head = 0
            }
            return packet
        }
    }

    private let lock = NSLock()
    private let demuxer: Demuxer
    /// By stream index; nil for the streams no output reads.
    private var queues: [PacketQueue?]
    private var endOfFile = false
    /// The first read failure, after which every output ends.
    private(set) var failure: AVError?

    /// Reads the given streams of `contents`' file, through the demuxer that loaded the asset
    /// when no reader has taken it yet (otherwise the file is opened again), from `start` (the
    /// key frame before it, in `seekStream`) when it is past the file's beginning.
    init(contents: AssetContents, streams: Set<Int>, start: CMTime, seekStream: Int?) throws(AVError) {
        do throws(EngineError) {
            let opened: Demuxer
            if let spare = contents.spareDemuxer.take() {
                opened = spare
            } else {
                opened = try Demuxer(url: contents.url)
            }
            if let seekStream, start.isNumeric, start > contents.timelineOrigin {
                try opened.seek(to: start, inStream: seekStream)
            }
            demuxer = opened
        } catch {
            throw AVError(error, fallback: .failedToParse)
        }
        queues = (0..<((streams.max() ?? -1) + 1)).map { streams.contains($0) ? PacketQueue() : nil }
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
            guard index >= 0, index < queues.count, queues[index] != nil else { return nil }
            if let packet = queues[index]!.popFirst() { return packet }
            while !endOfFile, failure == nil {
                do throws(EngineError) {
                    guard let packet = try demuxer.readPacket() else {
                        endOfFile = true
                        return nil
                    }
                    let stream = packet.streamIndex
                    // This stream's queue is empty: its own packet goes straight out.
                    if stream == index { return packet }
                    if stream >= 0, stream < queues.count { queues[stream]?.append(packet) }
                } catch {
                    failure = AVError(error, fallback: .failedToLoadMediaData)
                }
            }
            return nil
        }
    }
}
