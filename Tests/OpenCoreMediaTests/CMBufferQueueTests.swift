import Foundation
import OpenCoreMedia
import PropertyBased
import Testing

/// A one-sample buffer with these times (milliseconds), size and readiness.
///
/// A buffer not ready has no data yet; a ready one holds `size` bytes.
private func sampleBuffer(pts: Int64, dts: Int64, duration: Int64, size: Int, ready: Bool) throws -> CMSampleBuffer {
    let timing = CMSampleTimingInfo(duration: CMTime(value: duration, timescale: 1000),
                                    presentationTimeStamp: CMTime(value: pts, timescale: 1000),
                                    decodeTimeStamp: CMTime(value: dts, timescale: 1000))
    return try CMSampleBuffer(dataBuffer: ready ? CMBlockBuffer(length: size) : nil, dataReady: ready, formatDescription: nil, numSamples: 1, sampleTimings: [timing],
                              sampleSizes: [size]) { _ in noErr }
}

/// What a `CMBufferQueue` should be, written from Apple's header: an array kept first in first
/// out, or sorted by presentation time with equal times in arrival order.
private struct QueueModel {
    struct Item {
        let buffer: CMSampleBuffer
        let pts: Int64, dts: Int64, duration: Int64, size: Int
        let ready: Bool
    }

    let sorted: Bool
    let capacity: Int
    var items: [Item] = []
    var endOfData = false

    var duration: Int64 { items.reduce(0) { $0 + $1.duration } }
    var minPTS: Int64? { items.map(\.pts).min() }
    var maxPTS: Int64? { items.map(\.pts).max() }
    var isAtEndOfData: Bool { endOfData && items.isEmpty }
    var headIsReady: Bool { items.first?.ready ?? false }

    /// The status `CMBufferQueueEnqueue` should return.
    mutating func enqueue(_ item: Item) -> OSStatus {
        if endOfData { return kCMBufferQueueError_EnqueueAfterEndOfData }
        if capacity > 0 && items.count >= capacity { return kCMBufferQueueError_QueueIsFull }
        let index = sorted ? (items.firstIndex { item.pts < $0.pts } ?? items.endIndex) : items.endIndex
        items.insert(item, at: index)
        return noErr
    }

    mutating func dequeue(onlyIfReady: Bool) -> Item? {
        guard let head = items.first, !onlyIfReady || head.ready else { return nil }
        return items.removeFirst()
    }
}

/// One trigger condition as the model evaluates it: whether it holds, or, for the conditions
/// that are events, whether a change fires it.
private struct ModelTrigger {
    let condition: CMBufferQueue.TriggerCondition
    let name: String

    func holds(_ model: QueueModel) -> Bool {
        switch condition {
        case .whenDurationBecomesLessThan(let time): model.duration < time.value
        case .whenDurationBecomesLessThanOrEqualTo(let time): model.duration <= time.value
        case .whenDurationBecomesGreaterThan(let time): model.duration > time.value
        case .whenDurationBecomesGreaterThanOrEqualTo(let time): model.duration >= time.value
        case .whenDataBecomesReady: model.headIsReady
        case .whenEndOfDataReached: model.isAtEndOfData
        case .whenBufferCountBecomesLessThan(let count): model.items.count < count
        case .whenBufferCountBecomesGreaterThan(let count): model.items.count > count
        case .whenMinPresentationTimeStampChanges, .whenMaxPresentationTimeStampChanges, .whenReset: false
        }
    }

