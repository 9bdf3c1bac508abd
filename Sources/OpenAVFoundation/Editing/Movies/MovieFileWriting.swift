import Foundation
import OpenCoreMedia

/// Writes a movie as a self-contained file through `AVAssetWriter`'s passthrough inputs: one
/// input per track with media, each track's edits read as stored (`MovieTrackSamples`) and
/// appended in decode order across the tracks; a track named as another's chapter list goes to
/// a text input named so, which the writer turns into the file's chapters. The file is
/// written beside the destination and moved into place when complete.
struct MovieFileWriting {
    let movie: AVMovie

    /// Writes the movie to `url` as `fileType`; `replacing`: a file there is replaced.
    func write(to url: URL, fileType: AVFileType, replacing: Bool) throws {
        guard movie.isCompatibleWithFileType(fileType) else {
            throw AVError(.formatUnsupported, reason: "a movie is written as QuickTime or MPEG-4, not \(fileType.rawValue)")
        }
        if let failure = movie.readFailure { throw failure }
        let partial = url.deletingLastPathComponent()
            .appendingPathComponent(".\(UUID().uuidString)-\(url.lastPathComponent)")
        defer { try? FileManager.default.removeItem(at: partial) }
        try writeFile(partial, fileType: fileType)
        if replacing {
            // One step: the old file stays whole until the new one takes its name.
            guard rename(partial.path, url.path) == 0 else {
                throw AVError(.unknown, reason: "\(url.path) could not be replaced: \(String(cString: strerror(errno)))")
            }
        } else {
            try FileManager.default.moveItem(at: partial, to: url)
        }
    }

    private func writeFile(_ url: URL, fileType: AVFileType) throws {
        let writer = try AVAssetWriter(outputURL: url, fileType: fileType)
        writer.metadata = movie.metadata
        var sources: [(input: AVAssetWriterInput, samples: MovieTrackSamples)] = []
        var inputsByTrack: [CMPersistentTrackID: AVAssetWriterInput] = [:]
        for track in movie.movieTracks {
            let edits = track.currentEdits
            guard let format = edits.lazy.compactMap({ $0.source?.contents.formatDescription }).first else { continue }
            let input = AVAssetWriterInput(mediaType: track.mediaType, outputSettings: nil, sourceFormatHint: format)
            input.transform = track.preferredTransform
            input.languageCode = track.languageCode
            input.extendedLanguageTag = track.extendedLanguageTag
            input.marksOutputTrackAsEnabled = track.isEnabled
            if track.mediaType != .audio, track.naturalTimeScale > 0 { input.mediaTimeScale = track.naturalTimeScale }
            guard writer.canAdd(input) else {
                throw AVError(.formatUnsupported, reason: "a \(track.mediaType.rawValue) track cannot be written to a \(fileType.rawValue) file")
            }
            writer.add(input)
            inputsByTrack[track.trackID] = input
            sources.append((input, MovieTrackSamples(edits: edits, mediaType: track.mediaType, timeScale: track.naturalTimeScale)))
        }
        for association in movie.movieState.associations {
            guard let from = inputsByTrack[association.from], let to = inputsByTrack[association.to],
                  from.canAddTrackAssociation(withTrackOf: to, type: association.type.rawValue) else { continue }
            from.addTrackAssociation(withTrackOf: to, type: association.type.rawValue)
        }
        guard writer.startWriting() else { throw Self.failure(of: writer) }
        writer.startSession(atSourceTime: .zero)
        do {
            try appendInDecodeOrder(sources)
        } catch {
            writer.cancelWriting()
            throw error
        }
        for source in sources { source.input.markAsFinished() }
        writer.finishNow()
        guard writer.status == .completed else { throw Self.failure(of: writer) }
    }

    /// Appends every track's samples, the one decoded earliest first, so that the file is
    /// interleaved.
    private func appendInDecodeOrder(_ sources: [(input: AVAssetWriterInput, samples: MovieTrackSamples)]) throws {
        var heads = try sources.map { try $0.samples.next() }
        while true {
            var earliest: (index: Int, time: CMTime)?
            for (index, head) in heads.enumerated() {
                guard let head else { continue }
                let time = head.decodeTimeStamp.isNumeric ? head.decodeTimeStamp : head.presentationTimeStamp
                if earliest == nil || time < earliest!.time { earliest = (index, time) }
            }
            guard let (index, _) = earliest, let sample = heads[index] else { return }
            guard sources[index].input.append(sample) else {
                throw AVError(.unknown, reason: "the movie's \(sources[index].input.mediaType.rawValue) sample could not be written")
            }
            heads[index] = try sources[index].samples.next()
        }
    }

    /// The writer's error as an `AVError`.
    private static func failure(of writer: AVAssetWriter) -> Error {
        writer.error ?? AVError(.unknown, reason: "the movie file could not be written")
    }
}
