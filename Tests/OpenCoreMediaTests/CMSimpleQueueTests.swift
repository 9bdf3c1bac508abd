import Foundation
import OpenCoreMedia
import PropertyBased
import Testing

@Suite(.timeLimit(.minutes(10))) struct CMSimpleQueueTests {
    private func element(_ value: Int) -> UnsafeRawPointer { UnsafeRawPointer(bitPattern: value)! }

    @Test func followsAnArrayModel() async {
        // Operations: true enqueues the next number, false dequeues.
        await propertyCheck(count: 300, input: Gen.int(in: 1...8), Gen.bool(0.6).array(of: 0...100)) { capacity, operations in
            let queue = try! CMSimpleQueue(capacity: capacity)
            var model: [Int] = []
            var next = 1
            for enqueues in operations {
                if enqueues {
                    let status = CMSimpleQueueEnqueue(queue, element: element(next))
                    #expect(status == (model.count == capacity ? kCMSimpleQueueError_QueueIsFull : noErr))
                    if status == noErr { model.append(next) }
                    next += 1
                } else {
                    #expect(queue.dequeue().map { Int(bitPattern: $0) } == (model.isEmpty ? nil : model.removeFirst()))
                }
                #expect(queue.count == model.count && CMSimpleQueueGetCount(queue) == Int32(model.count))
                #expect(queue.head.map { Int(bitPattern: $0) } == model.first)
                #expect(queue.fullness == Float(model.count) / Float(capacity))
            }
            try! queue.reset()
            #expect(queue.count == 0 && queue.head == nil && queue.capacity == capacity)
        }
    }

    @Test func capacityMustBePositive() {
        var made: CMSimpleQueue?
        #expect(CMSimpleQueueCreate(allocator: nil, capacity: 0, queueOut: &made) == kCMSimpleQueueError_RequiredParameterMissing)
        #expect(CMSimpleQueueCreate(allocator: nil, capacity: -1, queueOut: &made) == kCMSimpleQueueError_ParameterOutOfRange)
        #expect(made == nil)
        #expect(throws: CMSimpleQueue.Error.requiredParameterMissing) { try CMSimpleQueue(capacity: 0) }
        #expect(CMSimpleQueueCreate(allocator: nil, capacity: 3, queueOut: &made) == noErr && made.map(CMSimpleQueueGetCapacity) == 3)
    }

    /// One thread enqueues, another dequeues, without a lock: every element arrives once, in order.
    @Test func oneProducerOneConsumer() throws {
        let queue = try CMSimpleQueue(capacity: 16)
        let total = 200_000
        let producer = Thread {
            var value = 1
            while value <= total {
                if CMSimpleQueueEnqueue(queue, element: UnsafeRawPointer(bitPattern: value)!) == noErr { value += 1 }
            }
        }
        producer.start()
        var expected = 1
        var outOfOrder = 0
        while expected <= total {
            guard let element = queue.dequeue() else { continue }
            if Int(bitPattern: element) != expected { outOfOrder += 1 }
            expected += 1
        }
        #expect(outOfOrder == 0)
        #expect(queue.count == 0)
    }
}
