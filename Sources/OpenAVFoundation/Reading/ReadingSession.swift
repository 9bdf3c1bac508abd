import Foundation
import HostSystem
import MediaEngine
import OpenCoreMedia

/// One pass of an asset reader over its file: the demuxer, and the packets read for one output
/// while another asked, kept in order until their output asks. Thread-safe: outputs may be read
/// from different threads, as the guide's reencoder does.
final class ReadingSession: @unchecked Sendable {
    /// How many packets a stream's queue holds before its ring first grows: a few hundred
    /// milliseconds of the other tracks of an interleaved file.
    private static let queuedPacketsAtFirst = 64

    private let lock = NSLock()
    private let demuxer: Demuxer
    private let spares: ReadingSpares
    /// The decoders handed out, by stream index (one each: an output reads one stream).
    private var decoders: [Int: Decoder] = [:]
    /// The packets of each stream read before its output asked for them, oldest first, by
    /// stream index; nil for the streams no output reads. They grow as needed (`grow`): a
    /// bound would stop the demuxer for the output that asks while another output has not yet
    /// taken its packets (a player's timed metadata, taken as its time comes, while its sound
    /// is read ahead), which GStreamer's multiqueue avoids by raising a full queue's limit
    /// while another queue of its demuxer is empty. What they hold is bounded by the file's
    /// interleaving and by how far apart its outputs are read.
    private var queues: [BoundedQueue<Packet>?]
    private var endOfFile = false
    /// The first read failure, after which every output ends.
    private(set) var failure: AVError?
    /// Whether `interrupt()` stopped the demuxer, which then reads nothing more.
    private var interrupted = false

    /// How far before its start decoded audio is read: after a jump a codec's first packet
    /// decodes wrong (AAC's and MP3's overlap with the packet before, Opus's pre-roll of 80 ms),
    /// so decoding begins earlier and the outputs cut what lies before the start.
    static let audioPreroll = CMTime(value: 1, timescale: 5)

    /// Reads the given streams of `contents`' file from `start` (the key frame before it, in
    /// `seekStream`; `audioPreroll` earlier still when `seekStream` is audio to be decoded) when
    /// it is past the file's beginning, through a demuxer the asset keeps (`ReadingSpares`)
    /// when there is one for it, otherwise through the file opened again.
    init(contents: AssetContents, streams: Set<Int>, start: CMTime, seekStream: Int?, decodesAudio: Bool = false) throws(AVError) {
        let preroll = decodesAudio ? Self.audioPreroll : .zero
        spares = contents.spares
        var first: [Packet] = []
        do throws(EngineError) {
            let seeking = seekStream != nil && start.isNumeric && start > contents.timelineOrigin
            var opened: Demuxer
            // An HTTP Live Stream's demuxer fetches only the variants read when it seeks: one
            // that read other tracks is not reused for a seek (the loading one, which has read
            // nothing yet, serves a reader from the start).
            let isHTTPLiveStream = contents.formatName == "hls"
            if let spare = contents.spares.takeDemuxer(seeking: seeking && !isHTTPLiveStream) {
                opened = spare
            } else if let url = contents.url {
                opened = try Demuxer(url: url, network: contents.network)
            } else {
                preconditionFailure("a reading session over an asset with no file (a composition reads its segments' files)")
            }
            if opened.isHTTPLiveStream {
                // Only the variant read is fetched.
                opened.readOnly(streams: streams)
            }
            if seeking, let seekStream {
                let target = max(contents.timelineOrigin, start - preroll)
                try opened.seek(to: target, inStream: seekStream)
                if opened.isHTTPLiveStream {
                    // FFmpeg 5.1 finds nothing after a seek in a stream of fMP4 segments: then
                    // the stream is read from its start instead (the outputs skip what lies
                    // before `start`), which costs the download of the segments before it.
                    first = try opened.readPacket().map { [$0] } ?? []
                    if first.isEmpty, let url = contents.url {
                        opened = try Demuxer(url: url, network: contents.network)
                        opened.readOnly(streams: streams)
                    }
                } else {
                    first = try Self.landOnKeyFrame(opened, target: target, stream: seekStream, origin: contents.timelineOrigin)
                }
            }
            demuxer = opened
        } catch {
            throw AVError(error, fallback: .failedToParse)
        }
        queues = (0..<((streams.max() ?? -1) + 1)).map {
            streams.contains($0) ? BoundedQueue(capacity: Self.queuedPacketsAtFirst, policy: .grow) : nil
        }
        for packet in first where packet.streamIndex < queues.count { _ = queues[packet.streamIndex]?.push(packet) }
    }

