import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Images made by AVAssetImageGenerator, checked against ffmpeg's own decode of the same frames.
@Suite(.timeLimit(.minutes(10))) struct AVAssetImageGeneratorTests {
    /// A 4 s clip with a key frame every second (25 frames), so tolerances matter.
    static func clip() throws -> URL {
        try Fixtures.make("generator-gop25.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "4",
                                                  "-c:v", "libx264", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
                                                  "-pix_fmt", "yuv420p"])
    }

    /// ffmpeg's BGRA decode of frame `index`.
    static func reference(_ url: URL, frame index: Int, filter: String? = nil) throws -> [UInt8] {
        let select = "select=eq(n\\,\(index))" + (filter.map { "," + $0 } ?? "")
        return [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-vf", select, "-frames:v", "1",
                                                   "-pix_fmt", "bgra", "-f", "rawvideo", "-"]))
    }

    /// The bytes of a 32-bit image, rows without padding.
    static func bytes(_ image: CGImage) -> [UInt8] {
        let data = image.dataProvider!.data! as Data
        return (0..<image.height).flatMap { row in data[(row * image.bytesPerRow)..<(row * image.bytesPerRow + image.width * 4)] }
    }

    @Test func guideSingleImageExample() throws {
        // "Generating a Single Image": the midpoint, with the actual time reported.
        let myAsset = AVURLAsset(url: try Self.clip())
        let imageGenerator = AVAssetImageGenerator(asset: myAsset)
        let durationSeconds = CMTimeGetSeconds(myAsset.duration)
        let midpoint = CMTimeMakeWithSeconds(durationSeconds / 2.0, preferredTimescale: 600)
        var actualTime = CMTime.invalid
        let halfWayImage = try imageGenerator.copyCGImage(at: midpoint, actualTime: &actualTime)
        // Default tolerances: the key frame at or before 2 s, which is frame 50 at exactly 2 s.
        #expect(actualTime == CMTime(value: 2, timescale: 1))
        #expect(halfWayImage.width == 320 && halfWayImage.height == 240)
        #expect(PixelComparison.psnr(Self.bytes(halfWayImage), try Self.reference(myAsset.url, frame: 50)) >= 40)
    }

    @Test func defaultToleranceGivesTheKeyFrameBefore() async throws {
        let asset = AVURLAsset(url: try Self.clip())
        let generator = AVAssetImageGenerator(asset: asset)
        let (_, time) = try await generator.image(at: CMTime(value: 37, timescale: 25))
        #expect(time == CMTime(value: 1, timescale: 1))
    }

    @Test func zeroToleranceGivesTheExactFrame() async throws {
        let url = try Self.clip()
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let (image, time) = try await generator.image(at: CMTime(value: 37, timescale: 25))
        #expect(time == CMTime(value: 37 * 512, timescale: 12800))
        #expect(PixelComparison.psnr(Self.bytes(image), try Self.reference(url, frame: 37)) >= 40)
    }

    @Test func maximumSizeKeepsTheAspectAndNeverEnlarges() throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try Self.clip()))
        generator.maximumSize = CGSize(width: 160, height: 160)
        let small = try generator.copyCGImage(at: .zero, actualTime: nil)
        #expect(small.width == 160 && small.height == 120)
        generator.maximumSize = CGSize(width: 1000, height: 1000)
        let full = try generator.copyCGImage(at: .zero, actualTime: nil)
        #expect(full.width == 320 && full.height == 240)
    }

    @Test func appliesThePreferredTransform() throws {
        let plain = try Self.clip()
        let rotated = try Fixtures.make("generator-rotated.mp4", ["-i", plain.path, "-t", "1", "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: rotated))
        generator.appliesPreferredTrackTransform = true
        let image = try generator.copyCGImage(at: .zero, actualTime: nil)
        #expect(image.width == 240 && image.height == 320)
        // The file's matrix (0 -1 / 1 0) maps pixel (x, y) to (y, -x): ffmpeg's transpose=2
        // (counterclockwise) turns the picture the same way.
        let reference = try Self.reference(plain, frame: 0, filter: "transpose=2")
        #expect(PixelComparison.psnr(Self.bytes(image), reference) >= 40)
        generator.appliesPreferredTrackTransform = false
        #expect(try generator.copyCGImage(at: .zero, actualTime: nil).width == 320)
    }

    @Test func guideSeriesOfImagesExample() async throws {
        let myAsset = AVURLAsset(url: try Self.clip())
        let imageGenerator = AVAssetImageGenerator(asset: myAsset)
        let durationSeconds = CMTimeGetSeconds(myAsset.duration)
        let firstThird = CMTimeMakeWithSeconds(durationSeconds / 3.0, preferredTimescale: 600)
        let secondThird = CMTimeMakeWithSeconds(durationSeconds * 2.0 / 3.0, preferredTimescale: 600)
        let end = CMTimeMakeWithSeconds(durationSeconds, preferredTimescale: 600)
        let times = [NSValue(time: .zero), NSValue(time: firstThird), NSValue(time: secondThird), NSValue(time: end)]
        let results = await withCheckedContinuation { (done: CheckedContinuation<[(CMTime, AVAssetImageGenerator.Result, CMTime)], Never>) in
            let collected = Collected()
            imageGenerator.generateCGImagesAsynchronously(forTimes: times) { requested, image, actual, result, error in
                if collected.append((requested, result, actual)) == times.count { done.resume(returning: collected.items) }
            }
        }
        #expect(results.map(\.0) == times.map(\.timeValue))
        #expect(results.allSatisfy { $0.1 == .succeeded })
        #expect(results.map(\.2) == [0, 1, 2, 3].map { CMTime(value: Int64($0), timescale: 1) })
    }

    @Test func noVideoTrackIsAnError() throws {
        let audioOnly = try Fixtures.make("generator-audio.m4a", ["-f", "lavfi", "-i", "sine", "-t", "1", "-c:a", "aac"])
        #expect(throws: AVError.self) { try AVAssetImageGenerator(asset: AVURLAsset(url: audioOnly)).copyCGImage(at: .zero, actualTime: nil) }
    }

    @Test func writesPNGAndJPEGThatFFprobeReads() throws {
        let image = try AVAssetImageGenerator(asset: AVURLAsset(url: try Self.clip())).copyCGImage(at: .zero, actualTime: nil)
        for (type, codec) in [("public.png", "png"), ("public.jpeg", "mjpeg")] {
            let url = Fixtures.folder.appendingPathComponent("still-\(codec)")
            let destination = try #require(CGImageDestinationCreateWithURL(url as CFURL, type as CFString, 1, nil))
            CGImageDestinationAddImage(destination, image, nil)
            #expect(CGImageDestinationFinalize(destination))
            let stream = try #require((try Fixtures.probe(url)["streams"] as? [[String: Any]])?.first)
            #expect(stream["codec_name"] as? String == codec)
            #expect(stream["width"] as? Int == 320 && stream["height"] as? Int == 240)
            // Video frames are opaque: no alpha channel is stored.
            if codec == "png" { #expect(stream["pix_fmt"] as? String == "rgb24") }
        }
        #expect(image.alphaInfo == .noneSkipFirst)
        #expect(CGImageDestinationCreateWithURL(URL(fileURLWithPath: "/tmp/x.gif") as CFURL, "com.compuserve.gif" as CFString, 1, nil) == nil)
    }
}

/// Results gathered from a handler called on another queue.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var items: [(CMTime, AVAssetImageGenerator.Result, CMTime)] = []

    /// Adds one result; returns how many there are now.
    func append(_ item: (CMTime, AVAssetImageGenerator.Result, CMTime)) -> Int {
        lock.withLock {
            items.append(item)
            return items.count
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct AVAssetImageGeneratorSequenceTests {
    @Test func imagesForTimesArriveInOrder() async throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try AVAssetImageGeneratorTests.clip()))
        var times: [CMTime] = []
        for await result in generator.images(for: [.zero, CMTime(value: 3, timescale: 2), CMTime(value: -1, timescale: 1)]) {
            times.append(result.requestedTime)
            if result.requestedTime.seconds >= 0 {
                #expect(try result.image.width == 320)
                #expect(try result.actualTime <= result.requestedTime)
            }
        }
        #expect(times == [.zero, CMTime(value: 3, timescale: 2), CMTime(value: -1, timescale: 1)])
    }
}