    func fires(from before: QueueModel, to after: QueueModel, reset: Bool) -> Bool {
        switch condition {
        case .whenMinPresentationTimeStampChanges: before.minPTS != after.minPTS
        case .whenMaxPresentationTimeStampChanges: before.maxPTS != after.maxPTS
        case .whenReset: reset
        default: holds(after) && !holds(before)
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct CMBufferQueueTests {
    /// Operations: 0-4 enqueue, 5-6 dequeue, 7 dequeue if ready, 8 end of data, 9 reset.
    static let operations = zip(Gen.int(in: 0...9), Gen.int64(in: 0...40), Gen.int64(in: 1...6), Gen.bool(0.8)).array(of: 0...80)
    /// Capacity (0: none), then the thresholds: two durations (ms) and two counts.
    static let settings = zip(Gen.int(in: 0...6), Gen.int64(in: 1...20), Gen.int64(in: 1...20), Gen.int(in: 0...5), Gen.int(in: 0...5))

    @Test(arguments: [false, true]) func queueFollowsTheModel(sorted: Bool) async throws {
        await propertyCheck(count: 150, input: Self.operations, Self.settings) { operations, settings in
            // propertyCheck drops what its body throws: record it.
            do { try Self.check(sorted: sorted, operations: operations, settings: settings) } catch { Issue.record(error) }
        }
    }

    /// Runs `operations` on a queue and on the model side by side, comparing them after each.
    private static func check(sorted: Bool, operations: [(Int, Int64, Int64, Bool)], settings: (Int, Int64, Int64, Int, Int)) throws {
        let (capacity, shortDuration, longDuration, fewBuffers, manyBuffers) = settings
        let ms = { (value: Int64) in CMTime(value: value, timescale: 1000) }
        let queue = try CMBufferQueue(capacity: capacity, handlers: sorted ? .outputPTSSortedSampleBuffers : .unsortedSampleBuffers)
        var model = QueueModel(sorted: sorted, capacity: capacity)
        let triggers = [
            ModelTrigger(condition: .whenDurationBecomesLessThan(ms(shortDuration)), name: "duration < \(shortDuration)"),
            ModelTrigger(condition: .whenDurationBecomesLessThanOrEqualTo(ms(shortDuration)), name: "duration <= \(shortDuration)"),
            ModelTrigger(condition: .whenDurationBecomesGreaterThan(ms(longDuration)), name: "duration > \(longDuration)"),
            ModelTrigger(condition: .whenDurationBecomesGreaterThanOrEqualTo(ms(longDuration)), name: "duration >= \(longDuration)"),
            ModelTrigger(condition: .whenMinPresentationTimeStampChanges, name: "min PTS changes"),
            ModelTrigger(condition: .whenMaxPresentationTimeStampChanges, name: "max PTS changes"),
            ModelTrigger(condition: .whenDataBecomesReady, name: "data becomes ready"),
            ModelTrigger(condition: .whenEndOfDataReached, name: "end of data reached"),
            ModelTrigger(condition: .whenReset, name: "reset"),
            ModelTrigger(condition: .whenBufferCountBecomesLessThan(fewBuffers), name: "count < \(fewBuffers)"),
            ModelTrigger(condition: .whenBufferCountBecomesGreaterThan(manyBuffers), name: "count > \(manyBuffers)"),
        ]
        // Each trigger counts its calls; installing one that already holds calls it once.
        var fired = Array(repeating: 0, count: triggers.count)
        var expected = triggers.map { $0.holds(model) ? 1 : 0 }
        var tokens: [CMBufferQueue.TriggerToken] = []
        for (index, trigger) in triggers.enumerated() {
            tokens.append(try queue.installTrigger(condition: trigger.condition) { _ in fired[index] += 1 })
        }
        for (step, (kind, pts, duration, ready)) in operations.enumerated() {
            let before = model
            var isReset = false
            switch kind {
            case 0...4:
                let buffer = try sampleBuffer(pts: pts, dts: Int64(step), duration: duration, size: Int(duration) * 10, ready: ready)
                let status = model.enqueue(.init(buffer: buffer, pts: pts, dts: Int64(step), duration: duration,
                                                 size: Int(duration) * 10, ready: ready))
                #expect(CMBufferQueueEnqueue(queue, buffer: buffer) == status, "step \(step)")
            case 5, 6, 7:
                let dequeued = kind == 7 ? queue.dequeueIfDataReady() : queue.dequeue()
                let modelled = model.dequeue(onlyIfReady: kind == 7)
                #expect(dequeued === modelled?.buffer, "step \(step): dequeued the wrong buffer")
            case 8:
                try queue.markEndOfData()
                model.endOfData = true
            default:
                try queue.reset()
                model.items = []
                model.endOfData = false
                isReset = true
            }
            for (index, trigger) in triggers.enumerated() where trigger.fires(from: before, to: model, reset: isReset) {
                expected[index] += 1
            }
            #expect(fired == expected, "step \(step): trigger calls \(zip(triggers.map(\.name), fired).map { "\($0) \($1)" })")
            #expect(queue.bufferCount == model.items.count && queue.isEmpty == model.items.isEmpty)
            #expect(queue.duration == ms(model.duration))
            #expect(queue.head === model.items.first?.buffer)
            #expect(queue.minPresentationTimeStamp == (model.minPTS.map(ms) ?? .invalid))
            #expect(queue.maxPresentationTimeStamp == (model.maxPTS.map(ms) ?? .invalid))
            #expect(queue.firstPresentationTimeStamp == (model.items.first.map { ms($0.pts) } ?? .invalid))
            #expect(queue.minDecodeTimeStamp == (model.items.map(\.dts).min().map(ms) ?? .invalid))
            #expect(queue.firstDecodeTimeStamp == (model.items.first.map { ms($0.dts) } ?? .invalid))
            #expect(queue.endPresentationTimeStamp == (model.items.map { $0.pts + $0.duration }.max().map(ms) ?? .invalid))
            #expect(queue.totalSize == model.items.reduce(0) { $0 + $1.size })
            #expect(queue.containsEndOfData == model.endOfData && queue.isAtEndOfData == model.isAtEndOfData)
            #expect(queue.buffers.map(ObjectIdentifier.init) == model.items.map { ObjectIdentifier($0.buffer) })
            for (index, trigger) in triggers.enumerated() {
                #expect(queue.testTrigger(tokens[index]) == trigger.holds(model), "step \(step): \(trigger.name)")
            }
        }
        for token in tokens { try queue.removeTrigger(token) }
        #expect(throws: CMBufferQueue.Error.invalidTriggerToken) { try queue.removeTrigger(tokens[0]) }
    }

    @Test func triggerHandlersReadButCannotChangeTheQueue() throws {
        let queue = try CMBufferQueue(capacity: 0, handlers: .unsortedSampleBuffers)
        var seen: [(count: Int, enqueueError: Error?, dequeued: CMBuffer?)] = []
        _ = try queue.installTrigger(condition: .whenBufferCountBecomesGreaterThan(1)) { _ in
            let extra = try! sampleBuffer(pts: 0, dts: 0, duration: 1, size: 1, ready: true)
            seen.append((queue.bufferCount, Result(catching: { try queue.enqueue(extra) }).failure, queue.dequeue()))
        }
        try queue.enqueue(sampleBuffer(pts: 0, dts: 0, duration: 1, size: 1, ready: true))
        try queue.enqueue(sampleBuffer(pts: 1, dts: 1, duration: 1, size: 1, ready: true))
        #expect(seen.count == 1)
        #expect(seen.first?.count == 2 && seen.first?.dequeued == nil)
        #expect((seen.first?.enqueueError as? NSError) == CMBufferQueue.Error.cannotModifyQueueFromTriggerCallback)
        #expect(queue.bufferCount == 2)
    }

    @Test func theHeadBecomingReadyFiresDataReadyTriggers() throws {
        let queue = try CMBufferQueue(capacity: 0, handlers: .unsortedSampleBuffers)
        let head = try sampleBuffer(pts: 0, dts: 0, duration: 1, size: 1, ready: false)
        let next = try sampleBuffer(pts: 1, dts: 1, duration: 1, size: 1, ready: false)
        try queue.enqueue(head)
        try queue.enqueue(next)
        var fired = 0
        let token = try queue.installTrigger(condition: .whenDataBecomesReady) { _ in fired += 1 }
        #expect(fired == 0 && queue.dequeueIfDataReady() == nil)
        try next.setDataReadiness(.ready)
        #expect(fired == 0, "a buffer behind the head became ready")
        try head.setDataReadiness(.ready)
        #expect(fired == 1 && queue.testTrigger(token))
        #expect(queue.dequeueIfDataReady() === head)
        // The next head is ready already: it fired as it became the head, on the dequeue.
        #expect(fired == 1, "the trigger held across the dequeue")
    }

    @Test func errorsAreApples() throws {
        let queue = try CMBufferQueue(capacity: 1, handlers: .unsortedSampleBuffers)
        try queue.enqueue(sampleBuffer(pts: 0, dts: 0, duration: 1, size: 1, ready: true))
        #expect(throws: CMBufferQueue.Error.queueIsFull) { try queue.enqueue(sampleBuffer(pts: 1, dts: 1, duration: 1, size: 1, ready: true)) }
        _ = queue.dequeue()
        try queue.markEndOfData()
        #expect(throws: CMBufferQueue.Error.enqueueAfterEndOfData) {
            try queue.enqueue(sampleBuffer(pts: 1, dts: 1, duration: 1, size: 1, ready: true))
        }
        #expect(throws: CMBufferQueue.Error.badTriggerDuration) { _ = try queue.installTrigger(condition: .whenDurationBecomesLessThan(.invalid)) }
        #expect(kCMBufferQueueError_AllocationFailed == -12760 && kCMBufferQueueError_InvalidBuffer == -12769)
        #expect(kCMBufferQueueTrigger_WhenDurationBecomesLessThan == 1 && kCMBufferQueueTrigger_WhenBufferCountBecomesGreaterThan == 11)
    }

    @Test func validationHandlerRefusesBuffers() throws {
        struct TooLong: Error {}
        let queue = try CMBufferQueue(capacity: 0, handlers: .unsortedSampleBuffers)
        queue.setValidationHandler { _, buffer in
            if (buffer as! CMSampleBuffer).duration > CMTime(value: 1, timescale: 1) { throw TooLong() }
        }
        try queue.enqueue(sampleBuffer(pts: 0, dts: 0, duration: 500, size: 1, ready: true))
        #expect(throws: TooLong.self) { try queue.enqueue(sampleBuffer(pts: 0, dts: 0, duration: 1500, size: 1, ready: true)) }
        #expect(queue.bufferCount == 1)
    }

    @Test func cStyleFunctionsWithRefcon() throws {
        var made: CMBufferQueue?
        #expect(CMBufferQueueCreate(allocator: kCFAllocatorDefault, capacity: 0,
                                    callbacks: CMBufferQueueGetCallbacksForSampleBuffersSortedByOutputPTS(), queueOut: &made) == noErr)
        let queue = try #require(made)
        var calls = 0
        var token: CMBufferQueueTriggerToken?
        let status = withUnsafeMutablePointer(to: &calls) { counter in
            CMBufferQueueInstallTriggerWithIntegerThreshold(queue, callback: { refcon, _ in
                refcon!.assumingMemoryBound(to: Int.self).pointee += 1
            }, refcon: UnsafeMutableRawPointer(counter), condition: kCMBufferQueueTrigger_WhenBufferCountBecomesGreaterThan,
               threshold: 1, triggerTokenOut: &token)
        }
        #expect(status == noErr)
        for pts: Int64 in [30, 10, 20] {
            #expect(CMBufferQueueEnqueue(queue, buffer: try sampleBuffer(pts: pts, dts: 0, duration: 10, size: 4, ready: true)) == noErr)
        }
        #expect(calls == 1)
        #expect(CMBufferQueueTestTrigger(queue, try #require(token)))
        #expect(CMBufferQueueGetMinPresentationTimeStamp(queue) == CMTime(value: 10, timescale: 1000))
        #expect(CMBufferQueueGetEndPresentationTimeStamp(queue) == CMTime(value: 40, timescale: 1000))
        #expect(CMBufferQueueGetDuration(queue) == CMTime(value: 30, timescale: 1000) && CMBufferQueueGetTotalSize(queue) == 12)
        let order = [CMBufferQueueDequeue(queue), CMBufferQueueDequeue(queue)].map { ($0 as! CMSampleBuffer).presentationTimeStamp.value }
        #expect(order == [10, 20])
        var dropped = 0
        #expect(CMBufferQueueResetWithCallback(queue, callback: { _, _ in dropped += 1 }, refcon: nil) == noErr)
        #expect(dropped == 1 && CMBufferQueueIsEmpty(queue))
        #expect(CMBufferQueueInstallTrigger(queue, callback: nil, refcon: nil, condition: 42, time: .zero,
                                            triggerTokenOut: &token) == kCMBufferQueueError_InvalidTriggerCondition)
    }

    @Test func producerAndConsumerThreads() throws {
        let queue = try CMBufferQueue(capacity: 8, handlers: .unsortedSampleBuffers)
        let buffers = try (0..<2000).map { try sampleBuffer(pts: Int64($0), dts: Int64($0), duration: 1, size: 1, ready: true) }
        // The triggers are the only synchronization: room for the producer, buffers or the end for the consumer.
        let room = DispatchSemaphore(value: 0), available = DispatchSemaphore(value: 0)
        _ = try queue.installTrigger(condition: .whenBufferCountBecomesLessThan(8)) { _ in room.signal() }
        _ = try queue.installTrigger(condition: .whenBufferCountBecomesGreaterThan(0)) { _ in available.signal() }
        _ = try queue.installTrigger(condition: .whenEndOfDataReached) { _ in available.signal() }
        let producer = Thread {
            for buffer in buffers {
                while (try? queue.enqueue(buffer)) == nil { room.wait() }
            }
            try! queue.markEndOfData()
        }
        producer.start()
        var received: [CMSampleBuffer] = []
        while !queue.isAtEndOfData {
            if let buffer = queue.dequeue() {
                received.append(buffer as! CMSampleBuffer)
            } else {
                #expect(available.wait(timeout: .now() + 10) == .success)
            }
        }
        #expect(received.map(ObjectIdentifier.init) == buffers.map(ObjectIdentifier.init))
    }
}

private extension Result {
    /// The error, or nil for a success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