    /// After a seek to `target` in `stream`: the packets read up to the stream's first, when that
    /// one is a key frame shown no later than `target`. Containers without an index (MPEG
    /// program and transport streams) seek by the stamps of their packets, and land on
    /// whichever frame is stamped before `target`, from which nothing decodes until the next
    /// key frame, after `target`: the demuxer is moved back a second more each time (doubling,
    /// down to `origin`) until a key frame comes first.
    private static func landOnKeyFrame(_ demuxer: Demuxer, target: CMTime, stream: Int, origin: CMTime) throws(EngineError) -> [Packet] {
        var backoff = CMTime(value: 1, timescale: 1)
        var position = target
        while true {
            var read: [Packet] = []
            while read.count < 4096, let packet = try demuxer.readPacket() {
                read.append(packet)
                if packet.streamIndex == stream { break }
            }
            guard let landed = read.last, landed.streamIndex == stream, position > origin else { return read }
            let time = landed.presentationTime.isNumeric ? landed.presentationTime : landed.decodeTime
            if landed.isKeyFrame, !time.isNumeric || time <= target { return read }
            position = max(origin, position - backoff)
            backoff = backoff + backoff
            try demuxer.seek(to: position, inStream: stream)
        }
    }

    /// The demuxer and the decoders go back to the asset for the next reader, unless reading
    /// failed.
    deinit {
        if failure == nil && !interrupted && !demuxer.isHTTPLiveStream { spares.giveBack(demuxer, decoders: decoders) }
    }

    /// Stops the pass: a read blocked on the network gives up now, and nothing more is read.
    /// Safe from any thread, while another waits in `nextPacket(forStream:)`. A local file's
    /// reads do not wait, so its pass is left as it is: its demuxer and decoders then go back to
    /// the asset for the next reader (a player's seek reuses them) instead of being thrown away.
    func interrupt() {
        guard !demuxer.url.isFileURL else { return }
        demuxer.interrupt()
        lock.withLock { interrupted = true }
    }

    /// A decoder for a stream of the file: one a finished reader gave back, or a new one.
    func makeDecoder(forStream index: Int) throws(AVError) -> Decoder {
        do throws(EngineError) {
            lock.lock()
            defer { lock.unlock() }
            let decoder: Decoder
            if let spare = spares.takeDecoder(forStream: index) {
                decoder = spare
            } else {
                decoder = try demuxer.makeDecoder(forStream: index)
            }
            if decoders[index] == nil { decoders[index] = decoder }
            return decoder
        } catch {
            throw AVError(error, fallback: .decodeFailed)
        }
    }

    /// The next packet of stream `index` in decode order, or nil at the end of the file or
    /// after a read failure.
    func nextPacket(forStream index: Int) -> Packet? {
        lock.withLock {
            guard index >= 0, index < queues.count, queues[index] != nil else { return nil }
            if !queues[index]!.isEmpty { return queues[index]!.pop() }
            while !endOfFile, failure == nil, !interrupted {
                do throws(EngineError) {
                    guard let packet = try demuxer.readPacket() else {
                        endOfFile = true
                        return nil
                    }
                    let stream = packet.streamIndex
                    // This stream's queue is empty: its own packet goes straight out.
                    if stream == index { return packet }
                    if stream >= 0, stream < queues.count { _ = queues[stream]?.push(packet) }
                } catch {
                    failure = AVError(error, fallback: .failedToLoadMediaData)
                }
            }
            return nil
        }
    }
}
