import Foundation
import OpenCoreMedia

/// Reads the media of an asset as sample buffers, through the outputs added to it.
///
/// Every output is read through one pass over the file: samples read for one output while
/// another asked wait in order, so outputs may be read from different threads (as the guide's
/// reencoder does) but should all be read.
open class AVAssetReader: NSObject, @unchecked Sendable {
    /// Where a reader stands.
    public enum Status: Int, Sendable {
        /// Outputs may be added; reading has not started.
        case unknown = 0
        /// Reading is under way.
        case reading = 1
        /// Every output has delivered its last sample.
        case completed = 2
        /// Reading failed; `error` says why.
        case failed = 3
        /// `cancelReading()` stopped reading.
        case cancelled = 4
    }

    private let lock = NSLock()
    private var statusValue: Status = .unknown
    private var errorValue: Error?
    private var outputList: [AVAssetReaderOutput] = []
    private var finishedOutputs = Set<ObjectIdentifier>()
    private var pendingRanges: [ObjectIdentifier: [CMTimeRange]] = [:]
    /// The passes over the file under way (held by their outputs' pipelines), interrupted by
    /// `cancelReading()`.
    private var sessions: [WeakSession] = []

    /// A pass the reader does not keep alive.
    private struct WeakSession {
        weak var session: ReadingSession?
    }

    /// The asset being read.
    public let asset: AVAsset

    /// The part of the asset to read; the whole asset by default. Set it before `startReading()`.
    open var timeRange: CMTimeRange = CMTimeRange(start: .zero, duration: .positiveInfinity) {
        willSet { Misuse.check(status == .unknown, .readerTimeRangeChangedAfterStart) }
    }

    /// Creates a reader for `asset`; throws when the asset cannot be read. An HTTP Live Stream
    /// cannot (`AVError.operationNotSupportedForAsset`), as on Apple platforms.
    ///
    /// Differs from Apple: a file on an HTTP(S) server is read (Apple's reader takes only local
    /// files).
    public convenience init(asset: AVAsset) throws {
        try self.init(asset: asset, readsLiveStreams: false)
    }

    /// A reader for `asset`, of an HTTP Live Stream too when `readsLiveStreams` (the player's).
    init(asset: AVAsset, readsLiveStreams: Bool) throws {
        self.asset = asset
        super.init()
        switch asset.loader.contentsBlocking() {
        case .failure(let error): throw error
        case .success(let contents) where contents.formatName == "hls" && !readsLiveStreams:
            throw AVError(.operationNotSupportedForAsset,
                          reason: "an AVAssetReader cannot read an HTTP Live Stream (\(contents.url?.absoluteString ?? "")); play it with AVPlayer")
        case .success: break
        }
    }

    /// The outputs added so far.
    open var outputs: [AVAssetReaderOutput] { lock.withLock { outputList } }

    /// Where reading stands.
    open var status: Status { lock.withLock { statusValue } }

    /// Why reading failed, when `status` is `.failed`.
    open var error: Error? { lock.withLock { errorValue } }

    /// Whether `output` can be added: reading has not started, the output reads a track of this
    /// asset, and its settings can be honoured.
    open func canAdd(_ output: AVAssetReaderOutput) -> Bool {
        lock.withLock {
            statusValue == .unknown && output.reader == nil && output.additionProblem == nil
                && !outputList.contains { $0 === output } && belongsToAsset(output)
        }
    }

    /// Adds an output. Adding after `startReading()`, adding an output twice or an output of
    /// another asset's track is a programmer error (Apple raises an exception; here the process
    /// stops with a message).
    ///
    /// Differs from Apple: an output whose settings cannot be honoured (`canAdd(_:)` is false)
    /// is accepted, and `startReading()` then fails with `AVError.unsupportedOutputSettings`.
    open func add(_ output: AVAssetReaderOutput) {
        lock.withLock {
            Misuse.check(statusValue == .unknown, .readerOutputAddedAfterStart)
            Misuse.check(output.reader == nil && !outputList.contains { $0 === output }, .readerOutputAlreadyAdded)
            Misuse.check(belongsToAsset(output), .readerOutputOfAnotherAsset)
            output.reader = self
            outputList.append(output)
        }
    }

    private func belongsToAsset(_ output: AVAssetReaderOutput) -> Bool {
        output.tracks.allSatisfy { $0.asset === asset }
    }

