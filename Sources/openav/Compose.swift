import ArgumentParser
import Foundation
import OpenAVFoundation

/// `openav compose TIMELINE.otio OUT [--preset NAME]`: renders an OpenTimelineIO timeline (the
/// film and TV industry's editorial interchange format) through the editing API: clips with
/// source ranges, gaps, several video and audio tracks (later video tracks on top), SMPTE
/// dissolves as opacity and volume ramps, linear time warps as scaled time ranges, media by
/// path or `file:` URL.
struct Compose: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render an OpenTimelineIO timeline (.otio) to a movie.",
        discussion: """
            Supported: Timeline, Stack, Track (Video and Audio), Clip with an ExternalReference, Gap, SMPTE_Dissolve \
            transitions, LinearTimeWarp effects. Anything else is refused with its name. Pictures are fitted into the first \
            clip's size (or --size), the frame rate is the fastest clip's (or --fps). Existing files are never overwritten.
            """
    )

    @Argument(help: "The timeline to render (.otio, JSON).")
    var timeline: String

    @Argument(help: "The file to write (.mov, .mp4, .m4v).")
    var output: String

    @Option(help: "The preset, such as 1920x1080, HEVC1920x1080 or HighestQuality.")
    var preset = "HighestQuality"

    @Option(help: "The size of the pictures, as WIDTHxHEIGHT.")
    var size: String?

    @Option(help: "Pictures per second.")
    var fps: Double?

    func validate() throws {
        try Self.validateOutput(output, preset: preset)
        _ = try Self.parseSize(size)
        if let fps, !(fps > 0) { throw ValidationError("--fps must be positive") }
    }

    func run() async throws {
        let url = URL(fileURLWithPath: timeline)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CommandFailure("cannot read \(timeline): \(error.localizedDescription)")
        }
        var plan = try await OpenTimeline(data, folder: url.deletingLastPathComponent()).plan()
        guard !plan.clips.isEmpty else { throw CommandFailure("\(timeline) has no clip") }
        let assets = plan.clips.map(\.asset)
        try Self.setPictures(of: &plan, assets: assets, size: size, fps: fps)
        try await Self.export(plan, to: output, preset: preset)
    }

    // MARK: What the editing commands share

    /// Checks the output's extension and the preset (which must encode pictures).
    static func validateOutput(_ output: String, preset: String) throws {
        guard let type = Convert.fileTypes[URL(fileURLWithPath: output).pathExtension.lowercased()], type != .m4a else {
            throw ValidationError("the output must end in .mov, .mp4 or .m4v")
        }
        guard let name = Export.presetName(preset) else { throw ValidationError("unknown --preset \(preset)") }
        guard name != AVAssetExportPresetPassthrough, !name.contains("AppleM4A") else {
            throw ValidationError("--preset \(preset) cannot render an edit: choose one that encodes video, such as HighestQuality")
        }
    }

    /// A WIDTHxHEIGHT size, or nil.
    static func parseSize(_ text: String?) throws -> CGSize? {
        guard let text else { return nil }
        let sides = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard sides.count == 2, sides[0] > 0, sides[1] > 0, sides.allSatisfy({ $0 % 2 == 0 }) else {
            throw ValidationError("--size must be WIDTHxHEIGHT with even sides, such as 1920x1080")
        }
        return CGSize(width: sides[0], height: sides[1])
    }

    /// Opens the files, in order; the first that cannot be read ends the command.
    static func load(_ paths: [String]) async throws -> [AVURLAsset] {
        var assets: [AVURLAsset] = []
        for path in paths {
            let asset = AVURLAsset(url: URL(fileURLWithPath: path))
            do {
                _ = try await asset.load(.tracks, .duration)
            } catch let error as AVError {
                throw CommandFailure("cannot open \(path): \(error.failureText)")
            }
            assets.append(asset)
        }
        return assets
    }

    /// The picture size (given, else the first picture's upright size) and the frame duration
    /// (given, else the fastest video track's).
    static func setPictures(of plan: inout EditPlan, assets: [AVAsset], size: String?, fps: Double?) throws {
        let first = assets.lazy.map(EditPlan.uprightSize).first { $0 != .zero }
        guard let renderSize = try parseSize(size) ?? first else { throw CommandFailure("no file has pictures to show") }
        plan.renderSize = renderSize
        if let fps {
            plan.frameDuration = CMTime(seconds: 1 / fps, preferredTimescale: 90000)
        } else if let fastest = assets.compactMap({ $0.tracks(withMediaType: .video).first?.minFrameDuration })
            .filter({ $0.isNumeric && $0 > .zero }).min() {
            plan.frameDuration = fastest
        }
    }

    /// Builds the edit and exports it to `path` with `preset`, with the progress line.
    static func export(_ plan: EditPlan, to path: String, preset: String) async throws {
        let (composition, videoComposition, audioMix) = try plan.build()
        let url = URL(fileURLWithPath: path)
        guard let name = Export.presetName(preset),
              let session = AVAssetExportSession(asset: composition, presetName: name) else {
            throw CommandFailure("the preset \(preset) cannot export this edit")
        }
        session.outputURL = url
        session.outputFileType = Convert.fileTypes[url.pathExtension.lowercased()]
        session.videoComposition = videoComposition
        session.audioMix = audioMix
        try await Export.run(session, writing: path, presetName: name)
    }
}
