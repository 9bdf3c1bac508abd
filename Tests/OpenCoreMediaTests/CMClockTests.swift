import Foundation
import OpenCoreMedia
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite(.timeLimit(.minutes(10))) struct CMClockTests {
    private func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    @Test func hostClockIsMonotonicNanoseconds() {
        let clock = CMClockGetHostTimeClock()
        #expect(clock === CMClock.hostTimeClock)
        var previous = CMClockGetTime(clock)
        #expect(previous.timescale == 1_000_000_000)
        for _ in 0..<10_000 {
            let now = clock.time
            #expect(now.value >= previous.value)
            previous = now
        }
    }

    @Test func hostClockAgreesWithClockMonotonic() {
        let before = monotonicNanoseconds()
        let host = CMClockGetTime(CMClockGetHostTimeClock())
        let after = monotonicNanoseconds()
        #expect(host.isValid && host.isNumeric)
        #expect(host.value >= before - 5_000_000)
        #expect(host.value <= after + 5_000_000)
        #expect(host.value >= before && host.value <= after)
    }

    @Test func systemUnitsAreNanoseconds() {
        #expect(CMClockConvertHostTimeToSystemUnits(CMTime(value: 3, timescale: 2)) == 1_500_000_000)
        #expect(CMClockMakeHostTimeFromSystemUnits(2_500_000_000) == CMTime(value: 5, timescale: 2))
        #expect(CMClockMakeHostTimeFromSystemUnits(42).value == 42)
        #expect(CMClock.convertHostTimeToSystemUnits(CMClock.convertSystemUnitsToHostTime(123_456_789)) == 123_456_789)
        let now = CMTime(value: 77, timescale: 1000)
        #expect(CMSyncConvertTime(now, from: CMClock.hostTimeClock, to: CMClockGetHostTimeClock()) == now)
    }
}
