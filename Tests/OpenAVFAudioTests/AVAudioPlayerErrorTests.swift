import Foundation
import OpenAVFAudio
import Testing
import TestSupport

/// AVAudioPlayer made from files and data it cannot play, and what it says of those it can,
/// without playing: Apple's errors (`NSOSStatusErrorDomain` with Core Audio's codes), never a crash.
@Suite(.timeLimit(.minutes(10))) struct AVAudioPlayerErrorTests {
    /// A 1 s 44.1 kHz mono MP3.
    static func mp3() throws -> URL {
        try Fixtures.make("player-1s.mp3", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=1", "-c:a", "libmp3lame"])
    }

    /// The OSStatus of an error thrown by `make`, checked to be in `NSOSStatusErrorDomain`.
    static func status(_ make: () throws -> AVAudioPlayer) -> Int? {
        do {
            _ = try make()
            return nil
        } catch {
            let error = error as NSError
            #expect(error.domain == NSOSStatusErrorDomain)
            return error.code
        }
    }

    @Test func aMissingFileIsAnUnspecifiedFileError() {
        let url = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).wav")
        #expect(Self.status { try AVAudioPlayer(contentsOf: url) } == Int(kAudioFileUnspecifiedError))
    }

    @Test func bytesThatAreNoSoundAreRefused() throws {
        let junk = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        let url = Fixtures.folder.appendingPathComponent("junk-\(UUID().uuidString).wav")
        try junk.write(to: url)
        let codes = [Int(kAudioFileUnsupportedFileTypeError), Int(kAudioFileInvalidFileError), Int(kAudioFileUnsupportedDataFormatError)]
        #expect(Self.status { try AVAudioPlayer(contentsOf: url) }.map(codes.contains) == true)
        #expect(Self.status { try AVAudioPlayer(data: junk) }.map(codes.contains) == true)
        #expect(Self.status { try AVAudioPlayer(data: Data()) } != nil)
    }

    @Test func aFileWithoutSoundIsAnUnsupportedDataFormat() throws {
        let video = try Fixtures.make("video-only.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1", "-c:v", "libx264"])
        #expect(Self.status { try AVAudioPlayer(contentsOf: video) } == Int(kAudioFileUnsupportedDataFormatError))
    }

    /// From a URL or the same bytes in memory: the same format, channels, duration and settings.
    @Test func aFileAndItsDataDescribeTheSameSound() throws {
        let url = try Self.mp3()
        let fromURL = try AVAudioPlayer(contentsOf: url, fileTypeHint: nil)
        let fromData = try AVAudioPlayer(data: try Data(contentsOf: url))
        #expect(fromURL.url == url && fromURL.data == nil)
        #expect(fromData.url == nil && fromData.data != nil)
        for player in [fromURL, fromData] {
            #expect(player.numberOfChannels == 1)
            #expect(player.format.sampleRate == 44_100)
            #expect(abs(player.duration - 1) < 0.03, "duration \(player.duration)")
            #expect(player.settings[AVSampleRateKey] as? Double == 44_100 || player.settings[AVSampleRateKey] as? Int == 44_100)
            #expect(!player.isPlaying)
            #expect(player.averagePower(forChannel: 0) == -160)
        }
    }

    /// A file cut in the middle opens and says the length that is there.
    @Test func aTruncatedFileOpensWithWhatIsThere() throws {
        let url = try Self.mp3()
        let bytes = try Data(contentsOf: url)
        let player = try AVAudioPlayer(data: bytes.prefix(bytes.count / 2))
        #expect(player.duration > 0.3 && player.duration < 0.7, "duration \(player.duration)")
    }

    /// `currentTime` set while not playing reads back to the frame; `volume`, `pan` and `rate`
    /// stay within Apple's ranges.
    @Test func propertiesKeepTheirRanges() throws {
        let player = try AVAudioPlayer(contentsOf: try Self.mp3())
        player.currentTime = 0.5
        #expect(player.currentTime == 0.5)
        player.volume = 2
        #expect(player.volume == 1)
        player.pan = -3
        #expect(player.pan == -1)
        player.rate = 4
        #expect(player.rate == 2)
        player.setVolume(0.25, fadeDuration: 1)
        #expect(player.volume == 0.25)
        #expect(!player.play(atTime: player.deviceCurrentTime - 1))
    }
}
