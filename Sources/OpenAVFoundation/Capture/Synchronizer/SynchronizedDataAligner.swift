import Foundation
import OpenCoreMedia

/// Gathers the data of a synchronizer's outputs into collections by time, as Apple documents
/// `AVCaptureDataOutputSynchronizer`: the main output's data (the first output's) is held until
/// every other output has data reaching its time (a buffer that covers it or comes after it),
/// then delivered with the data of the other outputs that covers its time; the other outputs'
/// data before that time, which no main datum covers, is delivered in collections of its own,
/// first. A main datum is not held for an output more than `maximumWait` behind the main
/// output (a metadata output still reading an older frame): it goes without that output's data.
/// Used on the synchronizer's queue only; `add` returns the collections completed, in order.
final class SynchronizedDataAligner {
    /// One output's datum: its time span (a metadata datum spans its frame) and its data.
    struct Datum {
        let start: CMTime
        let end: CMTime
        let data: AVCaptureSynchronizedData
    }

    /// How far the main output may get ahead of a lagging output before its data goes without
    /// that output's: half a second.
    static let maximumWait = CMTime(value: 1, timescale: 2)
    /// Data an output keeps waiting at most (two seconds of 10 ms audio buffers): beyond it the
    /// oldest goes on alone, so that an output whose main output stopped does not grow memory.
    static let maximumWaiting = 200

    private let outputs: [AVCaptureOutput]
    /// Each output's data not yet delivered, oldest first (indexed as `outputs`).
    private var waiting: [[Datum]]
    /// The end of each output's latest datum: how far its data has reached.
    private var reached: [CMTime]
    /// The collections completed by the current `add`.
    private var completed: [AVCaptureSynchronizedDataCollection] = []

    init(outputs: [AVCaptureOutput]) {
        self.outputs = outputs
        waiting = outputs.map { _ in [] }
        reached = outputs.map { _ in .invalid }
    }

    /// Takes a datum of `output`; the collections that are complete now, in time order.
    func add(_ datum: Datum, from output: AVCaptureOutput) -> [AVCaptureSynchronizedDataCollection] {
        defer { completed.removeAll() }
        guard let index = outputs.firstIndex(where: { $0 === output }) else { return [] }
        waiting[index].append(datum)
        if !reached[index].isValid || datum.end > reached[index] { reached[index] = datum.end }
        deliverReady()
        for other in 1..<outputs.count where waiting[other].count > Self.maximumWaiting {
            deliverAlone(waiting[other].removeFirst(), of: other)
        }
        return completed
    }

    /// Delivers the main output's data whose time every other output has reached (or lags
    /// too far behind), each after the other outputs' earlier data.
    private func deliverReady() {
        while let main = waiting[0].first {
            let time = main.start
            let newest = waiting[0].last!.start
            for other in 1..<outputs.count {
                let arrived = reached[other].isValid && reached[other] > time
                guard arrived || newest - time > Self.maximumWait else { return }
            }
            waiting[0].removeFirst()
            var items: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)] = [(outputs[0], main.data)]
            for other in 1..<outputs.count {
                // Earlier data that no main datum covers goes first, alone.
                while let first = waiting[other].first, first.end <= time {
                    deliverAlone(waiting[other].removeFirst(), of: other)
                }
                if let first = waiting[other].first, first.start <= time {
                    items.append((outputs[other], waiting[other].removeFirst().data))
                }
            }
            completed.append(AVCaptureSynchronizedDataCollection(items))
        }
    }

    private func deliverAlone(_ datum: Datum, of index: Int) {
        completed.append(AVCaptureSynchronizedDataCollection([(outputs[index], datum.data)]))
    }
}