    /// Starts reading; false (with `status` `.failed` and `error` set) when the file cannot be
    /// opened or an output cannot be set up.
    @discardableResult
    open func startReading() -> Bool {
        let outputs: [AVAssetReaderOutput] = lock.withLock {
            Misuse.check(statusValue == .unknown, .readerStartedTwice)
            Misuse.check(!outputList.isEmpty, .readerStartedWithoutOutputs)
            return outputList
        }
        guard case .success(let contents) = asset.loader.contentsBlocking() else {
            return fail(AVError(.failedToLoadMediaData, reason: "the asset could not be loaded"))
        }
        let range = timeRange
        do {
            let streams = Set(outputs.flatMap(\.streamIndices))
            let videoStream = contents.tracks.first { $0.mediaType == .video && streams.contains($0.streamIndex) }
            // Without video to seek by, the seek is in an audio stream, which is decoded
            // unless every output passes samples through.
            let session = streams.isEmpty ? nil : try ReadingSession(contents: contents, streams: streams, start: range.start,
                                                                      seekStream: videoStream?.streamIndex ?? streams.min(),
                                                                      decodesAudio: videoStream == nil && outputs.contains(where: \.decodes))
            if let session { lock.withLock { sessions = sessions.filter { $0.session != nil } + [WeakSession(session: session)] } }
            for output in outputs {
                let pipeline = try output.makePipeline(timeRange: range, session: session)
                output.lock.withLock { output.pipeline = pipeline }
            }
            lock.withLock { statusValue = .reading }
            return true
        } catch {
            return fail(error)
        }
    }

    /// Records a failure; returns false for `startReading()`.
    @discardableResult
    private func fail(_ error: AVError) -> Bool {
        lock.withLock {
            if statusValue == .unknown || statusValue == .reading {
                statusValue = .failed
                errorValue = error
            }
        }
        return false
    }

    /// Stops reading; outputs deliver no more samples. A read waiting for the network gives up.
    open func cancelReading() {
        let (outputs, sessions): ([AVAssetReaderOutput], [ReadingSession]) = lock.withLock {
            if statusValue == .reading || statusValue == .unknown { statusValue = .cancelled }
            defer { self.sessions = [] }
            return (outputList, self.sessions.compactMap(\.session))
        }
        sessions.forEach { $0.interrupt() }
        for output in outputs {
            output.lock.withLock { output.pipeline = nil }
        }
    }

    /// The next sample of an output (what `copyNextSampleBuffer()` returns).
    func nextSampleBuffer(for output: AVAssetReaderOutput) -> CMSampleBuffer? {
        switch status {
        case .unknown: Misuse.fail(.sampleBufferBeforeReaderStarts)
        case .reading: break
        default: return nil
        }
        let (sample, failure): (CMSampleBuffer?, AVError?) = output.lock.withLock {
            guard let pipeline = output.pipeline else { return (nil, nil) }
            let sample = pipeline.next()
            return (sample, sample == nil ? pipeline.failure : nil)
        }
        if let sample { return sample }
        if let failure {
            fail(failure)
            return nil
        }
        if let range = nextResetRange(for: output) {
            restart(output, in: range)
            return nextSampleBuffer(for: output)
        }
        output.lock.withLock { output.exhausted = true }
        if output.isConfigurationFinal { markFinished(output) }
        return nil
    }

    /// Marks an output done; the reader completes when all are.
    private func markFinished(_ output: AVAssetReaderOutput) {
        lock.withLock {
            finishedOutputs.insert(ObjectIdentifier(output))
            if statusValue == .reading && finishedOutputs.count == outputList.count { statusValue = .completed }
        }
    }

    /// Queues time ranges for an output with random access.
    func reset(_ output: AVAssetReaderOutput, timeRanges: [CMTimeRange]) {
        lock.withLock { pendingRanges[ObjectIdentifier(output), default: []].append(contentsOf: timeRanges) }
    }

    /// An output's configuration became final: if it has delivered everything, it is done.
    func outputBecameFinal(_ output: AVAssetReaderOutput) {
        let idle = lock.withLock { pendingRanges[ObjectIdentifier(output), default: []].isEmpty }
        if idle && output.lock.withLock({ output.exhausted }) { markFinished(output) }
    }

    private func nextResetRange(for output: AVAssetReaderOutput) -> CMTimeRange? {
        lock.withLock {
            let key = ObjectIdentifier(output)
            guard var ranges = pendingRanges[key], !ranges.isEmpty else { return nil }
            let range = ranges.removeFirst()
            pendingRanges[key] = ranges
            return range
        }
    }

    /// Starts a fresh pass for one output over `range` (random access).
    private func restart(_ output: AVAssetReaderOutput, in range: CMTimeRange) {
        do {
            guard case .success(let contents) = asset.loader.contentsBlocking() else { return }
            let streams = output.streamIndices
            let session = streams.isEmpty ? nil : try ReadingSession(contents: contents, streams: Set(streams), start: range.start,
                                                                      seekStream: streams.min())
            if let session { lock.withLock { sessions = sessions.filter { $0.session != nil } + [WeakSession(session: session)] } }
            let pipeline = try output.makePipeline(timeRange: range, session: session)
            output.lock.withLock {
                output.pipeline = pipeline
                output.exhausted = false
            }
        } catch {
            fail(error)
        }
    }
}
