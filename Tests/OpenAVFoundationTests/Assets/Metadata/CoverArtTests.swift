import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Cover art (issue 40, kind 2): an MP3's or M4A's attached picture is the asset's artwork
/// metadata item, as Apple's asset shows it, not a video track; exports keep it.
@Suite(.timeLimit(.minutes(5))) struct CoverArtTests {
    static let files: [String] = ["cover-art.mp3", "cover-art.m4a"]

    static func url(_ name: String) throws -> URL {
        name == "cover-art.mp3" ? try RealWorldFixtures.coverArtMP3() : try RealWorldFixtures.coverArtM4A()
    }

    @Test(arguments: files) func theAttachedPictureIsTheArtworkItemNotATrack(_ name: String) async throws {
        let url = try Self.url(name)
        let picture = try RealWorldFixtures.ffmpegAttachedPicture(url)
        try #require(!picture.isEmpty, "ffmpeg finds no attached picture in \(name)")
        let asset = AVURLAsset(url: url)
        let (tracks, metadata, common) = try await asset.load(.tracks, .metadata, .commonMetadata)
        #expect(tracks.map(\.mediaType) == [.audio], "\(name)")
        let artwork = AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierArtwork)
        #expect(artwork.count == 1, "\(name)")
        #expect(artwork.first?.dataValue == picture, "\(name)")
        #expect(artwork.first?.dataType == kCMMetadataBaseDataType_PNG as String)
        let identifier: AVMetadataIdentifier = name.hasSuffix(".mp3") ? .id3MetadataAttachedPicture : .iTunesMetadataCoverArt
        let stored = AVMetadataItem.metadataItems(from: metadata, filteredByIdentifier: identifier)
        #expect(stored.first?.dataValue == picture, "\(name)")
        #expect(stored.first?.commonKey == .commonKeyArtwork)
    }

    @Test(arguments: files) func anAudioExportKeepsTheArtwork(_ name: String) async throws {
        let url = try Self.url(name)
        let (session, output) = try await ExportOracle.export(url, preset: AVAssetExportPresetAppleM4A, fileType: .m4a, name: "cover.m4a")
        try #require(session.status == .completed, "\(name): \(String(describing: session.error))")
        let streams = try ExportOracle.streams(output)
        #expect(streams.map { $0["codec_type"] as? String } == ["audio", "video"], "\(name)")
        #expect(try RealWorldFixtures.ffmpegAttachedPicture(output) == RealWorldFixtures.ffmpegAttachedPicture(url), "\(name)")
    }

    @Test func aWriterWritesArtworkItems() async throws {
        let picture = try Data(contentsOf: try RealWorldFixtures.coverPicture())
        let output = ExportOracle.outputURL("written-cover.m4a")
        let writer = try AVAssetWriter(outputURL: output, fileType: .m4a)
        let artwork = AVMutableMetadataItem()
        artwork.identifier = .iTunesMetadataCoverArt
        artwork.value = picture as NSData
        artwork.dataType = kCMMetadataBaseDataType_PNG as String
        writer.metadata = [artwork]
        let input = AVAssetWriterInput(mediaType: .audio, outputSettings: [
            AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44100, AVNumberOfChannelsKey: 1,
        ])
        writer.add(input)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        let reader = try AVAssetReader(asset: AVURLAsset(url: try RealWorldFixtures.coverArtMP3()))
        let source = AVAssetReaderTrackOutput(track: try #require(reader.asset.tracks(withMediaType: .audio).first),
                                              outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM])
        reader.add(source)
        #expect(reader.startReading())
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            input.requestMediaDataWhenReady(on: DispatchQueue(label: "cover-art.writer")) {
                while input.isReadyForMoreMediaData {
                    guard let sample = source.copyNextSampleBuffer(), input.append(sample) else {
                        input.markAsFinished()
                        finished.resume()
                        return
                    }
                }
            }
        }
        await writer.finishWriting()
        try #require(writer.status == .completed, "\(String(describing: writer.error))")
        #expect(try RealWorldFixtures.ffmpegAttachedPicture(output) == picture)
    }
}
