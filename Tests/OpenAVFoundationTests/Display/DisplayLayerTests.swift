import CaptureDevices
import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// `AVPlayerLayer` and `AVCaptureVideoPreviewLayer` in an `AVDisplayWindow` on a real X server
/// (Xvfb): what the window shows, grabbed by ffmpeg's `x11grab`, against ffmpeg's own decode of
/// the picture due, or read for the Test Pattern Camera's frame index.
///
/// SDL's video starts once per process, on the display it finds then, so every window of the
/// test process goes to one Xvfb, started by the first test that needs it. A real-time suite
/// (scripts/test runs it alone): it plays in real time and shares the one Test Pattern Camera.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DisplayLayerTests {
    /// The test process's X server, its `DISPLAY` set for SDL.
    static let server: Result<XvfbServer, Error> = Result {
        let server = try XvfbServer(width: 640, height: 480)
        server.stopsAtExit()
        setenv("DISPLAY", server.display, 1)
        return server
    }

    /// A 4 s 320x240 25 fps H.264 clip without sound (the host clock paces it).
    static func clip() throws -> URL {
        try Fixtures.make("layer-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "4",
                                             "-c:v", "libx264", "-pix_fmt", "yuv420p"])
    }

    /// ffmpeg's decode of the clip's picture at `seconds`, `width`×`height`, as RGB24: its
    /// chroma interpolated (as a GPU samples the chroma texture; swscale's fast path repeats it),
    /// luma scaled bicubically when that is not its size (a GPU's bilinear sampling of a picture
    /// scaled up is closer to it than to swscale's bilinear).
    static func expected(_ url: URL, at seconds: Double, width: Int = 320, height: Int = 240) throws -> [UInt8] {
        [UInt8](try Fixtures.run("ffmpeg", ["-v", "error", "-ss", String(seconds), "-i", url.path, "-frames:v", "1",
                                            "-vf", "scale=\(width):\(height):flags=bicubic+full_chroma_int+accurate_rnd",
                                            "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
    }

    /// The PSNR of two RGB24 pictures' luma (BT.601 weights). Displays differ in how they bring
    /// 4:2:0 chroma up to every pixel (repeated, or interpolated like a GPU's sampling): that
    /// moves colour edges a pixel, not the picture's luma, while a wrong picture, place, scale or
    /// Y'CbCr matrix does move the luma.
    static func lumaPSNR(_ a: [UInt8], _ b: [UInt8]) -> Double {
        PixelComparison.psnr(PixelComparison.luma(rgb: a), PixelComparison.luma(rgb: b))
    }

    /// The screen's `width`×`height` pixels at the top left, as RGB24 (or `format`).
    static func grab(_ server: XvfbServer, width: Int, height: Int, format: String = "rgb24") throws -> [UInt8] {
        try server.grab(width: width, height: height, pixelFormat: format)
    }

    /// Columns `from..<to` of an RGB24 picture `width` pixels wide.
    static func columns(_ rgb: [UInt8], width: Int, _ range: Range<Int>) -> [UInt8] {
        stride(from: 0, to: rgb.count, by: width * 3).flatMap { row in rgb[(row + range.lowerBound * 3)..<(row + range.upperBound * 3)] }
    }

    /// Grabs the window until `matches` holds for the grab (the picture is drawn when its frame is
    /// decoded and the window's next refresh comes), for at most 10 s; the last grab.
    static func waitForPicture(_ server: XvfbServer, width: Int, height: Int, _ matches: ([UInt8]) -> Bool) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(10)
        var screen = try grab(server, width: width, height: height)
        while !matches(screen) && Date() < deadline {
            screen = try grab(server, width: width, height: height)
        }
        return screen
    }

    /// A paused player's picture in a window of another shape: the whole picture, its aspect
    /// kept, between black bars (`.resizeAspect`, the default); then stretched (`.resize`).
    @Test func thePausedPictureFillsTheWindowAsTheGravitySays() async throws {
        let server = try Self.server.get()
        let url = try Self.clip()
        let player = AVPlayer(url: url)
        let layer = AVPlayerLayer(player: player)
        #expect(layer.videoGravity == .resizeAspect)
        let window = try AVDisplayWindow(layer: layer, title: "layer test", size: CGSize(width: 480, height: 240), origin: .zero)
        try #require(await player.currentItem?.knownStatus() == .readyToPlay)
        #expect(await player.seek(to: CMTime(value: 2, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(layer.videoRect == CGRect(x: 80, y: 0, width: 320, height: 240))

        let picture = try Self.expected(url, at: 2)
        let screen = try Self.waitForPicture(server, width: 480, height: 240) {
            Self.lumaPSNR(Self.columns($0, width: 480, 80..<400), picture) > 35
        }
        let psnr = Self.lumaPSNR(Self.columns(screen, width: 480, 80..<400), picture)
        #expect(psnr > 35, "the window's middle against ffmpeg's decode: \(psnr) dB")
        let bars = Self.columns(screen, width: 480, 0..<80) + Self.columns(screen, width: 480, 400..<480)
        #expect(bars.allSatisfy { $0 == 0 }, "the bars are black")
        #expect(layer.isReadyForDisplay)
        #expect(layer.displayedPixelBuffer().map(CVPixelBufferGetWidth) == 320)

        layer.videoGravity = .resize
        #expect(layer.videoRect == CGRect(x: 0, y: 0, width: 480, height: 240))
        let stretched = try Self.expected(url, at: 2, width: 480, height: 240)
        let shown = try Self.waitForPicture(server, width: 480, height: 240) { Self.lumaPSNR($0, stretched) > 35 }
        let stretchedPSNR = Self.lumaPSNR(shown, stretched)
        #expect(stretchedPSNR > 35, "stretched: \(stretchedPSNR) dB")

        // Out of a window, the layer takes no pictures: its output leaves the item.
        #expect(player.currentItem?.outputs.count == 1)
        window.close()
        #expect(player.currentItem?.outputs.isEmpty == true)
    }

    /// A 1280x720 movie in a 480x360 window, paused on a known frame, under each gravity:
    /// inside the video rectangle the window matches ffmpeg's scaling (and, for the fill, its
    /// crop) of that frame, in its 4:2:0, to the rectangle's size; outside it is black. (Shrunk
    /// by the GPU's bilinear sampling alone, the picture aliases: 24 dB.)
    @Test(arguments: [AVLayerVideoGravity.resizeAspect, .resizeAspectFill, .resize])
    func aLargeMovieScaledDownByEachGravity(gravity: AVLayerVideoGravity) async throws {
        let server = try Self.server.get()
        // Tagged BT.709: untagged HD is BT.709 to us (as to mpv and browsers), BT.601 to ffmpeg.
        let movie = try Fixtures.make("layer-720p.mp4", ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "2",
                                                         "-c:v", "libx264", "-pix_fmt", "yuv420p", "-colorspace", "bt709",
                                                         "-color_primaries", "bt709", "-color_trc", "bt709"])
        let player = AVPlayer(url: movie)
        let layer = AVPlayerLayer(player: player)
        layer.videoGravity = gravity
        let window = try AVDisplayWindow(layer: layer, title: "gravity test", size: CGSize(width: 480, height: 360), origin: .zero)
        defer { window.close() }
        try #require(await player.currentItem?.knownStatus() == .readyToPlay)
        #expect(await player.seek(to: CMTime(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero))
        let (rect, crop): (CGRect, String) = switch gravity {
        case .resizeAspect: (CGRect(x: 0, y: 45, width: 480, height: 270), "")
        case .resizeAspectFill: (CGRect(x: -80, y: 0, width: 640, height: 360), ",crop=480:360:80:0")
        default: (CGRect(x: 0, y: 0, width: 480, height: 360), "")
        }
        // ffmpeg scales the frame in its own 4:2:0 (as a YUV display does), then makes RGB.
        let filter = "scale=\(Int(rect.width)):\(Int(rect.height)):flags=bicubic,format=yuv420p,"
            + "scale=flags=bicubic+full_chroma_int+accurate_rnd" + crop
        #expect(layer.videoRect == rect)
        let expected = [UInt8](try Fixtures.run("ffmpeg", ["-v", "error", "-ss", "1", "-i", movie.path, "-frames:v", "1",
                                                           "-vf", filter,
                                                           "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        let shown = rect.intersection(CGRect(x: 0, y: 0, width: 480, height: 360))
        func inside(_ rgb: [UInt8]) -> [UInt8] {
            (Int(shown.minY)..<Int(shown.maxY)).flatMap { y in rgb[(y * 480 + Int(shown.minX)) * 3..<(y * 480 + Int(shown.maxX)) * 3] }
        }
        let screen = try Self.waitForPicture(server, width: 480, height: 360) { Self.lumaPSNR(inside($0), expected) >= 30 }
        let psnr = Self.lumaPSNR(inside(screen), expected)
        #expect(psnr >= 30, "\(gravity.rawValue): \(psnr) dB inside the video rectangle")
        let outside = (0..<360).flatMap { y in (0..<480).filter { !shown.contains(CGPoint(x: Double($0) + 0.5, y: Double(y) + 0.5)) }.map { (y, $0) } }
        #expect(outside.allSatisfy { y, x in screen[(y * 480 + x) * 3..<(y * 480 + x) * 3 + 3].allSatisfy { $0 == 0 } }, "the bars are black")
    }

    /// Two layers show one player, side by side in one window (sublayers of a plain layer): both
    /// halves show the paused picture.
    @Test func twoLayersShowOnePlayer() async throws {
        let server = try Self.server.get()
        let url = try Self.clip()
        let player = AVPlayer(url: url)
        let root = CALayer()
        let left = AVPlayerLayer(player: player), right = AVPlayerLayer(player: player)
        left.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        right.frame = CGRect(x: 320, y: 0, width: 320, height: 240)
        root.addSublayer(left)
        root.addSublayer(right)
        #expect(root.sublayers?.count == 2 && left.superlayer === root)
        let window = try AVDisplayWindow(layer: root, title: "two layers", size: CGSize(width: 640, height: 240), origin: .zero)
        defer { window.close() }
        try #require(await player.currentItem?.knownStatus() == .readyToPlay)
        #expect(await player.seek(to: CMTime(value: 3, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero))
        let picture = try Self.expected(url, at: 3)
        let screen = try Self.waitForPicture(server, width: 640, height: 240) {
            Self.lumaPSNR(Self.columns($0, width: 640, 0..<320), picture) > 35 && Self.lumaPSNR(Self.columns($0, width: 640, 320..<640), picture) > 35
        }
        #expect(Self.lumaPSNR(Self.columns(screen, width: 640, 0..<320), picture) > 35, "the left layer")
        #expect(Self.lumaPSNR(Self.columns(screen, width: 640, 320..<640), picture) > 35, "the right layer")
        #expect(player.currentItem?.outputs.count == 2)
        right.removeFromSuperlayer()
        #expect(player.currentItem?.outputs.count == 1, "a layer out of the window lets its output go")
    }

    /// A movie whose track is turned a quarter (a phone's portrait movie) stands upright in the
    /// window, as ffmpeg shows it (its decode turned by the display matrix).
    @Test func aTurnedMovieStandsUpright() async throws {
        let server = try Self.server.get()
        let rotated = try Fixtures.make("layer-rotated.mp4", ["-i", try Self.clip().path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let player = AVPlayer(url: rotated)
        let layer = AVPlayerLayer(player: player)
        let window = try AVDisplayWindow(layer: layer, title: "rotated test", size: CGSize(width: 240, height: 320), origin: .zero)
        defer { window.close() }
        try #require(await player.currentItem?.knownStatus() == .readyToPlay)
        #expect(player.currentItem?.presentationSize == CGSize(width: 240, height: 320))
        #expect(await player.seek(to: CMTime(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(layer.videoRect == CGRect(x: 0, y: 0, width: 240, height: 320))
        let upright = try Self.expected(rotated, at: 1, width: 240, height: 320)
        let screen = try Self.waitForPicture(server, width: 240, height: 320) { Self.lumaPSNR($0, upright) > 35 }
        let psnr = Self.lumaPSNR(screen, upright)
        #expect(psnr > 35, "the turned movie against ffmpeg's upright decode: \(psnr) dB")
    }

    /// While the player plays, the window shows each picture as it falls due (25 a second here),
    /// and moves on with a queue to its next item.
    @Test func theWindowFollowsPlaybackAndTheQueue() async throws {
        let server = try Self.server.get()
        let first = try Self.clip()
        let second = try Fixtures.make("layer-bars.mp4", ["-f", "lavfi", "-i", "smptebars=size=320x240:rate=25", "-t", "20",
                                                          "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let player = AVQueuePlayer(items: [AVPlayerItem(url: first), AVPlayerItem(url: second)])
        let layer = AVPlayerLayer(player: player)
        let window = try AVDisplayWindow(layer: layer, title: "queue test", size: CGSize(width: 320, height: 240), origin: .zero)
        defer { window.close() }
        try #require(await player.currentItem?.knownStatus() == .readyToPlay)
        player.play()
        try #require(await player.reaches(1))
        let (startCount, startTime) = (window.presentedCount, player.currentTime())
        try #require(await player.reaches(3))
        let shown = window.presentedCount - startCount, due = Int(((player.currentTime() - startTime).seconds * 25).rounded())
        #expect(shown >= due * 9 / 10 && shown <= due + 2, "\(shown) pictures shown of \(due) due")

        try #require(await player.leaves(player.currentItem))
        player.pause()
        #expect(await player.seek(to: CMTime(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero))
        let bars = try Self.expected(second, at: 1)
        let screen = try Self.waitForPicture(server, width: 320, height: 240) { Self.lumaPSNR($0, bars) > 35 }
        let psnr = Self.lumaPSNR(screen, bars)
        #expect(psnr > 35, "the queue's second item in the window: \(psnr) dB")
    }

    /// A streaming client's way: the clip's H.264 packets read by a passthrough reader and fed
    /// through the request block into an `AVSampleBufferDisplayLayer` under a synchronizer, in a
    /// window. Stopped at 2 s the window shows ffmpeg's decode of the frame at 2 s; run for half a
    /// second and stopped again, the frame of the synchronizer's time (or the one before it).
    @Test func aSampleBufferDisplayLayerShowsThePictureOfTheSynchronizersTime() async throws {
        let server = try Self.server.get()
        let url = try Self.clip()
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: try #require(try await asset.loadTracks(withMediaType: .video).first), outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        let layer = AVSampleBufferDisplayLayer()
        let synchronizer = AVSampleBufferRenderSynchronizer()
        synchronizer.addRenderer(layer)
        synchronizer.setRate(0, time: CMTime(value: 2, timescale: 1))
        let window = try AVDisplayWindow(layer: layer, title: "sample buffer test", size: CGSize(width: 320, height: 240), origin: .zero)
        defer { window.close() }
        nonisolated(unsafe) let source = output  // read on the feeding queue alone
        layer.requestMediaDataWhenReady(on: DispatchQueue(label: "feeder")) {
            while layer.isReadyForMoreMediaData {
                guard let buffer = source.copyNextSampleBuffer() else { return layer.stopRequestingMediaData() }
                layer.enqueue(buffer)
            }
        }
        let atTwo = try Self.expected(url, at: 2)
        let stopped = try Self.waitForPicture(server, width: 320, height: 240) { Self.lumaPSNR($0, atTwo) > 35 }
        #expect(Self.lumaPSNR(stopped, atTwo) > 35, "stopped at 2 s: \(Self.lumaPSNR(stopped, atTwo)) dB")

        let presented = window.presentedCount
        synchronizer.setRate(1, time: CMTime(value: 2, timescale: 1))
        try await Task.sleep(nanoseconds: 500_000_000)
        synchronizer.rate = 0
        let time = synchronizer.currentTime().seconds
        #expect(window.presentedCount - presented >= 6, "\(window.presentedCount - presented) pictures shown in half a second")
        let frame = (time * 25).rounded(.down) / 25
        // ffmpeg's `-ss` gives the first frame at or after the time it is given.
        let candidates = [try Self.expected(url, at: frame - 0.001), try Self.expected(url, at: frame - 0.041)]
        let shown = try Self.waitForPicture(server, width: 320, height: 240) { screen in candidates.contains { Self.lumaPSNR(screen, $0) > 35 } }
        let best = candidates.map { Self.lumaPSNR(shown, $0) }.max() ?? 0
        #expect(best > 35, "stopped at \(time) s: \(best) dB against the frame of that time or the one before")
        #expect(layer.status == .rendering && layer.error == nil)
    }

    /// The Test Pattern Camera's frame index in a BGRA grab.
    static func frameIndex(_ bgra: [UInt8], width: Int, height: Int) -> Int? {
        bgra.withUnsafeBytes { FrameIndexBarcode.read(bgra: $0, width: width, height: height, bytesPerRow: width * 4) }
    }

    /// A preview shows the camera live, no more than three frames behind what a video data
    /// output of the same session gets, and mirrored when its connection says so; the data output, beside it, misses
    /// no frame. The layer's point conversions follow the gravity and the mirroring.
    @Test func aPreviewShowsTheCameraLiveBesideAnOutputThatMissesNothing() throws {
        let server = try Self.server.get()
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
        let collector = CaptureFrameCollector()
        let output = AVCaptureVideoDataOutput()
        output.setSampleBufferDelegate(collector, queue: DispatchQueue(label: "preview test frames"))
        session.addOutput(output)
        let layer = AVCaptureVideoPreviewLayer(session: session)
        #expect(session.outputs.count == 1 && session.connections.count == 2)
        let connection = try #require(layer.connection)
        #expect(connection.videoPreviewLayer === layer && connection.output == nil)
        let window = try AVDisplayWindow(layer: layer, title: "preview test", size: CGSize(width: 640, height: 480), origin: .zero)
        defer { window.close() }
        session.startRunning()
        defer { session.stopRunning() }

        // Live: each grab shows a later frame, close behind the newest the output got.
        var shown: [Int] = []
        let deadline = Date().addingTimeInterval(10)
        while shown.count < 5 && Date() < deadline {
            let before = collector.frames.last?.index ?? 0
            let grab = try Self.grab(server, width: 640, height: 480, format: "bgra")
            guard let index = Self.frameIndex(grab, width: 640, height: 480) else { continue }
            let after = try #require(collector.frames.last?.index)
            #expect(index >= before - 3 && index <= after, "the window shows frame \(index), the output had \(before) to \(after)")
            if index != shown.last { shown.append(index) }
        }
        #expect(shown.count == 5 && shown == shown.sorted(), "frames shown: \(shown)")

        // Mirrored by its connection, as the window shows it; the points follow.
        #expect(layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 160, y: 120)) == CGPoint(x: 0.25, y: 0.25))
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        #expect(layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 160, y: 120)) == CGPoint(x: 0.75, y: 0.25))
        #expect(layer.layerPointConverted(fromCaptureDevicePoint: CGPoint(x: 0.75, y: 0.25)) == CGPoint(x: 160, y: 120))
        #expect(layer.layerRectConverted(fromMetadataOutputRect: CGRect(x: 0, y: 0, width: 0.5, height: 0.5))
            == CGRect(x: 320, y: 0, width: 320, height: 240))
        // The camera's landmarks (its colour bars and ramp) where mirroring puts them.
        func showsMirrored(_ bgra: [UInt8]) -> Bool {
            TestPatternGeometry.landmarks.allSatisfy { landmark in
                let (x, y) = TestPatternGeometry.turned(landmark.x, landmark.y, degrees: 0, mirrored: true)
                let offset = (y * 640 + x) * 4
                return abs(Int(bgra[offset + 2]) - landmark.rgb.0) <= 24 && abs(Int(bgra[offset + 1]) - landmark.rgb.1) <= 24
                    && abs(Int(bgra[offset]) - landmark.rgb.2) <= 24
            }
        }
        var grab = try Self.grab(server, width: 640, height: 480, format: "bgra")
        while !showsMirrored(grab) && Date() < deadline { grab = try Self.grab(server, width: 640, height: 480, format: "bgra") }
        #expect(showsMirrored(grab), "the window shows the camera mirrored")

        // Beside the preview, the output got every frame.
        let indices = collector.frames.compactMap(\.index)
        #expect(indices.count > 30 && zip(indices, indices.dropFirst()).allSatisfy { $1 == $0 + 1 },
                "the data output's frames: \(indices.count), with gaps: \(zip(indices, indices.dropFirst()).filter { $1 != $0 + 1 })")
    }

    /// The preview layer's conversions invert each other, for every gravity, orientation and
    /// mirroring, at random points; the layer's centre is the camera's centre.
    @Test func previewPointConversionsRoundTrip() throws {
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.frame = CGRect(x: 0, y: 0, width: 500, height: 300)
        let connection = try #require(layer.connection)
        connection.automaticallyAdjustsVideoMirroring = false
        var generator = SystemRandomNumberGenerator()
        for gravity in [AVLayerVideoGravity.resizeAspect, .resizeAspectFill, .resize] {
            for orientation in [AVCaptureVideoOrientation.portrait, .portraitUpsideDown, .landscapeRight, .landscapeLeft] {
                for mirrored in [false, true] {
                    layer.videoGravity = gravity
                    connection.videoOrientation = orientation
                    connection.isVideoMirrored = mirrored
                    let centre = layer.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 250, y: 150))
                    #expect(abs(centre.x - 0.5) < 1e-9 && abs(centre.y - 0.5) < 1e-9)
                    for _ in 0..<50 {
                        let point = CGPoint(x: Double.random(in: 0...500, using: &generator), y: Double.random(in: 0...300, using: &generator))
                        let back = layer.layerPointConverted(fromCaptureDevicePoint: layer.captureDevicePointConverted(fromLayerPoint: point))
                        #expect(abs(back.x - point.x) < 1e-9 && abs(back.y - point.y) < 1e-9, "\(gravity.rawValue) \(orientation) \(mirrored)")
                        let rect = CGRect(x: point.x / 2, y: point.y / 2, width: 40, height: 30)
                        let returned = layer.layerRectConverted(fromMetadataOutputRect: layer.metadataOutputRectConverted(fromLayerRect: rect))
                        #expect(abs(returned.minX - rect.minX) < 1e-9 && abs(returned.height - rect.height) < 1e-9)
                    }
                }
            }
        }
    }
}
