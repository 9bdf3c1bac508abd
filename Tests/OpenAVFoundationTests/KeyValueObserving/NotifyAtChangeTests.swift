import Foundation
import Testing
@testable import OpenAVFoundation

/// Key-value observation reports where a value changes: on the thread that set it, before the
/// setter returns, with nothing else having to happen first (no player thread's next look, no
/// session start), and only when the value differs.
@Suite(.timeLimit(.minutes(10))) struct NotifyAtChangeTests {
    /// A player's and an item's settings, set by the client, are reported before the setter
    /// returns: the player has no item and its thread nothing to look at.
    @Test func settingsAreReportedBeforeTheSetterReturns() {
        let player = AVPlayer()
        let item = AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent.mp4"))
        let volumes = ObservationRecorder<Float>()
        let bitRates = ObservationRecorder<Double>()
        let rates = ObservationRecorder<Float>()
        let observations = [
            player.observe(\.volume, options: [.new, .old]) { volumes.record($0, $1) },
            player.observe(\.defaultRate, options: [.new]) { rates.record($0, $1) },
            item.observe(\.preferredPeakBitRate, options: [.new]) { bitRates.record($0, $1) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        player.volume = 0.5
        #expect(volumes.reports.map(\.newValue) == [0.5])
        #expect(volumes.reports.map(\.oldValue) == [1])
        player.volume = 0.5  // the same value: not reported again
        #expect(volumes.reports.count == 1)
        player.defaultRate = 2
        #expect(rates.reports.map(\.newValue) == [2])
        item.preferredPeakBitRate = 800_000
        #expect(bitRates.reports.map(\.newValue) == [800_000])
    }

    /// A player whose item fails to load reports its `timeControlStatus` and the item its
    /// `status` and `error`, each once, from the thread that found the failure.
    @Test func anItemsFailureIsReportedToTheItemsAndThePlayersObservers() {
        let item = AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent/clip.mp4"))
        let statuses = ObservationRecorder<AVPlayerItem.Status>()
        let reasons = ObservationRecorder<AVPlayer.WaitingReason?>()
        let itemObservation = item.observe(\.status, options: [.new]) { statuses.record($0, $1) }
        defer { itemObservation.invalidate() }
        let player = AVPlayer()
        let playerObservation = player.observe(\.reasonForWaitingToPlay, options: [.new]) { reasons.record($0, $1) }
        defer { playerObservation.invalidate() }
        player.rate = 1  // waiting: no item
        #expect(reasons.reports.map(\.newValue) == [.noItemToPlay])
        player.replaceCurrentItem(with: item)  // waiting to minimize stalls while the item loads
        #expect(statuses.wait { $0.count == 1 })
        #expect(statuses.reports.map(\.newValue) == [.failed])
        // Waiting because the item cannot play, reported by the time the item's failure is
        // (not at the player's next look at its clock); each report a change.
        #expect(reasons.reports.last?.newValue == .noItemToPlay)
        let reported = reasons.reports.map(\.newValue)
        #expect(zip(reported, reported.dropFirst()).allSatisfy { $0 != $1 }, "\(reported)")
    }
}
