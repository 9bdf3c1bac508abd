import Testing
@testable import CaptureDevices

@Suite(.timeLimit(.minutes(10))) struct CaptureDropRunTests {
    @Test func runsMergeConsecutiveDropsOfOneReason() {
        var drops: [CaptureDropRun] = []
        drops.record(0, .late)
        #expect(drops.isEmpty)
        drops.record(2, .late)
        drops.record(1, .late)
        drops.record(1, .outOfBuffers)
        drops.record(3, .late)
        #expect(drops == [CaptureDropRun(.late, count: 3), CaptureDropRun(.outOfBuffers, count: 1), CaptureDropRun(.late, count: 3)])
    }
}
