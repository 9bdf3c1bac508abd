import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Mixed audio compared with ffmpeg's `amix` of the same tracks, and random access reading.
@Suite(.timeLimit(.minutes(10))) struct AVAssetReaderAudioMixOutputTests {
    static func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Reads the mix of a file's audio tracks as 48 kHz mono float samples, checking the format
    /// and that timestamps are continuous.
    static func readMix(_ url: URL) throws -> [Float] {
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderAudioMixOutput(audioTracks: asset.tracks(withMediaType: .audio), audioSettings: nil)
        #expect(reader.canAdd(output))
        reader.add(output)
        reader.startReading()
        var samples: [Float] = []
        var expectedTime = CMTime.zero
        while let buffer = output.copyNextSampleBuffer() {
            #expect(buffer.presentationTimeStamp == expectedTime)
            expectedTime = expectedTime + CMTime(value: Int64(buffer.numSamples), timescale: 48000)
            let asbd = try #require(buffer.formatDescription?.audioStreamBasicDescription)
            #expect(asbd.mSampleRate == 48000 && asbd.mChannelsPerFrame == 1 && asbd.mBitsPerChannel == 32)
            var bytes = Data(count: CMBlockBufferGetDataLength(buffer.dataBuffer!))
            bytes.withUnsafeMutableBytes { _ = CMBlockBufferCopyDataBytes(buffer.dataBuffer!, atOffset: 0, dataLength: $0.count, destination: $0.baseAddress!) }
            samples += floats(bytes)
        }
        #expect(reader.status == .completed)
        return samples
    }

    /// ffmpeg's sum of the two tracks at 48 kHz.
    static func amix(_ url: URL) throws -> [Float] {
        floats(try Fixtures.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", url.path,
            "-filter_complex", "[0:0]aresample=48000[a];[0:1]aresample=48000[b];[a][b]amix=inputs=2:normalize=0",
            "-f", "f32le", "-ac", "1", "-",
        ]))
    }

    /// The energy of the difference relative to the energy of the reference.
    static func relativeError(_ ours: [Float], _ reference: [Float]) -> Double {
        let n = min(ours.count, reference.count) - 64
        let error = (0..<n).reduce(0.0) { let d = Double(ours[$1] - reference[$1]); return $0 + d * d }
        let energy = (0..<n).reduce(0.0) { $0 + Double(reference[$1] * reference[$1]) }
        return error / energy
    }

    /// Mixes a 440 Hz track at 48 kHz with a 660 Hz track at `secondRate` and compares the
    /// mix with ffmpeg's; returns the relative error.
    static func mixError(secondRate: Int) throws -> Double {
        let url = try Fixtures.make("mix-48000-\(secondRate).mov", [
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=\(secondRate)",
            "-t", "1", "-map", "0:a", "-map", "1:a", "-c:a", "pcm_f32le",
        ])
        let (ours, reference) = (try readMix(url), try amix(url))
        #expect(abs(ours.count - reference.count) <= 64, "ours \(ours.count), ffmpeg \(reference.count)")
        return relativeError(ours, reference)
    }

    @Test func mixIsTheSumOfTheTracks() throws {
        #expect(try Self.mixError(secondRate: 48000) < 0.001)
    }

    @Test func tracksOfOtherRatesAreResampledBeforeMixing() throws {
        // Our resampler and the filter graph's differ in phase by a fraction of a sample, about
        // 1 % of the energy; a missing or unresampled track would be 30 % or more.
        #expect(try Self.mixError(secondRate: 44100) < 0.02)
    }

    @Test func settingsMustBeLinearPCM() throws {
        let asset = AVURLAsset(url: try Fixtures.h264AAC())
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderAudioMixOutput(audioTracks: asset.tracks(withMediaType: .audio), audioSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC])
        #expect(!reader.canAdd(output))
        #expect(!reader.canAdd(AVAssetReaderAudioMixOutput(audioTracks: asset.tracks(withMediaType: .video), audioSettings: nil)))
    }

    @Test func randomAccessReadsEachRangeThenCompletes() throws {
        let asset = AVURLAsset(url: try Fixtures.h264AAC())
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 2, timescale: 10))
        let output = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0],
                                              outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8Planar])
        output.supportsRandomAccess = true
        reader.add(output)
        reader.startReading()
        let first = AVAssetReaderTests.readAll(output).map(\.presentationTimeStamp)
        #expect(first == (0..<5).map { CMTime(value: Int64($0), timescale: 25) })
        #expect(reader.status == .reading)
        output.reset(forReadingTimeRanges: [NSValue(timeRange: CMTimeRange(start: CMTime(value: 1, timescale: 1), duration: CMTime(value: 2, timescale: 25)))])
        let second = AVAssetReaderTests.readAll(output).map(\.presentationTimeStamp)
        #expect(second == [25, 26].map { CMTime(value: Int64($0 * 512), timescale: 12800) })
        output.markConfigurationAsFinal()
        #expect(reader.status == .completed)
    }
}
