import Foundation
import Testing
import TestSupport
import OpenAVFoundation

/// The examples of the documentation catalog (`Sources/OpenAVFoundation/OpenAVFoundation.docc`),
/// word for word, so that they compile; those that need no device or sound server also run.
/// An article's example changed there is changed here.
@Suite(.timeLimit(.minutes(10))) struct DocumentationExampleTests {
    // UsingAssets.md
    static func usingAssets(_ url: URL) async throws -> (CMTime, Int, CGSize) {
        let asset = AVURLAsset(url: url)
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        let video = try await asset.loadTracks(withMediaType: .video).first
        let size = try await video?.load(.naturalSize)
        print(duration.seconds, tracks.count, size ?? .zero)
        return (duration, tracks.count, size ?? .zero)
    }

    // Audio.md, speaking text (runs: no sound server needed to write).
    static func speakingText(_ file: AVAudioFile) -> AVSpeechSynthesizer {
        let utterance = AVSpeechUtterance(string: "The quick brown fox jumps over the lazy dog.")
        utterance.voice = AVSpeechSynthesisVoice(language: "en-GB")
        utterance.rate = AVSpeechUtteranceDefaultSpeechRate
        let synthesizer = AVSpeechSynthesizer()
        synthesizer.write(utterance) { buffer in
            guard let pcm = buffer as? AVAudioPCMBuffer, pcm.frameLength > 0 else { return }
            try? file.write(from: pcm)
        }
        return synthesizer
    }

    // Playback.md (compiled; playing needs a sound server, which the playback tests start).
    static func playback(_ url: URL) -> (AVPlayer, NSKeyValueObservation, Any, CVPixelBuffer?) {
        let player = AVPlayer(url: url)
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: nil)
        player.currentItem?.add(output)
        let observation = player.observe(\.status) { player, _ in
            if player.status == .readyToPlay { player.play() }
        }
        let ticks = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 2), queue: .main) { time in
            print(time.seconds)
        }
        // In the display loop: the picture due now.
        var shown: CVPixelBuffer?
        let time = output.itemTime(forHostTime: CACurrentMediaTime())
        if output.hasNewPixelBuffer(forItemTime: time) {
            let picture = output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: nil)
            shown = picture
        }
        return (player, observation, ticks, shown)
    }

    // Playback.md, The Access Log (compiled; the playback tests check the log).
    static func accessLog(_ item: AVPlayerItem) {
        if let event = item.accessLog()?.events.last {
            print("\(event.durationWatched) s watched, \(event.numberOfStalls) stalls, \(event.numberOfDroppedVideoFrames) pictures dropped")
        }
    }

    // Playback.md, Timed Metadata (compiled; the timed metadata tests play such a stream).
    final class CueListener: NSObject, AVPlayerItemMetadataOutputPushDelegate, @unchecked Sendable {
        func metadataOutput(_ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
                            from track: AVPlayerItemTrack?) {
            for item in groups.flatMap(\.items) where item.identifier == .id3MetadataUserText {
                print("\(item.time.seconds) s: \(item.stringValue ?? "")")
            }
        }
    }

    static func listen(to item: AVPlayerItem, with listener: CueListener) {
        let output = AVPlayerItemMetadataOutput(identifiers: nil)
        output.setDelegate(listener, queue: DispatchQueue(label: "cues"))
        item.add(output)
    }

    // Audio.md, Reading and writing files (runs: the AVFAudio tests check every format).
    static func copySound(_ url: URL, to outputURL: URL) throws -> AVAudioFile {
        let file = try AVAudioFile(forReading: url)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length))!
        try file.read(into: buffer)
        let format = file.processingFormat
        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: format.sampleRate,
                                       AVNumberOfChannelsKey: format.channelCount, AVEncoderBitRateKey: 128_000]
        let copy = try AVAudioFile(forWriting: outputURL, settings: settings)
        try copy.write(from: buffer)
        return copy
    }

    // Audio.md, Playing a sound (compiled; playing needs a sound server, which the player tests start).
    static func playSound(_ url: URL) throws -> AVAudioPlayer {
        let player = try AVAudioPlayer(contentsOf: url)
        player.numberOfLoops = 1
        player.enableRate = true
        player.rate = 1.5
        player.prepareToPlay()
        player.play()
        return player
    }

    // AudioEngine.md, Effects and taps (compiled; starting needs a sound server, which the
    // engine's playback tests start).
    static func effectsAndTap(_ songURL: URL, meter: @escaping @Sendable (Float, AVAudioFramePosition) -> Void) throws -> (AVAudioEngine, Any) {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let equalizer = AVAudioUnitEQ(numberOfBands: 1)
        equalizer.bands[0].filterType = .highPass
        equalizer.bands[0].frequency = 120
        equalizer.bands[0].bypass = false
        let reverb = AVAudioUnitReverb()
        reverb.loadFactoryPreset(.mediumHall)
        reverb.wetDryMix = 30
        let file = try AVAudioFile(forReading: songURL)
        for node in [player, equalizer, reverb] as [AVAudioNode] {
            engine.attach(node)
        }
        engine.connect(player, to: equalizer, format: file.processingFormat)
        engine.connect(equalizer, to: reverb, format: file.processingFormat)
        engine.connect(reverb, to: engine.mainMixerNode, format: file.processingFormat)
        player.scheduleFile(file, at: nil)
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 4800, format: nil) { buffer, when in
            let left = UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
            meter(left.map(abs).max() ?? 0, when.sampleTime)
        }
        let observer = NotificationCenter.default.addObserver(forName: .AVAudioEngineConfigurationChange,
                                                              object: engine, queue: nil) { _ in
            print("the output device went away; the engine stopped")
        }
        try engine.start()
        player.play()
        return (engine, observer)
    }

    // AudioEngine.md, Rendering faster than real time (runs).
    static func mixOffline(_ voiceURL: URL, _ musicURL: URL, to mixURL: URL) throws -> AVAudioFile {
        let engine = AVAudioEngine()
        let voice = AVAudioPlayerNode()
        let music = AVAudioPlayerNode()
        let voiceFile = try AVAudioFile(forReading: voiceURL)
        let musicFile = try AVAudioFile(forReading: musicURL)
        for (player, file) in [(voice, voiceFile), (music, musicFile)] {
            engine.attach(player)
            engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
            player.scheduleFile(file, at: nil)
        }
        music.volume = 0.3
        voice.pan = -0.2
        try engine.enableManualRenderingMode(.offline, format: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!,
                                             maximumFrameCount: 4096)
        try engine.start()
        voice.play()
        music.play()
        let mix = try AVAudioFile(forWriting: mixURL, settings: engine.manualRenderingFormat.settings)
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: engine.manualRenderingMaximumFrameCount)!
        let length = max(voiceFile.length, musicFile.length)
        while engine.manualRenderingSampleTime < length {
            let frames = min(AVAudioFrameCount(length - engine.manualRenderingSampleTime), buffer.frameCapacity)
            if try engine.renderOffline(frames, to: buffer) == .success {
                try mix.write(from: buffer)
            }
        }
        engine.stop()
        return mix
    }

    // Audio.md, Converting sample rates and formats (runs).
    static func convertRate(_ input: AVAudioPCMBuffer) -> (AVAudioConverterOutputStatus, AVAudioPCMBuffer, NSError?) {
        let converter = AVAudioConverter(from: input.format, to: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!)!
        let output = AVAudioPCMBuffer(pcmFormat: converter.outputFormat, frameCapacity: 4_800)!
        var given = false
        var error: NSError?
        let status = converter.convert(to: output, error: &error) { _, inputStatus in
            if given {
                inputStatus.pointee = .endOfStream
                return nil
            }
            given = true
            inputStatus.pointee = .haveData
            return input
        }
        return (status, output, error)
    }

    // Audio.md, Encoding and decoding packets (runs).
    static func encodeAAC(_ input: AVAudioPCMBuffer) -> (AVAudioConverterOutputStatus, AVAudioCompressedBuffer, Data?, NSError?) {
        let aac = AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2])!
        let encoder = AVAudioConverter(from: input.format, to: aac)!
        encoder.bitRate = 128_000
        let packets = AVAudioCompressedBuffer(format: aac, packetCapacity: 16, maximumPacketSize: encoder.maximumOutputPacketSize)
        var given = false
        var error: NSError?
        let status = encoder.convert(to: packets, error: &error) { _, inputStatus in
            if given {
                inputStatus.pointee = .endOfStream   // the encoder gives out what it holds
                return nil
            }
            given = true
            inputStatus.pointee = .haveData
            return input
        }
        // packets.packetCount packets, packets.packetDescriptions![i] their places in packets.data
        let cookie = encoder.magicCookie
        return (status, packets, cookie, error)
    }

    // Audio.md, Choosing the microphone and recording (compiled; the session and recorder
    // tests run it against a sound server with such microphones).
    static func record(to recordingURL: URL) throws -> AVAudioRecorder {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playAndRecord, mode: .default, options: [])
        try session.setActive(true)
        if let microphone = session.availableInputs?.first(where: { $0.portType == .builtInMic }) {
            try session.setPreferredInput(microphone)
            if let front = microphone.dataSources?.first(where: { $0.orientation == .front }) {
                try microphone.setPreferredDataSource(front)
            }
        }
        if session.isInputGainSettable { try session.setInputGain(0.5) }
        try session.setPreferredSampleRate(48_000)

        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1]
        let recorder = try AVAudioRecorder(url: recordingURL, settings: settings)
        recorder.isMeteringEnabled = true
        recorder.record(forDuration: 3)
        return recorder
    }

    // Playback.md, Subtitles (compiled; the legible output tests play such a movie).
    final class SubtitlePrinter: NSObject, AVPlayerItemLegibleOutputPushDelegate, @unchecked Sendable {
        func legibleOutput(_ output: AVPlayerItemLegibleOutput, didOutputAttributedStrings strings: [NSAttributedString],
                           nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime) {
            print("\(itemTime.seconds) s: \(strings.map(\.string).joined(separator: "\n"))")
        }
    }

    static func showSubtitles(of item: AVPlayerItem, with printer: SubtitlePrinter) async throws {
        if let group = try await item.asset.loadMediaSelectionGroup(for: .legible) {
            item.select(group.options.first, in: group)
        }
        let output = AVPlayerItemLegibleOutput()
        output.setDelegate(printer, queue: DispatchQueue(label: "subtitles"))
        item.add(output)
    }

    // Playback.md, The Player Layer (compiled; windows need a display, which the layer tests start).
    static func playerLayer(_ player: AVPlayer) throws -> AVDisplayWindow {
        let layer = AVPlayerLayer(player: player)
        layer.videoGravity = .resizeAspect
        let window = try AVDisplayWindow(layer: layer, title: "Movie", size: CGSize(width: 1280, height: 720))
        window.keyHandler = { key in
            if key == .character("f") { window.toggleFullScreen() }
        }
        return window
    }

    // MediaCapture.md, Showing the User What's Being Recorded (compiled, as above).
    static func capturePreview(_ session: AVCaptureSession) throws -> (AVDisplayWindow, CGPoint) {
        let preview = AVCaptureVideoPreviewLayer(session: session)
        preview.videoGravity = .resizeAspectFill
        let window = try AVDisplayWindow(layer: preview, title: "Camera")
        let pointOfInterest = preview.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 100, y: 80))
        return (window, pointOfInterest)
    }

    // MediaCapture.md, Reading Barcodes (compiled; MetadataOutputTests reads codes).
    final class Scanner: NSObject, AVCaptureMetadataOutputObjectsDelegate {
        func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
                            from connection: AVCaptureConnection) {
            for case let code as AVMetadataMachineReadableCodeObject in metadataObjects {
                print(code.type.rawValue, code.stringValue ?? "")
            }
        }
    }

    static func scan(_ session: AVCaptureSession, with scanner: Scanner) {
        let output = AVCaptureMetadataOutput()
        session.addOutput(output)
        output.metadataObjectTypes = [.qr, .ean13, .code128]
        output.setMetadataObjectsDelegate(scanner, queue: DispatchQueue(label: "codes"))
    }

    // Editing.md, the composition.
    static func composing(_ first: AVAsset, _ second: AVAsset) throws -> AVMutableComposition {
        let composition = AVMutableComposition()
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: first.duration), of: first, at: .zero)
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: second.duration), of: second, at: first.duration)
        // The middle second of the first clip, eight times slower.
        let second = CMTime(value: 1, timescale: 1)
        composition.scaleTimeRange(CMTimeRange(start: second, duration: second), toDuration: CMTimeMultiply(second, multiplier: 8))
        return composition
    }

    // Editing.md, Video compositions.
    static func dissolving(_ composition: AVMutableComposition, _ a: AVCompositionTrack, _ b: AVCompositionTrack,
                           _ before: AVVideoCompositionInstruction, _ after: AVVideoCompositionInstruction) -> AVMutableVideoComposition {
        let fade = CMTimeRange(start: CMTime(value: 2, timescale: 1), duration: CMTime(value: 1, timescale: 1))
        let fadingOut = AVMutableVideoCompositionLayerInstruction(assetTrack: a)
        fadingOut.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: fade)
        let dissolve = AVMutableVideoCompositionInstruction()
        dissolve.timeRange = fade
        dissolve.layerInstructions = [fadingOut, AVMutableVideoCompositionLayerInstruction(assetTrack: b)]
        let videoComposition = AVMutableVideoComposition(propertiesOf: composition)
        videoComposition.instructions = [before, dissolve, after]
        return videoComposition
    }

    // Editing.md, Titles, watermarks and filters.
    final class Watermark: NSObject, AVVideoCompositing {
        var sourcePixelBufferAttributes: [String: Any]? { [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] }
        var requiredPixelBufferAttributesForRenderContext: [String: Any] { [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] }
        func renderContextChanged(_ newRenderContext: AVVideoCompositionRenderContext) {}
        func startRequest(_ request: AVAsynchronousVideoCompositionRequest) {
            guard let trackID = request.sourceTrackIDs.first?.int32Value, let source = request.sourceFrame(byTrackID: trackID),
                  let frame = request.renderContext.newPixelBuffer() else {
                return request.finish(with: AVError(.videoCompositorFailed))
            }
            // Copy `source` into `frame`, then draw the mark (here: a white square in a corner).
            CVPixelBufferLockBaseAddress(source, .readOnly)
            CVPixelBufferLockBaseAddress(frame, [])
            let from = CVPixelBufferGetBaseAddress(source)!, to = CVPixelBufferGetBaseAddress(frame)!
            let (fromRow, toRow) = (CVPixelBufferGetBytesPerRow(source), CVPixelBufferGetBytesPerRow(frame))
            for row in 0..<CVPixelBufferGetHeight(frame) {
                (to + row * toRow).copyMemory(from: from + row * fromRow, byteCount: CVPixelBufferGetWidth(frame) * 4)
                if row < 32 { (to + row * toRow).initializeMemory(as: UInt8.self, repeating: 255, count: 32 * 4) }
            }
            CVPixelBufferUnlockBaseAddress(frame, [])
            CVPixelBufferUnlockBaseAddress(source, .readOnly)
            request.finish(withComposedVideoFrame: frame)
        }
    }

    // Editing.md, Audio mixes.
    static func mixing(_ composition: AVComposition, _ musicTrack: AVAssetTrack, _ fade: CMTimeRange,
                       _ videoComposition: AVVideoComposition, _ editedURL: URL) async throws {
        let fadeOut = AVMutableAudioMixInputParameters(track: musicTrack)
        fadeOut.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: fade)
        let audioMix = AVMutableAudioMix()
        audioMix.inputParameters = [fadeOut]

        guard let session = AVAssetExportSession(asset: composition, presetName: AVAssetExportPreset1920x1080) else { return }
        session.videoComposition = videoComposition
        session.audioMix = audioMix
        try await session.export(to: editedURL, as: .mp4)
    }

    // Editing.md, Trimming.
    static func editing(_ asset: AVAsset, _ trimmedURL: URL) async throws {
        guard let session = AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetPassthrough) else { return }
        session.timeRange = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 1))
        try await session.export(to: trimmedURL, as: .mp4)
    }

    // MediaCapture.md (compiled; the capture tests record).
    static func mediaCapture(_ movieURL: URL, _ recordingDelegate: any AVCaptureFileOutputRecordingDelegate) throws {
        let session = AVCaptureSession()
        guard let camera = AVCaptureDevice.default(for: .video) else { return }
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        session.startRunning()
        movie.startRecording(to: movieURL, recordingDelegate: recordingDelegate)
    }

    // ExportAndReading.md
    static func exportAndReading(_ asset: AVAsset, _ videoTrack: AVAssetTrack, _ exportURL: URL) async throws -> Int {
        guard let session = AVAssetExportSession(asset: asset, presetName: AVAssetExportPreset1280x720) else { return 0 }
        try await session.export(to: exportURL, as: .mp4)

        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: videoTrack, outputSettings: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
        ])
        reader.add(output)
        reader.startReading()
        var pictures = 0
        while let sample = output.copyNextSampleBuffer() {
            _ = CMSampleBufferGetImageBuffer(sample)
            pictures += 1
        }
        return pictures
    }

    // TimeAndMediaRepresentations.md
    static func time() -> (CMTime, CMTime) {
        let start = CMTime(value: 1, timescale: 2)
        let range = CMTimeRange(start: start, duration: CMTime(seconds: 3, preferredTimescale: 600))
        let end = range.end              // 3.5 s, exactly
        let frame = CMTimeMultiply(CMTime(value: 1, timescale: 30), multiplier: 45)
        print(end.seconds, frame.seconds, CMTIME_IS_NUMERIC(frame))
        return (end, frame)
    }

    // Streaming.md
    static func streamingAsset(_ url: URL) async throws -> (CMTime, [AVAssetTrack]) {
        let asset = AVURLAsset(url: url, options: [AVURLAssetHTTPUserAgentKey: "my-app/1.0",
                                                   AVURLAssetHTTPHeaderFieldsKey: ["Authorization": "Bearer secret"]])
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        return (duration, tracks)
    }

    // RenderingSampleBuffers.md
    static func play(_ reader: AVAssetReader, _ output: AVAssetReaderTrackOutput) -> AVSampleBufferRenderSynchronizer {
        let renderer = AVSampleBufferAudioRenderer()
        let synchronizer = AVSampleBufferRenderSynchronizer()
        synchronizer.addRenderer(renderer)
        renderer.requestMediaDataWhenReady(on: DispatchQueue(label: "feeder")) {
            while renderer.isReadyForMoreMediaData {
                guard let buffer = output.copyNextSampleBuffer() else { return renderer.stopRequestingMediaData() }
                renderer.enqueue(buffer)
            }
        }
        synchronizer.setRate(1, time: .zero)
        return synchronizer
    }

    // RenderingSampleBuffers.md, Showing video (compiled; a window needs an X server, which the
    // display layer tests start).
    static func show(_ output: AVAssetReaderTrackOutput, in window: inout AVDisplayWindow?) throws -> AVSampleBufferRenderSynchronizer {
        let layer = AVSampleBufferDisplayLayer()
        layer.videoGravity = .resizeAspect
        let synchronizer = AVSampleBufferRenderSynchronizer()
        synchronizer.addRenderer(layer)
        window = try AVDisplayWindow(layer: layer, title: "Stream", size: CGSize(width: 1280, height: 720))
        layer.requestMediaDataWhenReady(on: DispatchQueue(label: "video feeder")) {
            while layer.isReadyForMoreMediaData {
                guard let buffer = output.copyNextSampleBuffer() else { return layer.stopRequestingMediaData() }
                layer.enqueue(buffer)
            }
        }
        synchronizer.setRate(1, time: .zero)
        return synchronizer
    }

    final class MemoryLoader: NSObject, AVAssetResourceLoaderDelegate, @unchecked Sendable {
        let data: Data

        init(data: Data) { self.data = data }

        func resourceLoader(_ resourceLoader: AVAssetResourceLoader,
                            shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest) -> Bool {
            if let information = loadingRequest.contentInformationRequest {
                information.contentType = "public.mpeg-4"
                information.contentLength = Int64(data.count)
                information.isByteRangeAccessSupported = true
            }
            if let request = loadingRequest.dataRequest {
                let start = Int(request.requestedOffset)
                let end = request.requestsAllDataToEndOfResource ? data.count : min(data.count, start + request.requestedLength)
                request.respond(with: data.subdata(in: start..<end))
            }
            loadingRequest.finishLoading()
            return true
        }
    }

    static func memoryAsset(_ file: URL) async throws -> CMTime {
        let loader = MemoryLoader(data: try Data(contentsOf: file))
        let asset = AVURLAsset(url: URL(string: "memory://clip.mp4")!)
        asset.resourceLoader.setDelegate(loader, queue: DispatchQueue(label: "loader"))
        let duration = try await asset.load(.duration)
        return withExtendedLifetime(loader) { duration }
    }

    final class SegmentSaver: NSObject, AVAssetWriterDelegate, @unchecked Sendable {
        let folder: URL
        var playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        var count = 0

        init(folder: URL) { self.folder = folder }

        func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data,
                         segmentType: AVAssetSegmentType, segmentReport: AVAssetSegmentReport?) {
            let name = segmentType == .initialization ? "init.mp4" : "\(count).m4s"
            try? segmentData.write(to: folder.appendingPathComponent(name))
            guard segmentType == .separable, let duration = segmentReport?.trackReports.first?.duration else { return }
            playlist += "#EXTINF:\(duration.seconds),\n\(name)\n"
            count += 1
        }
    }

    static func segmentWriter(_ saver: SegmentSaver) -> AVAssetWriter {
        let writer = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
        writer.outputFileTypeProfile = .mpeg4AppleHLS
        writer.preferredOutputSegmentInterval = CMTime(value: 2, timescale: 1)
        writer.initialSegmentStartTime = .zero
        writer.delegate = saver
        return writer
    }

    @Test func theStreamingExamplesRun() async throws {
        // The asset example on a local server that wants the header field.
        let clip = try Fixtures.h264AAC()
        let server = try MediaHTTPServer(root: clip.deletingLastPathComponent())
        let (duration, tracks) = try await Self.streamingAsset(server.url("auth/secret/" + clip.lastPathComponent))
        #expect(abs(duration.seconds - 2) < 0.05 && tracks.count == 2)
        // The resource loader's delegate serving the same clip from memory.
        #expect(try await Self.memoryAsset(clip) == duration)
        // The segment writer, fed 2 s of encoded pictures: a playlist ffprobe reads.
        let folder = Fixtures.folder.appendingPathComponent("doc-segments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let saver = SegmentSaver(folder: folder)
        let writer = Self.segmentWriter(saver)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [
            AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 320, AVVideoHeightKey: 240,
            AVVideoCompressionPropertiesKey: [AVVideoMaxKeyFrameIntervalKey: 50],
        ])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        for frame in 0..<100 {
            var buffer: CVPixelBuffer?
            CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &buffer)
            #expect(adaptor.append(try #require(buffer), withPresentationTime: CMTime(value: Int64(frame), timescale: 25)))
        }
        input.markAsFinished()
        await writer.finishWriting()
        #expect(saver.count == 2)
        let playlist = folder.appendingPathComponent("playlist.m3u8")
        try (saver.playlist + "#EXT-X-ENDLIST\n").write(to: playlist, atomically: true, encoding: .utf8)
        let frames = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                                   "stream=nb_read_frames", "-of", "csv=p=0", playlist.path]), as: UTF8.self)
        #expect(frames.split(separator: "\n").first == "100")
    }

    @Test func theTimeExampleComputesExactly() {
        let (end, frame) = Self.time()
        #expect(end.seconds == 3.5 && frame == CMTime(value: 3, timescale: 2))
    }

    @Test func theAssetReadingAndExportExamplesRun() async throws {
        let url = try Fixtures.h264AAC()
        let (duration, tracks, size) = try await Self.usingAssets(url)
        #expect(duration.seconds > 1.9 && tracks == 2 && size == CGSize(width: 320, height: 240))
        let folder = Fixtures.folder.appendingPathComponent("docc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let asset = AVURLAsset(url: url)
        try await Self.editing(asset, folder.appendingPathComponent("trimmed.mp4"))
        let trimmed = try await AVURLAsset(url: folder.appendingPathComponent("trimmed.mp4")).load(.duration)
        // A passthrough trim is frame-exact: the edit list gives exactly the asked second.
        #expect(trimmed == CMTime(value: 1, timescale: 1), "trimmed to \(trimmed.seconds) s")
        let track = try #require(try await asset.loadTracks(withMediaType: .video).first)
        #expect(try await Self.exportAndReading(asset, track, folder.appendingPathComponent("export.mp4")) == 50)
    }

    @Test func theAudioFileExampleRuns() throws {
        let url = try Fixtures.h264AAC()
        let folder = Fixtures.folder.appendingPathComponent("docc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("sound.m4a")
        let copy = try Self.copySound(url, to: output)
        copy.close()
        // ffprobe reads the copy as AAC at the source's rate and channel count.
        func probe(_ url: URL) throws -> String {
            String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=sample_rate,channels",
                                                          "-of", "csv=p=0", url.path]), as: UTF8.self)
        }
        let codec = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", output.path]),
                           as: UTF8.self)
        #expect(codec.trimmingCharacters(in: .whitespacesAndNewlines) == "aac")
        #expect(try probe(output) == (try probe(url)))
    }

    @Test func theAudioEngineExampleRuns() throws {
        func tone(_ frequency: Int, seconds: Int) throws -> URL {
            try Fixtures.make("docc-engine-\(frequency).wav", ["-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=48000",
                                                               "-t", String(seconds)])
        }
        let folder = Fixtures.folder.appendingPathComponent("docc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("mix.wav")
        try Self.mixOffline(try tone(440, seconds: 2), try tone(660, seconds: 3), to: output).close()
        // ffprobe: 3 s of stereo at 48 kHz, the longer file's length.
        let stream = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-show_entries", "stream=sample_rate,channels,duration",
                                                                    "-of", "csv=p=0", output.path]), as: UTF8.self)
        #expect(stream.trimmingCharacters(in: .whitespacesAndNewlines) == "48000,2,3.000000")
    }

    @Test func theConverterExampleRuns() throws {
        // 0.1 s of 44.1 kHz stereo in, 0.1 s at 48 kHz out, in one call.
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2))
        let input = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4_410))
        input.frameLength = 4_410
        let (status, output, error) = Self.convertRate(input)
        #expect(status == .haveData && error == nil)
        #expect(abs(Int(output.frameLength) - 4_800) <= 64, "\(output.frameLength) frames")
    }

    @Test func theEncodingExampleRuns() throws {
        // 0.1 s of 44.1 kHz stereo: with the encoder's 1024 frames of priming, six packets.
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2))
        let input = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4_410))
        input.frameLength = 4_410
        let (status, packets, cookie, error) = Self.encodeAAC(input)
        #expect(status == .haveData && error == nil)
        #expect(packets.packetCount == 6 && packets.byteLength > 0 && cookie?.prefix(2) == Data([0x12, 0x10]))
    }

    @Test func theEditingExamplesRun() async throws {
        let url = try Fixtures.h264AAC()
        let (first, second) = (AVURLAsset(url: url), AVURLAsset(url: url))
        // Two 2 s clips, the first's middle second (1–2 s, its end) slowed eight times: 9 + 2 s.
        let composition = try Self.composing(first, second)
        #expect(composition.duration == CMTime(value: 11, timescale: 1))

        // The dissolve on a composition of two tracks overlapping at 2–3 s.
        let dissolved = AVMutableComposition()
        let a = try #require(dissolved.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        let b = try #require(dissolved.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        let music = try #require(dissolved.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid))
        let source = try #require(try await first.loadTracks(withMediaType: .video).first)
        let sound = try #require(try await first.loadTracks(withMediaType: .audio).first)
        let clip = CMTimeRange(start: .zero, duration: CMTime(value: 2, timescale: 1))
        try a.insertTimeRange(clip, of: source, at: .zero)
        try a.insertTimeRange(CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1)), of: source, at: CMTime(value: 2, timescale: 1))
        try b.insertTimeRange(clip, of: source, at: CMTime(value: 2, timescale: 1))
        try music.insertTimeRange(clip, of: sound, at: .zero)
        func only(_ track: AVCompositionTrack, _ range: CMTimeRange) -> AVMutableVideoCompositionInstruction {
            let instruction = AVMutableVideoCompositionInstruction()
            instruction.timeRange = range
            instruction.layerInstructions = [AVMutableVideoCompositionLayerInstruction(assetTrack: track)]
            return instruction
        }
        let videoComposition = Self.dissolving(dissolved, a, b, only(a, CMTimeRange(start: .zero, duration: CMTime(value: 2, timescale: 1))),
                                               only(b, CMTimeRange(start: CMTime(value: 3, timescale: 1), duration: CMTime(value: 1, timescale: 1))))
        #expect(videoComposition.isValid(for: dissolved, timeRange: CMTimeRange(start: .zero, duration: dissolved.duration), validationDelegate: nil))
        videoComposition.customVideoCompositorClass = Watermark.self
        let folder = Fixtures.folder.appendingPathComponent("docc-editing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let edited = folder.appendingPathComponent("edited.mp4")
        try await Self.mixing(dissolved, music, CMTimeRange(start: .zero, duration: CMTime(value: 2, timescale: 1)), videoComposition, edited)
        #expect(try await AVURLAsset(url: edited).load(.duration).seconds > 3.9)
    }
}
