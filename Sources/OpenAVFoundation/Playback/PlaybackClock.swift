import CaptureDevices
import Foundation
import HostSystem
import OpenCoreMedia

/// A player's timebase: the item time at any host time, as an anchor (an item time at a host
/// nanosecond) and a rate. The sound thread moves the anchor to what the sound device plays
/// (the master clock); without sound it runs on the host clock. Thread-safe.
final class PlaybackClock: @unchecked Sendable {
    private let lock = NSLock()
    private var anchorHost: UInt64 = 0
    private var anchorItem: CMTime = .zero
    private var rateValue: Double = 0

    /// The item time at host nanosecond `host`.
    func itemTime(atHost host: UInt64) -> CMTime {
        lock.withLock {
            guard rateValue != 0 else { return anchorItem }
            let elapsed = (Double(Int64(bitPattern: host &- anchorHost)) * rateValue).rounded()
            return anchorItem + CMTime(value: CMTimeValue(elapsed), timescale: 1_000_000_000)
        }
    }

    /// The item time now.
    var now: CMTime { itemTime(atHost: HostClock.now) }

    /// The rate the clock runs at (0: stopped).
    var rate: Double { lock.withLock { rateValue } }

    /// Sets the clock to `time` at host nanosecond `host`, running on at `rate`.
    func set(_ time: CMTime, atHost host: UInt64 = HostClock.now, rate: Double) {
        lock.withLock {
            anchorItem = time
            anchorHost = host
            rateValue = rate
        }
    }
}
