import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Audio mixes: volume ramps compared sample by sample with ffmpeg's `aeval` doing the same
/// sum, and applied by export.
@Suite(.timeLimit(.minutes(10))) struct AVAudioMixTests {
    /// 2 s of a 440 Hz and a 660 Hz tone in two tracks of one file, float PCM at 48 kHz.
    static func twoTones() throws -> URL {
        try Fixtures.make("audiomix-two-tones.mov", [
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000",
            "-t", "2", "-map", "0:a", "-map", "1:a", "-c:a", "pcm_f32le",
        ])
    }

    static func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 48000) }

    /// The two tracks' volumes: the first ramps from 1 to 0 over 0.5–1.5 s then holds 0.5 from
    /// 1.5 s; the second is 0.25 from 1 s.
    static func mix(_ tracks: [AVAssetTrack]) -> AVMutableAudioMix {
        let first = AVMutableAudioMixInputParameters(track: tracks[0])
        first.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: CMTimeRange(start: seconds(0.5), end: seconds(1.5)))
        first.setVolume(0.5, at: seconds(1.5))
        let second = AVMutableAudioMixInputParameters(track: tracks[1])
        second.setVolume(0.25, at: seconds(1))
        let mix = AVMutableAudioMix()
        mix.inputParameters = [first, second]
        return mix
    }

    /// ffmpeg's per-sample sum with the same volumes.
    static let aeval = "[0:0][0:1]amerge=inputs=2,aeval='val(0)*if(lt(t,0.5),1,if(lt(t,1.5),1-(t-0.5),0.5))"
        + "+val(1)*if(lt(t,1),1,0.25)':c=mono"

    @Test func volumeRampsMatchFFmpegSampleBySample() throws {
        let url = try Self.twoTones()
        let asset = AVURLAsset(url: url)
        let tracks = asset.tracks(withMediaType: .audio)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderAudioMixOutput(audioTracks: tracks, audioSettings: AVCompositionReadingTests.floatMono)
        output.audioMix = Self.mix(tracks)
        reader.add(output)
        reader.startReading()
        let ours = try AVCompositionReadingTests.samples(of: output)
        #expect(reader.status == .completed)
        let reference = AVAssetReaderAudioMixOutputTests.floats(try Fixtures.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", url.path, "-filter_complex", Self.aeval, "-f", "f32le", "-"]))
        try #require(ours.count == 96_000 && reference.count == 96_000, "ours \(ours.count), ffmpeg \(reference.count)")
        let largest = zip(ours, reference).map { abs($0 - $1) }.max() ?? 1
        // The ramp is worked out per sample on both sides, in float: a few units in the last place.
        #expect(largest < 1e-4, "largest difference \(largest)")

        var start: Float = 0, end: Float = 0
        var range = CMTimeRange.invalid
        #expect(output.audioMix?.inputParameters[0].getVolumeRamp(for: Self.seconds(1), startVolume: &start, endVolume: &end, timeRange: &range) == true)
        #expect(start == 1 && end == 0 && range == CMTimeRange(start: Self.seconds(0.5), end: Self.seconds(1.5)))
        // Before any volume is set, the first ramp starting later is reported (Apple's documented behaviour).
        #expect(output.audioMix?.inputParameters[1].getVolumeRamp(for: Self.seconds(0.5), startVolume: &start, endVolume: nil, timeRange: &range) == true)
        #expect(start == 0.25 && range.start == Self.seconds(1))
        #expect(output.audioMix?.inputParameters[0].getVolumeRamp(for: Self.seconds(0.25), startVolume: nil, endVolume: nil, timeRange: &range) == true)
        #expect(range.start == Self.seconds(0.5))
    }

    @Test func exportAppliesTheMix() async throws {
        let url = try Self.twoTones()
        let asset = AVURLAsset(url: url)
        let session = try #require(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetAppleM4A))
        let output = ExportOracle.outputURL("audiomix.m4a")
        session.outputURL = output
        session.outputFileType = .m4a
        session.audioMix = Self.mix(asset.tracks(withMediaType: .audio))
        await session.export()
        try #require(session.status == .completed, "\(String(describing: session.error))")
        // One mixed track; its loudness over each stretch follows the volumes (AAC, so by
        // energy, against ffmpeg's same sum).
        #expect(try ExportOracle.streams(output).count == 1)
        func energy(_ samples: [Float], _ from: Double, _ to: Double) -> Double {
            let slice = samples[Int(from * 48000)..<Int(to * 48000)]
            return (slice.reduce(0.0) { $0 + Double($1 * $1) } / Double(slice.count)).squareRoot()
        }
        let ours = AVAssetReaderAudioMixOutputTests.floats(try Fixtures.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", output.path, "-ac", "1", "-ar", "48000", "-f", "f32le", "-"]))
        let reference = AVAssetReaderAudioMixOutputTests.floats(try Fixtures.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", url.path, "-filter_complex", Self.aeval, "-f", "f32le", "-"]))
        for (from, to) in [(0.1, 0.4), (0.6, 0.9), (1.1, 1.4), (1.6, 1.9)] {
            let (a, b) = (energy(ours, from, to), energy(reference, from, to))
            #expect(abs(a - b) < 0.05 * b, "\(from)–\(to) s: ours \(a), ffmpeg \(b)")
        }
    }

    @Test func stereoTracksMixChannelByChannel() throws {
        // Two stereo tracks whose left and right channels differ, at half volume each.
        let url = try Fixtures.make("audiomix-stereo.mov", [
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000",
            "-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000",
            "-filter_complex", "[0][1]amerge=inputs=2[x];[1][2]amerge=inputs=2[y]", "-map", "[x]", "-map", "[y]",
            "-t", "1", "-c:a", "pcm_f32le",
        ])
        let asset = AVURLAsset(url: url)
        let tracks = asset.tracks(withMediaType: .audio)
        let mix = AVMutableAudioMix()
        mix.inputParameters = tracks.map { track in
            let parameters = AVMutableAudioMixInputParameters(track: track)
            parameters.setVolume(0.5, at: .zero)
            return parameters
        }
        let reader = try AVAssetReader(asset: asset)
        var settings = AVCompositionReadingTests.floatMono
        settings[AVNumberOfChannelsKey] = 2
        let output = AVAssetReaderAudioMixOutput(audioTracks: tracks, audioSettings: settings)
        output.audioMix = mix
        reader.add(output)
        reader.startReading()
        var ours: [Float] = []
        while let buffer = output.copyNextSampleBuffer() {
            var chunk = [Float](repeating: 0, count: CMBlockBufferGetDataLength(buffer.dataBuffer!) / 4)
            chunk.withUnsafeMutableBytes { _ = CMBlockBufferCopyDataBytes(buffer.dataBuffer!, atOffset: 0, dataLength: $0.count, destination: $0.baseAddress!) }
            ours += chunk
        }
        #expect(reader.status == .completed, "\(String(describing: reader.error))")
        let reference = AVAssetReaderAudioMixOutputTests.floats(try Fixtures.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", url.path, "-filter_complex", "[0:0][0:1]amix=inputs=2:normalize=0,volume=0.5",
            "-f", "f32le", "-"]))
        try #require(ours.count == 96_000 && reference.count == 96_000, "ours \(ours.count), ffmpeg \(reference.count)")
        #expect((zip(ours, reference).map { abs($0 - $1) }.max() ?? 1) < 1e-4)
    }
}
