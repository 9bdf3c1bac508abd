#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OpenAVFoundation

/// Our side of each workload, run in a child process (`openav-bench --worker NAME …`) so that
/// its wall time, CPU time and peak memory are measured exactly as the ffmpeg side's are.
/// Each prints one line of what it did, which the parent keeps in the log.
enum Workers {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func run(_ name: String, _ arguments: [String]) async throws {
        switch name {
        case "decode": try await decode(URL(fileURLWithPath: arguments[0]))
        case "encode":
            try await encode(raw: arguments[0], frames: Int(arguments[1])!, output: URL(fileURLWithPath: arguments[2]))
        case "thumbnails":
            try await thumbnails(URL(fileURLWithPath: arguments[0]), count: Int(arguments[1])!, directory: arguments[2])
        case "remux":
            try await remux(URL(fileURLWithPath: arguments[0]), start: Double(arguments[1])!, duration: Double(arguments[2])!,
                            output: URL(fileURLWithPath: arguments[3]))
        case "probe": try await probe(arguments.map { URL(fileURLWithPath: $0) })
        default: throw Failure("no worker \(name)")
        }
    }

    /// Workload 1: every frame to BGRA through `AVAssetReaderTrackOutput`.
    static func decode(_ url: URL) async throws {
        let asset = AVURLAsset(url: url)
        guard let track = try await asset.loadTracks(withMediaType: .video).first else { throw Failure("no video track") }
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
        ])
        output.alwaysCopiesSampleData = false
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? Failure("startReading failed") }
        var frames = 0
        var last = CMTime.invalid
        while let sample = output.copyNextSampleBuffer() {
            guard CMSampleBufferGetImageBuffer(sample) != nil else { throw Failure("a sample without pixels") }
            frames += 1
            last = sample.presentationTimeStamp
        }
        guard reader.status == .completed else { throw reader.error ?? Failure("reading ended with status \(reader.status)") }
        print("decoded \(frames) BGRA frames, last at \(last.seconds) s")
    }

    /// Workload 2: raw BGRA frames read from a file into the adaptor's pool buffers, encoded to
    /// H.264 in MP4 with the writer's defaults.
    static func encode(raw: String, frames: Int, output: URL) async throws {
        let (width, height) = (1920, 1080)
        let writer = try AVAssetWriter(outputURL: output, fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [
            AVVideoCodecKey: AVVideoCodecType.h264,
            AVVideoWidthKey: width,
            AVVideoHeightKey: height,
            AVVideoCompressionPropertiesKey: [AVVideoExpectedSourceFrameRateKey: 30],
        ])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
            kCVPixelBufferWidthKey as String: width,
            kCVPixelBufferHeightKey as String: height,
        ])
        writer.add(input)
        guard writer.startWriting() else { throw writer.error ?? Failure("startWriting failed") }
        writer.startSession(atSourceTime: .zero)
        guard let pool = adaptor.pixelBufferPool else { throw Failure("no pixel buffer pool") }
        let fd = open(raw, O_RDONLY)
        guard fd >= 0 else { throw Failure("cannot open \(raw)") }
        defer { close(fd) }
        let rowBytes = width * 4
        for index in 0..<frames {
            var made: CVPixelBuffer?
            CVPixelBufferPoolCreatePixelBuffer(nil, pool, &made)
            guard let buffer = made else { throw Failure("the pool gave no buffer") }
            CVPixelBufferLockBaseAddress(buffer, [])
            let base = CVPixelBufferGetBaseAddress(buffer)!
            let stride = CVPixelBufferGetBytesPerRow(buffer)
            if stride == rowBytes {
                try readFully(fd, base, rowBytes * height)
            } else {
                for row in 0..<height { try readFully(fd, base + row * stride, rowBytes) }
            }
            CVPixelBufferUnlockBaseAddress(buffer, [])
            while !input.isReadyForMoreMediaData { usleep(100) }
            guard adaptor.append(buffer, withPresentationTime: CMTime(value: Int64(index), timescale: 30)) else {
                throw writer.error ?? Failure("append failed")
            }
        }
        input.markAsFinished()
        await writer.finishWriting()
        guard writer.status == .completed else { throw writer.error ?? Failure("writing ended with status \(writer.status)") }
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        print("encoded \(frames) frames into \(size) bytes")
    }

    private static func readFully(_ fd: Int32, _ target: UnsafeMutableRawPointer, _ count: Int) throws {
        var done = 0
        while done < count {
            let got = read(fd, target + done, count - done)
            guard got > 0 else { throw Failure("the raw frame file ended early") }
            done += got
        }
    }

    /// Workload 3: `count` thumbnails evenly spread, default tolerances, each written as PNG
    /// through `CGImageDestination` (as ffmpeg writes PNG).
    static func thumbnails(_ url: URL, count: Int, directory: String) async throws {
        let asset = AVURLAsset(url: url)
        let duration = try await asset.load(.duration)
        let generator = AVAssetImageGenerator(asset: asset)
        var actual: [String] = []
        for (index, seconds) in thumbnailTimes(duration: duration.seconds, count: count).enumerated() {
            let (image, time) = try await generator.image(at: CMTime(seconds: seconds, preferredTimescale: 600))
            let path = "\(directory)/ours-\(index).png"
            guard let destination = CGImageDestinationCreateWithURL(URL(fileURLWithPath: path) as CFURL, "public.png" as CFString, 1, nil)
            else { throw Failure("no PNG destination") }
            CGImageDestinationAddImage(destination, image, nil)
            guard CGImageDestinationFinalize(destination) else { throw Failure("cannot write \(path)") }
            actual.append(String(format: "%.2f", time.seconds))
        }
        print("\(count) thumbnails at \(actual.joined(separator: " "))")
    }

    /// The times of the thumbnails: the middles of `count` equal parts of the duration.
    static func thumbnailTimes(duration: Double, count: Int) -> [Double] {
        (0..<count).map { duration * (Double($0) + 0.5) / Double(count) }
    }

    /// Workload 4: the samples of every track in a time range, as stored, into a new MP4.
    static func remux(_ url: URL, start: Double, duration: Double, output: URL) async throws {
        let asset = AVURLAsset(url: url)
        let tracks = try await asset.load(.tracks)
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 600),
                                       duration: CMTime(seconds: duration, preferredTimescale: 600))
        let writer = try AVAssetWriter(outputURL: output, fileType: .mp4)
        var pairs: [(output: AVAssetReaderTrackOutput, input: AVAssetWriterInput)] = []
        for track in tracks {
            let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
            output.alwaysCopiesSampleData = false
            reader.add(output)
            let hint = try await track.load(.formatDescriptions).first
            let input = AVAssetWriterInput(mediaType: track.mediaType, outputSettings: nil, sourceFormatHint: hint)
            writer.add(input)
            pairs.append((output, input))
        }
        guard reader.startReading() else { throw reader.error ?? Failure("startReading failed") }
        guard writer.startWriting() else { throw writer.error ?? Failure("startWriting failed") }
        // The first sample of each track; the session starts at the earliest.
        var heads = pairs.map { $0.output.copyNextSampleBuffer() }
        let firstTimes = heads.compactMap { $0?.presentationTimeStamp }.filter(\.isNumeric)
        writer.startSession(atSourceTime: firstTimes.min() ?? .zero)
        var samples = 0
        // Interleave by time, as a player-friendly file needs: always the track that is behind.
        while true {
            let next = heads.indices.filter { heads[$0] != nil }
                .min { heads[$0]!.decodeTimeStampOrPresentation < heads[$1]!.decodeTimeStampOrPresentation }
            guard let index = next else { break }
            guard pairs[index].input.append(heads[index]!) else { throw writer.error ?? Failure("append failed") }
            samples += 1
            heads[index] = pairs[index].output.copyNextSampleBuffer()
            if heads[index] == nil { pairs[index].input.markAsFinished() }
        }
        guard reader.status == .completed else { throw reader.error ?? Failure("reading ended with status \(reader.status)") }
        await writer.finishWriting()
        guard writer.status == .completed else { throw writer.error ?? Failure("writing ended with status \(writer.status)") }
        print("remuxed \(samples) samples of \(pairs.count) tracks from \(firstTimes.min()?.seconds ?? 0) s")
    }

    /// Workload 5: duration and tracks of each file.
    static func probe(_ urls: [URL]) async throws {
        var trackCount = 0
        var total = 0.0
        for url in urls {
            let asset = AVURLAsset(url: url)
            let (duration, tracks) = try await asset.load(.duration, .tracks)
            trackCount += tracks.count
            total += duration.seconds
        }
        print("probed \(urls.count) files: \(trackCount) tracks, \(String(format: "%.2f", total)) s in all")
    }
}

extension CMSampleBuffer {
    /// The decode time, or the presentation time when there is none (for interleaving).
    var decodeTimeStampOrPresentation: CMTime {
        let decode = decodeTimeStamp
        return decode.isNumeric ? decode : presentationTimeStamp
    }
}
