import Foundation
import OpenCoreMedia
import Testing
import OpenAVFAudio

/// AVAudioTime on the host time clock (`CMClockGetHostTimeClock()`, which capture stamps with).
@Suite(.timeLimit(.minutes(10))) struct AVAudioTimeTests {
    @Test func hostTimeCountsTheHostClocksNanoseconds() {
        #expect(AVAudioTime.hostTime(forSeconds: 1.5) == 1_500_000_000)
        #expect(AVAudioTime.seconds(forHostTime: 250_000_000) == 0.25)
        let now = CMClockConvertHostTimeToSystemUnits(CMClockGetTime(CMClockGetHostTimeClock()))
        let time = AVAudioTime(hostTime: now)
        #expect(time.isHostTimeValid && !time.isSampleTimeValid && time.hostTime == now)
    }

    @Test func extrapolationFillsInTheMissingTime() throws {
        let anchor = AVAudioTime(hostTime: 10_000_000_000, sampleTime: 48_000, atRate: 48_000)
        let later = try #require(AVAudioTime(sampleTime: 96_000, atRate: 48_000).extrapolateTime(fromAnchor: anchor))
        #expect(later.isHostTimeValid && later.hostTime == 11_000_000_000)
        let fromHost = try #require(AVAudioTime(hostTime: 10_500_000_000).extrapolateTime(fromAnchor: anchor))
        #expect(fromHost.isSampleTimeValid && fromHost.sampleTime == 72_000 && fromHost.sampleRate == 48_000)
        #expect(AVAudioTime(sampleTime: 5, atRate: 48_000).extrapolateTime(fromAnchor: AVAudioTime(hostTime: 1)) == nil)
    }
}
