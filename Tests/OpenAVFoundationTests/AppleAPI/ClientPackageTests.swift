import Foundation
import Testing
@testable import OpenAVFoundation
import TestSupport

/// What real packages written for Apple platforms do with the API, type-checked from outside
/// this package (as their own build sees it) and run here where behaviour is involved.
@Suite(.timeLimit(.minutes(10))) struct ClientPackageTests {
    /// Apple's CoreMedia has no `+=` or `-=` for CMTime, so packages define their own; ours
    /// must not meet theirs ("ambiguous use of operator").
    @Test func aPackagesOwnTimeOperatorsCompile() throws {
        let errors = try ClientCode.errors(in: """
            import OpenAVFoundation
            func += (lhs: inout CMTime, rhs: CMTime) { lhs = CMTimeAdd(lhs, rhs) }
            func -= (lhs: inout CMTime, rhs: CMTime) { lhs = CMTimeSubtract(lhs, rhs) }
            func * (lhs: CMTime, rhs: Double) -> CMTime { CMTimeMultiplyByFloat64(lhs, multiplier: rhs) }
            var time = CMTime(value: 1, timescale: 2)
            time += CMTime(value: 1, timescale: 4)
            time -= .zero
            let doubled = time * 2
            let sum = time + doubled - CMTime(seconds: 1, preferredTimescale: 600)
            print(sum.seconds, time < doubled, time == doubled)
            """)
        #expect(errors.isEmpty, "\(errors)")
    }

    /// A mutable composition's tracks are mutable composition tracks, so the usual spellings
    /// of editing them compile and edit the composition.
    @Test func aMutableCompositionsTracksAreEditedThroughItsTrackList() throws {
        let errors = try ClientCode.errors(in: """
            import OpenAVFoundation
            let composition = AVMutableComposition()
            _ = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)
            composition.tracks(withMediaType: .video).first?.preferredTransform = CGAffineTransform(rotationAngle: .pi / 2)
            let track = composition.tracks(withMediaType: .video)[0]
            track.naturalTimeScale = 600
            track.languageCode = "eng"
            track.isEnabled = false
            for audio in composition.tracks(withMediaCharacteristic: .audible) { audio.preferredVolume = 0.5 }
            let asset: AVAsset = composition
            let read: [AVAssetTrack] = asset.tracks(withMediaType: .video)
            print(read.count)
            """)
        #expect(errors.isEmpty, "\(errors)")

        let composition = AVMutableComposition()
        _ = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)
        let turn = CGAffineTransform(rotationAngle: .pi / 2)
        composition.tracks(withMediaType: .video).first?.preferredTransform = turn
        #expect(composition.tracks.first?.preferredTransform == turn)
        #expect((composition as AVAsset).tracks(withMediaType: .video).first?.preferredTransform == turn)
        #expect(composition.tracks(withMediaType: .audio).isEmpty)
    }
}
