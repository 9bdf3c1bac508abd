import CaptureDevices
import Foundation
import HostSystem
import OpenCoreMedia

/// A player's clock: the item time at any host time. The sound thread moves it to what the
/// sound device plays (the master clock); without sound it runs on the host clock. Thread-safe.
///
/// Its time and rate are those of `timebase`, a read-only `CMTimebase` on the host time clock
/// that the player's current item shows as `AVPlayerItem.timebase`.
final class PlaybackClock: Sendable {
    /// What the clock says, as a timebase that callers can read, schedule timers on and observe.
    let timebase = CMTimebase.makeReadOnly()

    /// The item time at host nanosecond `host`.
    func itemTime(atHost host: UInt64) -> CMTime {
        CMSyncConvertTime(CMClockMakeHostTimeFromSystemUnits(host), from: CMClock.hostTimeClock, to: timebase)
    }

    /// The item time now.
    var now: CMTime { timebase.time }

    /// The rate the clock runs at (0: stopped).
    var rate: Double { timebase.rate }

    /// Sets the clock to `time` at host nanosecond `host`, running on at `rate`.
    func set(_ time: CMTime, atHost host: UInt64 = HostClock.now, rate: Double) {
        timebase.follow(time: time, atHostTime: CMClockMakeHostTimeFromSystemUnits(host), rate: rate)
    }
}
