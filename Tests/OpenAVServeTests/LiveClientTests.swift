import Foundation
import Hummingbird
import OpenAVFoundation
import Testing
@testable import OpenAVServe

/// What one browser of the live page still has to be sent, when it does not keep up: the
/// newest picture only, the newest second of sound in order, the levels merged.
@Suite(.timeLimit(.minutes(10))) struct LiveClientTests {
    /// A message whose first byte tells which it was.
    static func message(_ index: Int) -> ByteBuffer { ByteBuffer(bytes: [UInt8(index % 256), 0, 0, 0]) }

    @Test func aBrowserBehindGetsTheNewestPictureAndTheNewestSecondOfSound() async throws {
        let client = LiveClient()
        #expect(client.wantsPicture)
        // Two seconds of 10 ms buffers, and three pictures, while the browser sends nothing.
        for index in 0..<200 { client.offerSound(Self.message(index), duration: CMTime(value: 1, timescale: 100)) }
        for index in 0..<3 { client.offerPicture(Self.message(100 + index)) }
        #expect(!client.wantsPicture)
        client.offerLevel(average: -20, peak: -6)
        client.offerLevel(average: -30, peak: -3)
        let messages = try #require(await client.next())
        let binary = messages.compactMap { message -> UInt8? in
            guard case .binary(let buffer) = message else { return nil }
            return buffer.getInteger(at: buffer.readerIndex, as: UInt8.self)
        }
        #expect(binary == (100..<200).map { UInt8($0) } + [102])
        guard case .text(let level)? = messages.last else { Issue.record("the levels come last"); return }
        #expect(level == "{\"type\":\"level\",\"average\":-20.0,\"peak\":-3.0}")
        #expect(client.wantsPicture)
        client.close()
        #expect(await client.next() == nil)
    }
}
