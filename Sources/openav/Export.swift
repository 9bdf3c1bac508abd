import ArgumentParser
import Dispatch
import Foundation
import OpenAVFoundation

/// `openav export IN OUT --preset NAME`: exports a file with one of Apple's presets through
/// `AVAssetExportSession`; `openav export --list-presets IN` lists the presets that fit it.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export a media file with one of AVAssetExportSession's presets (trim, resize, re-encode or copy).",
        discussion: """
            Presets: \(AVAssetExportSession.allExportPresets().map(Export.shortName).joined(separator: ", ")). \
            The output's type follows its extension (.mov, .mp4, .m4v, .m4a). Existing files are never overwritten; \
            Ctrl-C cancels and removes the partial file.
            """
    )

    @Argument(help: "The file to read.")
    var input: String

    @Argument(help: "The file to write.")
    var output: String?

    @Option(help: "The preset, such as 1280x720, HEVC1920x1080, HighestQuality, AppleM4A or Passthrough.")
    var preset = "HighestQuality"

    @Option(help: "Start at this time, in seconds.")
    var start: Double?

    @Option(help: "Export this many seconds.")
    var duration: Double?

    @Option(help: "Keep the file at or under this many bytes (the export ends early).")
    var fileLengthLimit: Int64?

    @Flag(help: "List the presets that can export the input, with the file types each writes.")
    var listPresets = false

    /// A preset's name without Apple's prefix, as the command takes it.
    static func shortName(_ name: String) -> String {
        name.hasPrefix("AVAssetExportPreset") ? String(name.dropFirst("AVAssetExportPreset".count)) : name
    }

    /// Apple's preset name for what the user typed (with or without the prefix, any case).
    static func presetName(_ typed: String) -> String? {
        AVAssetExportSession.allExportPresets().first {
            $0.lowercased() == typed.lowercased() || shortName($0).lowercased() == typed.lowercased()
        }
    }

    func validate() throws {
        if listPresets { return }
        guard let output else { throw ValidationError("give the file to write (or --list-presets)") }
        guard Convert.fileTypes[URL(fileURLWithPath: output).pathExtension.lowercased()] != nil else {
            throw ValidationError("the output must end in .mov, .mp4, .m4v or .m4a")
        }
        guard Self.presetName(preset) != nil else { throw ValidationError("unknown --preset \(preset)") }
        if let start, start < 0 { throw ValidationError("--start must not be negative") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be positive") }
    }

    func run() async throws {
        let asset = AVURLAsset(url: URL(mediaArgument: input))
        do {
            _ = try await asset.load(.tracks, .duration)
        } catch let error as AVError {
            throw CommandFailure("cannot open \(input): \(error.failureText)")
        }
        if listPresets {
            for name in AVAssetExportSession.exportPresets(compatibleWith: asset) {
                let types = AVAssetExportSession(asset: asset, presetName: name)!.supportedFileTypes
                let extensions = types.compactMap { type in Convert.fileTypes.first { $0.value == type }?.key }
                print("\(Self.shortName(name))\t\(extensions.map { "." + $0 }.joined(separator: " "))")
            }
            return
        }
        guard let output, let name = Self.presetName(preset), let session = AVAssetExportSession(asset: asset, presetName: name) else { return }
        let url = URL(fileURLWithPath: output)
        let fileType = Convert.fileTypes[url.pathExtension.lowercased()]!
        guard await AVAssetExportSession.compatibility(ofExportPreset: name, with: asset, outputFileType: fileType) else {
            let possible = session.supportedFileTypes.compactMap { type in Convert.fileTypes.first { $0.value == type }?.key }
            throw CommandFailure("\(Self.shortName(name)) cannot export \(input) to a .\(url.pathExtension) file"
                + (possible.isEmpty ? " (it cannot export this file at all)" : "; it can write .\(possible.joined(separator: ", ."))"))
        }
        session.outputURL = url
        session.outputFileType = fileType
        if start != nil || duration != nil {
            session.timeRange = CMTimeRange(start: asset.timelineOrigin + CMTime(seconds: start ?? 0, preferredTimescale: 600),
                                            duration: duration.map { CMTime(seconds: $0, preferredTimescale: 600) } ?? .positiveInfinity)
        }
        if let fileLengthLimit { session.fileLengthLimit = fileLengthLimit }

        try await Self.run(session, writing: output, presetName: name)
    }

    /// Runs a set-up export with the progress line on a terminal and Ctrl-C to cancel; prints
    /// the result line, or throws the failure in words.
    static func run(_ session: AVAssetExportSession, writing output: String, presetName name: String) async throws {
        let interrupt = InterruptHandler { session.cancelExport() }
        let line = ProgressLine(mediaSeconds: session.maxDuration.seconds) { session.progress }
        await session.export()
        line.finish()
        interrupt.cancel()
        switch session.status {
        case .completed:
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64) ?? 0
            print("\(output): \(Self.shortName(name)), \(size) bytes")
        case .cancelled:
            throw CommandFailure("cancelled; \(output) was not written")
        default:
            throw CommandFailure("the export failed: \((session.error as? AVError)?.failureText ?? "unknown error")")
        }
    }
}
