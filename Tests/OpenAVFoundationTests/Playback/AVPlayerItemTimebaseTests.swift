import Foundation
import OpenAVFoundation
import Testing
import TestSupport

/// `AVPlayerItem.timebase` against its player, on a clip without sound (so the player runs on
/// the host clock, with no sound server needed).
@Suite(.serialized, .timeLimit(.minutes(2))) struct AVPlayerItemTimebaseTests {
    static func clip() throws -> URL {
        try Fixtures.make("timebase-video.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "3", "-an", "-c:v", "libx264", "-pix_fmt", "yuv420p",
        ])
    }

    /// Waits for `name` from `timebase` that `condition` accepts, after `action`; whether it came.
    static func notification(_ name: NSNotification.Name, from timebase: CMTimebase, where condition: @escaping @Sendable () -> Bool,
                             after action: () -> Void) async -> Bool {
        await waitUntil(timeout: 5) { done in
            let observer = NotificationCenter.default.addObserver(forName: name, object: timebase, queue: nil) { _ in
                if condition() { done() }
            }
            action()
            return { NotificationCenter.default.removeObserver(observer) }
        }
    }

    @Test func theCurrentItemsTimebaseShowsThePlayersTimeAndRate() async throws {
        let item = AVPlayerItem(url: try Self.clip())
        #expect(item.timebase == nil, "an item of no player has no timebase")
        let player = AVPlayer(playerItem: item)
        #expect(await item.knownStatus() == .readyToPlay)
        let timebase = try #require(item.timebase)
        #expect(timebase.rate == 0 && timebase.time == item.currentTime())
        #expect(throws: CMTimebase.Error.readOnly) { try timebase.setRate(1) }
        #expect(CMTimebaseSetTime(timebase, time: .zero) == kCMTimebaseError_ReadOnly)

        // A timer on the item's timebase fires when the item reaches its time.
        let fired = DispatchSemaphore(value: 0)
        let reached = ManagedAtomicTime()
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .userInteractive))
        timer.setEventHandler { reached.store(item.currentTime()); fired.signal() }
        try timebase.addTimer(timer)
        timer.resume()
        defer { timer.cancel() }
        let fireTime = CMTime(value: 1, timescale: 2)
        try timebase.setTimerNextFireTime(timer, fireTime: fireTime)
        #expect(await Self.notification(CMTimebase.effectiveRateChanged, from: timebase, where: { timebase.rate == 1 }) { player.play() })
        #expect(fired.wait(timeout: .now() + 5) == .success)
        let atFiring = reached.load()
        #expect(atFiring >= fireTime && atFiring < fireTime + CMTime(value: 1, timescale: 10),
                "the item read \(atFiring.seconds) s when its timebase's timer for 0.5 s fired")

        #expect(await Self.notification(CMTimebase.effectiveRateChanged, from: timebase, where: { timebase.rate == 0 }) { player.pause() })
        #expect(abs((timebase.time - item.currentTime()).seconds) < 0.001)

        let target = CMTime(value: 2, timescale: 1)
        #expect(await Self.notification(CMTimebase.timeJumped, from: timebase, where: { abs((timebase.time - target).seconds) < 0.05 }) {
            player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero)
        })
        #expect(abs((item.currentTime() - target).seconds) < 0.05)
    }
}

/// A time written by one thread and read by another.
private final class ManagedAtomicTime: @unchecked Sendable {
    private let lock = NSLock()
    private var time = CMTime.invalid

    func store(_ value: CMTime) { lock.withLock { time = value } }
    func load() -> CMTime { lock.withLock { time } }
}
