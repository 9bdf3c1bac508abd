import ArgumentParser
import Foundation
import OpenAVFoundation

/// `openav thumbnail FILE --at SECONDS [--count N] --output PATH`: still images of a video with
/// `AVAssetImageGenerator`, written as PNG or JPEG by the output's extension.
struct Thumbnail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write still images of a video as PNG or JPEG.",
        discussion: """
            With --count N, N images are taken from --at to the end of the video, evenly spaced, \
            and numbered: out.png becomes out-1.png … out-N.png. Existing files are never overwritten.
            """
    )

    @Argument(help: "The video file.")
    var file: String

    @Option(help: "Where to take the (first) image, in seconds.")
    var at: Double = 0

    @Option(help: "How many images to take, evenly spaced from --at to the end.")
    var count: Int = 1

    @Option(name: .shortAndLong, help: "The image file to write (.png, .jpg or .jpeg).")
    var output: String

    @Option(help: "Fit images within this width (pixels), aspect kept.")
    var maxWidth: Double?

    @Flag(help: "Take the exact frame at each time instead of the nearest key frame before it.")
    var exact = false

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
        guard at >= 0 else { throw ValidationError("--at must not be negative") }
        guard Self.imageType(of: output) != nil else { throw ValidationError("--output must end in .png, .jpg or .jpeg") }
    }

    static func imageType(of path: String) -> String? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "png": return "public.png"
        case "jpg", "jpeg": return "public.jpeg"
        default: return nil
        }
    }

    func run() async throws {
        let asset = AVURLAsset(url: URL(mediaArgument: file))
        let duration: CMTime
        do {
            duration = try await asset.load(.duration)
        } catch let error as AVError {
            throw CommandFailure("cannot open \(file): \(error.failureText)")
        }
        let generator = AVAssetImageGenerator(asset: asset)
        generator.appliesPreferredTrackTransform = true
        if let maxWidth { generator.maximumSize = CGSize(width: maxWidth, height: 0) }
        if exact {
            generator.requestedTimeToleranceBefore = .zero
            generator.requestedTimeToleranceAfter = .zero
        }
        let start = CMTime(seconds: at, preferredTimescale: 600)
        let step = count > 1 ? CMTimeMultiplyByRatio(duration - start, multiplier: 1, divisor: Int32(count)) : .zero
        let outputs = count == 1 ? [output] : (1...count).map { Self.numbered(output, $0) }
        if let existing = outputs.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw CommandFailure("\(existing) exists; not overwriting it")
        }
        for (index, path) in outputs.enumerated() {
            let time = start + CMTimeMultiply(step, multiplier: Int32(index))
            let image: CGImage, actual: CMTime
            do {
                (image, actual) = try await generator.image(at: time)
            } catch let error as AVError {
                throw CommandFailure("no image at \(time.seconds) s: \(error.failureText)")
            }
            guard let destination = CGImageDestinationCreateWithURL(URL(fileURLWithPath: path) as CFURL,
                                                                     Self.imageType(of: path)! as CFString, 1, nil) else {
                throw CommandFailure("cannot write \(path)")
            }
            CGImageDestinationAddImage(destination, image, nil)
            guard CGImageDestinationFinalize(destination) else { throw CommandFailure("cannot write \(path)") }
            print(String(format: "%@  %dx%d  at %.3f s", path, image.width, image.height, actual.seconds))
        }
    }

    /// `out.png` numbered: `out-3.png`.
    static func numbered(_ path: String, _ number: Int) -> String {
        let url = URL(fileURLWithPath: path)
        let name = url.deletingPathExtension().lastPathComponent + "-\(number)." + url.pathExtension
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }
}
