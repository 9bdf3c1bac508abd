import CFFmpeg
import Foundation
import Testing
import TestSupport
@testable import MediaEngine

/// The `esds` payload of an `mp4v` sample description: made from a decoder configuration and
/// read back, and read from the atom ffmpeg writes into the same configuration FFmpeg reads.
@Suite(.timeLimit(.minutes(10))) struct ElementaryStreamDescriptorTests {
    @Test func madeAndReadBack() {
        for size in [1, 47, 127, 128, 300] {
            let config = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            #expect(ElementaryStreamDescriptor.decoderConfig(fromESDS: ElementaryStreamDescriptor.esds(decoderConfig: config)) == config)
        }
        // A bare VOL header is no esds.
        #expect(ElementaryStreamDescriptor.decoderConfig(fromESDS: Data([0, 0, 1, 0xB0, 1])) == nil)
    }

    @Test func readsTheAtomFFmpegWrites() throws {
        let url = try RealWorldFixtures.mp4vMP4()
        let file = try Data(contentsOf: url)
        let at = try #require(file.range(of: Data("esds".utf8)))
        let size = file[at.lowerBound - 4..<at.lowerBound].reduce(0) { $0 << 8 | Int($1) }
        let stored = Data(file[at.upperBound..<at.lowerBound - 4 + size])
        let demuxer = try Demuxer(url: url)
        let video = try #require(demuxer.streams.first { $0.kind == .video })
        let parameters = demuxer.codecParameters(ofStream: video.index).pointee
        let extradata = Data(bytes: try #require(parameters.extradata), count: Int(parameters.extradata_size))
        #expect(ElementaryStreamDescriptor.decoderConfig(fromESDS: stored) == extradata)
    }
}
