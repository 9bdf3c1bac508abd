import CaptureDevices
import Foundation
import HostSystem
import Testing
import TestSupport
@testable import OpenAVFoundation

extension DisplayLayerTests {
    /// A 12 s 640x480 30 fps H.264 (with B-frames) + 48 kHz stereo AAC clip made by ffmpeg from
    /// raw pictures: each frame carries its number as the Test Pattern Camera's barcode
    /// (`FrameIndexBarcode`) along the top, is white below it at each whole second (a flash)
    /// and black otherwise; a 30 ms 1 kHz beep starts at each whole second.
    static func barcodeFlashBeepClip() throws -> URL {
        let (width, height, frames) = (640, 480, 360)
        let raw = Fixtures.folder.appendingPathComponent("barcode-frames.gray")
        if !FileManager.default.fileExists(atPath: raw.path) {
            let block = FrameIndexBarcode.blockSize(forWidth: width)
            var data = Data(capacity: width * height * frames)
            for index in 0..<frames {
                let code = FrameIndexBarcode.blocks(for: index)
                let band = (0..<width).map { x -> UInt8 in x / block < code.count && code[x / block] ? 255 : 0 }
                for _ in 0..<block { data.append(contentsOf: band) }
                data.append(Data(repeating: index % 30 == 0 ? 255 : 0, count: width * (height - block)))
            }
            try data.write(to: raw)
        }
        return try Fixtures.make("barcode-flash-beep.mp4", [
            "-f", "rawvideo", "-pix_fmt", "gray", "-s", "\(width)x\(height)", "-r", "30", "-i", raw.path,
            "-f", "lavfi", "-i", "aevalsrc=exprs='if(lt(mod(t,1),0.03),0.5*sin(2*PI*1000*t),0)':s=48000",
            "-t", "12", "-ac", "2", "-c:v", "libx264", "-g", "30", "-bf", "2", "-pix_fmt", "yuv420p", "-c:a", "aac",
        ])
    }

