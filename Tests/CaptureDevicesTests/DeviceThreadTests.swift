import Foundation
import HostSystem
import OpenCoreMedia
import Testing
@testable import CaptureDevices

@Suite(.timeLimit(.minutes(10))) struct DeviceThreadTests {
    /// What the frame loop did for one delivered frame.
    private struct Delivery {
        let tick: UInt64
        let preparedTick: UInt64
        let preparedAt: UInt64
        let deliveredAt: UInt64
        let deadline: UInt64
    }

    /// The deliveries, appended on the device thread.
    private final class Deliveries: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Delivery] = []
        /// Appends one; how many there are now.
        func append(_ delivery: Delivery) -> Int { lock.withLock { list.append(delivery); return list.count } }
        var all: [Delivery] { lock.withLock { list } }
    }

    /// The frame loop prepares each frame before its deadline and delivers that same frame at
    /// the deadline, never before; a frame overtaken while waiting is prepared again for the
    /// tick it is delivered at.
    @Test func framesArePreparedAheadAndDeliveredAtTheirDeadlines() throws {
        let grid = try #require(HostTimeGrid(step: CMTime(value: 1, timescale: 50)))
        let done = DispatchSemaphore(value: 0)
        let deliveries = Deliveries()
        let thread = DeviceThread.start(name: "DeviceThreadTests") { thread in
            thread.runFrames(on: grid, prepare: { tick, _ in (tick: tick, at: HostClock.now) }) { frame, tick, _, _ in
                let delivery = Delivery(tick: tick, preparedTick: frame.tick, preparedAt: frame.at,
                                        deliveredAt: HostClock.now, deadline: grid.deadline(ofTick: tick))
                let count = deliveries.append(delivery)
                if count == 20 { done.signal() }
                return count < 20
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        thread.stop()
        let made = deliveries.all
        #expect(made.count == 20)
        for delivery in made {
            #expect(delivery.preparedTick == delivery.tick)
            #expect(delivery.deliveredAt >= delivery.deadline)
        }
        // On a loaded machine a frame may be overtaken and drawn late; most are drawn ahead.
        let ahead = made.filter { $0.preparedAt < $0.deadline }.count
        #expect(ahead >= 10, "only \(ahead) of 20 frames were prepared before their deadlines")
    }
}