    /// What the screen showed: each grab's host time (seconds), the barcode read from it, and
    /// whether it was a flash (white below the barcode).
    final class ScreenGrabs: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        let grabs = PlaybackTests.ResultList<(host: Double, index: Int?, white: Bool)>()

        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            guard let picture = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
            CVPixelBufferLockBaseAddress(picture, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(picture, .readOnly) }
            let row = CVPixelBufferGetBaseAddress(picture)!.advanced(by: 32 * CVPixelBufferGetBytesPerRow(picture))
            let green = row.load(fromByteOffset: 320 * 4 + 1, as: UInt8.self)
            grabs.add((CMSampleBufferGetPresentationTimeStamp(sampleBuffer).seconds, FrameIndexBarcode.read(from: picture), green > 128))
        }
    }

    /// The issue's streaming client: one clip's H.264 and AAC packets read by passthrough readers
    /// and enqueued into an `AVSampleBufferDisplayLayer` (in a window) and an
    /// `AVSampleBufferAudioRenderer` (a private daemon's null sink) under one synchronizer.
    ///
    /// The eye is a screen capture of the window at 120 frames a second, stamped on the host
    /// clock, reading the frame number each picture carries; the ear is the sink's monitor,
    /// captured and stamped on the same clock. The oracles are ffprobe's frame times and
    /// ffmpeg's decode of the sound. Played from 0 s, stopped at 4.5 s for a second, flushed,
    /// and played again from 7 s:
    /// - every grab shows the frame due at the synchronizer's time or the one before (the
    ///   window redraws every 4 ms);
    /// - each beep is heard within 40 ms of its flash being seen, against what the file puts
    ///   between them;
    /// - stopped, the picture holds the frame of the stopped time, and the beep at 5 s is not
    ///   heard; a flush keeps the picture until the new one of 7 s is due.
    @Test func aStreamingClientsPicturesAndSoundFollowOneSynchronizer() async throws {
        let server = try Self.server.get()
        let url = try Self.barcodeFlashBeepClip()
        let frameTimes = try String(decoding: Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time",
                                                                      "-of", "csv=p=0", url.path]), as: UTF8.self)
            .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        try #require(frameTimes.count == 360)
        let sound = try PlaybackTests.decodedSound(url)
        let beepTimes = PlaybackTests.onsets(stride(from: 0, to: sound.count, by: 2).map { sound[$0] }).map { Double($0) / 48_000 }
        try #require(beepTimes.count == 12, "\(beepTimes.count) beeps in the file")
        /// The frame due at synchronizer time `time`: the last whose time is not after it.
        func due(_ time: Double) -> Int { (frameTimes.lastIndex { $0 <= time + 1e-6 } ?? 0) }

        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        // As in `picturesAndSoundStayTogetherOverThirtySeconds`: small sink blocks, and the ear.
        let pacing = try MonitorRecorder(daemon, latencyMilliseconds: 1)
        defer { _ = pacing.stop() }
        let monitor = try #require(PulseAudioDiscovery.$server.withValue(daemon.server) {
            AVCaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .audio, position: .unspecified).devices
        }.first { $0.uniqueID == daemon.monitorName })
        let ear = AVCaptureSession()
        ear.addInput(try AVCaptureDeviceInput(device: monitor))
        let heard = PlaybackTests.HostTimedSound()
        let earOutput = AVCaptureAudioDataOutput()
        earOutput.setSampleBufferDelegate(heard, queue: DispatchQueue(label: "monitor"))
        ear.addOutput(earOutput)
        ear.startRunning()
        defer { ear.stopRunning() }
        try #require(heard.wait(forMore: 10), "the monitor delivers nothing")

        // The client.
        let layer = AVSampleBufferDisplayLayer()
        let renderer = PulseAudioDiscovery.$server.withValue(daemon.server) { AVSampleBufferAudioRenderer() }
        let synchronizer = AVSampleBufferRenderSynchronizer()
        synchronizer.addRenderer(layer)
        synchronizer.addRenderer(renderer)
        let window = try AVDisplayWindow(layer: layer, title: "streaming client", size: CGSize(width: 640, height: 480), origin: .zero)
        defer { window.close() }
        var feeds = try await Self.feed(layer, renderer, from: url, at: 0)

        // The eye: the window's top rows, 120 times a second.
        let input = try #require(X11Screen.$displayName.withValue(server.display) { AVCaptureScreenInput(displayID: CGMainDisplayID()) })
        input.cropRect = CGRect(x: 0, y: 0, width: 640, height: 48)
        input.minFrameDuration = CMTime(value: 1, timescale: 120)
        input.capturesCursor = false
        let eye = AVCaptureSession()
        eye.addInput(input)
        let screen = ScreenGrabs()
        let eyeOutput = AVCaptureVideoDataOutput()
        eyeOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        eyeOutput.setSampleBufferDelegate(screen, queue: DispatchQueue(label: "screen"))
        eye.addOutput(eyeOutput)
        eye.startRunning()
        defer { eye.stopRunning() }
        try #require(heard.wait(forMore: 50), "the monitor stopped")

        // Play from 0 s in 300 ms; stop at 4.5 s.
        let start = Double(HostClock.now) / 1e9 + 0.3
        synchronizer.setRate(1, time: .zero, atHostTime: CMTime(seconds: start, preferredTimescale: 1_000_000_000))
        let stops = PlaybackTests.ResultList<Double>()
        let reached = await waitUntil(timeout: 15) { done in
            let observer = synchronizer.addBoundaryTimeObserver(forTimes: [NSValue(time: CMTime(value: 9, timescale: 2))], queue: nil) {
                synchronizer.rate = 0
                stops.add(Double(HostClock.now) / 1e9)
                done()
            }
            return { synchronizer.removeTimeObserver(observer) }
        }
        try #require(reached, "the synchronizer did not reach 4.5 s")
        let paused = try #require(stops.values.first)
        let pausedTime = synchronizer.currentTime().seconds
        #expect(abs(pausedTime - 4.5) < 0.02, "stopped at \(pausedTime) s")
        try await Task.sleep(nanoseconds: 500_000_000)
        // Flush both and go on from 7 s; the picture stays until then.
        let flushed = Double(HostClock.now) / 1e9
        for feed in feeds { feed.cancelReading() }
        layer.stopRequestingMediaData()
        renderer.stopRequestingMediaData()
        layer.flush()
        renderer.flush()
        feeds = try await Self.feed(layer, renderer, from: url, at: 7)
        let resume = Double(HostClock.now) / 1e9 + 0.5
        synchronizer.setRate(1, time: CMTime(value: 7, timescale: 1), atHostTime: CMTime(seconds: resume, preferredTimescale: 1_000_000_000))
        try await Task.sleep(nanoseconds: UInt64((resume - Double(HostClock.now) / 1e9 + 2.6) * 1e9))
        synchronizer.rate = 0
        let end = Double(HostClock.now) / 1e9
        eye.stopRunning()
        #expect(layer.status == .rendering && layer.error == nil && renderer.status == .rendering && renderer.error == nil)

        // The pictures: each grab while playing shows the frame due or the one before.
        let grabs = screen.grabs.values
        /// The synchronizer's time at host time `host`, nil outside the playing stretches
        /// (less a frame after each start: the first picture is drawn at the next redraw).
        func playingTime(at host: Double) -> Double? {
            if host > start + 0.04 && host < paused - 0.005 { return host - start }
            if host > resume + 0.04 && host < end - 0.005 { return 7 + host - resume }
            return nil
        }
        var checked = 0
        var late: [String] = []
        for grab in grabs {
            guard let now = playingTime(at: grab.host) else { continue }
            checked += 1
            // A grab is stamped with its tick and taken at it or just after (3 ms allowed).
            let allowed = (due(now) - 1)...due(now + 0.003)
            if !(grab.index.map(allowed.contains) ?? false) {
                late.append("\(grab.index.map(String.init) ?? "unreadable") at \(String(format: "%.3f", now)) s (due \(due(now)))")
            }
        }
        #expect(checked > 600, "\(checked) grabs while playing")
        #expect(late.isEmpty, "\(late.count) of \(checked) grabs showed another frame: \(late.prefix(10))")
        // Stopped, and flushed: the frame of the stopped time stays (or the one before it).
        let held = grabs.filter { $0.host > paused + 0.02 && $0.host < resume - 0.005 }
        let pausedFrame = due(pausedTime)
        #expect(held.count > 60 && held.allSatisfy { $0.index == pausedFrame || $0.index == pausedFrame - 1 },
                "while stopped (at frame \(pausedFrame)) and flushed (\(flushed - paused) s after): \(Set(held.map(\.index)))")

        // The sound: each beep heard within 40 ms of its flash, against the file's own offset.
        let flashes = zip(grabs.dropLast(), grabs.dropFirst()).filter { !$0.0.white && $0.1.white }.map(\.1.host)
        let beeps = heard.onsetHostTimes.filter { $0 > start - 0.1 }
        // Seconds 1–4 from the start, 8 and 9 after the seek (the monitor may lose the first
        // tens of milliseconds of sound after a start, so the 0 s and 7 s beeps are not compared).
        let seconds = [1, 2, 3, 4, 8, 9]
        // (The 0 s frame shows before the start: the synchronizer stood at 0 s.)
        let stray = flashes.compactMap(playingTime).filter { abs($0 - $0.rounded()) > 0.1 }
        #expect(stray.isEmpty, "flashes seen at \(flashes.map { playingTime(at: $0) ?? -1 }) s")
        for second in seconds {
            let flash: Double = try #require(flashes.first { abs((playingTime(at: $0) ?? -10) - Double(second)) < 0.1 }, "no flash seen at \(second) s")
            let beep: Double = try #require(beeps.first { abs($0 - flash) < 0.5 }, "no beep heard near the flash of \(second) s")
            let offset = (beep - flash) - (beepTimes[second] - frameTimes[second * 30])
            #expect(abs(offset) <= 0.040, "the beep of \(second) s was heard \(Int((offset * 1000).rounded())) ms from its flash")
        }
        // None while stopped (the 5 s beep), none between the flush and the new start.
        let silent = beeps.filter { $0 > paused + 0.05 && $0 < resume - 0.01 }
        #expect(silent.isEmpty, "beeps heard while stopped: \(silent.map { $0 - paused }) s after the stop")
        #expect(beeps.filter { $0 > start + 4.6 && $0 < start + 5.5 }.isEmpty, "the beep of 5 s was heard")
    }

    /// Passthrough readers of `url`'s video and sound from `seconds` on, each feeding its
    /// renderer through the request block; returns when the sound renderer holds enough to start.
    static func feed(_ layer: AVSampleBufferDisplayLayer, _ renderer: AVSampleBufferAudioRenderer, from url: URL,
                     at seconds: Double) async throws -> [AVAssetReader] {
        let asset = AVURLAsset(url: url)
        var readers: [AVAssetReader] = []
        for type in [AVMediaType.video, .audio] {
            let reader = try AVAssetReader(asset: asset)
            reader.timeRange = CMTimeRange(start: CMTime(seconds: seconds, preferredTimescale: 600), end: .positiveInfinity)
            let output = AVAssetReaderTrackOutput(track: try #require(try await asset.loadTracks(withMediaType: type).first), outputSettings: nil)
            reader.add(output)
            #expect(reader.startReading())
            readers.append(reader)
            nonisolated(unsafe) let source = output  // read on the feeding queue alone
            let target: any AVQueuedSampleBufferRendering = type == .video ? layer : renderer
            nonisolated(unsafe) let renderer = target
            target.requestMediaDataWhenReady(on: DispatchQueue(label: "feeding \(type.rawValue)")) {
                while renderer.isReadyForMoreMediaData {
                    guard let buffer = source.copyNextSampleBuffer() else { return renderer.stopRequestingMediaData() }
                    renderer.enqueue(buffer)
                }
            }
        }
        #expect(try await pollUntil(timeout: 10) { renderer.hasSufficientMediaDataForReliablePlaybackStart }, "the sound was not fed")
        return readers
    }
}
