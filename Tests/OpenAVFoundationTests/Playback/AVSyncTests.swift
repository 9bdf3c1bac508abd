import CaptureDevices
import Foundation
import Testing
@testable import OpenAVFoundation
import TestSupport

extension PlaybackTests {
    /// A 30 s clip made by ffmpeg: black 320x240 H.264 at 30 fps with one white frame at each
    /// whole second, and a 30 ms 1 kHz beep in AAC starting at each whole second.
    static func flashAndBeepClip() throws -> URL {
        try Fixtures.make("playback-flash-beep.mp4", [
            "-f", "lavfi", "-i", "color=c=black:size=320x240:rate=30",
            "-f", "lavfi", "-i", "aevalsrc=exprs='if(lt(mod(t,1),0.03),0.5*sin(2*PI*1000*t),0)':s=48000",
            "-t", "30", "-vf", "drawbox=color=white:t=fill:enable='lt(mod(t,1),0.02)'",
            "-ac", "2", "-c:v", "libx264", "-g", "30", "-bf", "2", "-pix_fmt", "yuv420p", "-c:a", "aac",
        ])
    }

    /// Where sound starts after at least 0.1 s of silence in mono `samples` at 48 kHz, as
    /// sample indexes.
    static func onsets(_ samples: [Float]) -> [Int] {
        var onsets: [Int] = []
        var lastLoud = -48_000
        for (index, sample) in samples.enumerated() where abs(sample) > 0.1 {
            if index - lastLoud > 4800 { onsets.append(index) }
            lastLoud = index
        }
        return onsets
    }

    /// A capture session's audio, kept with each buffer's host time: the monitor of the sink
    /// stamped on the host clock by the same capture code `AVCaptureAudioDataOutput` uses.
    final class HostTimedSound: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
        private let condition = NSCondition()
        private var buffers: [(start: CMTime, samples: [Float])] = []

        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            guard let block = CMSampleBufferGetDataBuffer(sampleBuffer),
                  let format = CMSampleBufferGetFormatDescription(sampleBuffer),
                  let description = CMAudioFormatDescriptionGetStreamBasicDescription(format)?.pointee,
                  description.mFormatFlags & kAudioFormatFlagIsFloat != 0, description.mBitsPerChannel == 32
            else { return }
            let channels = Int(description.mChannelsPerFrame)
            var interleaved = [Float](repeating: 0, count: CMBlockBufferGetDataLength(block) / 4)
            interleaved.withUnsafeMutableBytes { _ = CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: $0.count, destination: $0.baseAddress!) }
            let first = stride(from: 0, to: interleaved.count, by: channels).map { interleaved[$0] }
            condition.withLock {
                buffers.append((CMSampleBufferGetPresentationTimeStamp(sampleBuffer), first))
                condition.broadcast()
            }
        }

        /// Waits for `count` more buffers, at most 5 s; whether they came.
        func wait(forMore count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(5)
            return condition.withLock {
                let target = buffers.count + count
                while buffers.count < target, condition.wait(until: deadline) {}
                return buffers.count >= target
            }
        }

        /// The host time (seconds) of each sound's onset.
        var onsetHostTimes: [Double] {
            let kept = condition.withLock { buffers }
            var starts: [Double] = []
            var offsets: [Int] = []
            var samples: [Float] = []
            for buffer in kept {
                starts.append(buffer.start.seconds)
                offsets.append(samples.count)
                samples += buffer.samples
            }
            return PlaybackTests.onsets(samples).map { onset in
                let index = offsets.lastIndex { $0 <= onset }!
                return starts[index] + Double(onset - offsets[index]) / 48_000
            }
        }
    }

    /// The guide's promise of a player: pictures and sound together. The host time at which
    /// `AVPlayerItemVideoOutput` gives each flash frame for display (polled every 2 ms, as a
    /// display loop would) and the host time the sink's monitor plays each beep (captured
    /// through a session, stamped on the host clock) agree, second after second, with what
    /// ffmpeg's decode puts between them (the AAC beep's onset against the flash frame's time).
    ///
    /// The ear: a null sink hands each block to its monitor when it renders it, ahead of the
    /// time the block stands for (a sound card's monitor does the same), so the monitor is early
    /// by up to a block. A reader asking 1 ms of latency keeps the blocks small: seen, offsets of
    /// −2 to +1 ms over the 29 seconds (−7 to −11 ms with 10 ms blocks). The ear is also given a
    /// second to settle after the player's stream opens (the sink's blocks change with it).
    @Test func picturesAndSoundStayTogetherOverThirtySeconds() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let url = try Self.flashAndBeepClip()

        // The oracle: ffmpeg's decode of the frames (their brightness) and their ffprobe times;
        // ffmpeg's decode of the sound for the beeps.
        let brightness = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-vf", "scale=1:1,format=gray",
                                                             "-vsync", "passthrough", "-f", "rawvideo", "-"]))
        let frameTimes = try String(decoding: Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time",
                                                                      "-of", "csv=p=0", url.path]), as: UTF8.self)
            .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        try #require(brightness.count == frameTimes.count && frameTimes.count == 900)
        let flashTimes = zip(brightness, frameTimes).filter { $0.0 > 128 }.map(\.1)
        let sound = try Self.decodedSound(url)
        let beepTimes = Self.onsets(stride(from: 0, to: sound.count, by: 2).map { sound[$0] }).map { Double($0) / 48_000 }
        try #require(flashTimes.count == 30 && beepTimes.count == 30, "\(flashTimes.count) flashes, \(beepTimes.count) beeps")

        // A reader asking 1 ms keeps the null sink rendering in small blocks, so that the
        // monitor is early by little (it hands each block on when rendered, ahead of its time).
        let pacing = try MonitorRecorder(daemon, latencyMilliseconds: 1)
        defer { _ = pacing.stop() }
        // The ear: the sink's monitor through a capture session.
        let monitor = try #require(PulseAudioDiscovery.$server.withValue(daemon.server) {
            AVCaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .audio, position: .unspecified).devices
        }.first { $0.uniqueID == daemon.monitorName })
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: monitor))
        let capture = AVCaptureAudioDataOutput()
        let heard = HostTimedSound()
        capture.setSampleBufferDelegate(heard, queue: DispatchQueue(label: "monitor"))
        session.addOutput(capture)
        session.startRunning()
        defer { session.stopRunning() }
        try #require(heard.wait(forMore: 10), "the monitor delivers nothing")

        // The eye: a display loop pulling pictures from the output.
        let item = AVPlayerItem(url: url)
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA])
        item.add(output)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        let shown = ResultList<(host: Double, white: Bool)>()
        let stop = ResultBox()
        let loop = Thread {
            while stop.values.isEmpty {
                let now = CACurrentMediaTime()
                let time = output.itemTime(forHostTime: now)
                if output.hasNewPixelBuffer(forItemTime: time),
                   let buffer = output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: nil) {
                    CVPixelBufferLockBaseAddress(buffer, .readOnly)
                    let row = CVPixelBufferGetBaseAddress(buffer)!.advanced(by: 120 * CVPixelBufferGetBytesPerRow(buffer))
                    let green = row.load(fromByteOffset: 160 * 4 + 1, as: UInt8.self)
                    CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
                    shown.add((now, green > 128))
                }
                Thread.sleep(forTimeInterval: 0.002)  // the display's refresh, a duration: it looks every 2 ms
            }
        }
        loop.qualityOfService = .userInteractive
        loop.start()
        // The player's sound stream opens once the item is ready, paused; the sink then renders in
        // other blocks, and the ear's timeline settles on them for a second before play starts.
        let opened = await waitUntil(timeout: 10) { done in
            player.observe(\.audioOutputDeviceUniqueID, options: [.initial]) { player, _ in
                if player.audioOutputDeviceUniqueID != nil { done() }
            }.invalidate
        }
        try #require(opened, "the sound stream did not open within 10 s")
        try #require(heard.wait(forMore: 100), "the monitor stopped")
        player.play()
        await ended.wait(seconds: 40)
        stop.add(true)
        #expect(ended.posted == 1)

        // Each flash is shown once, when the picture turns white.
        let pictures = shown.values
        let flashes = zip([(host: 0.0, white: false)] + pictures, pictures).filter { !$0.0.white && $0.1.white }.map(\.1.host)
        let beeps = heard.onsetHostTimes
        // The monitor loses the first tens of milliseconds of a new stream (the sink rewinds to
        // mix it in), so the beep at 0 s may be lost: the seconds from 1 on are compared.
        try #require(flashes.count == 30, "\(flashes.count) flashes shown")
        try #require(beeps.count >= 29, "\(beeps.count) beeps heard")
        var offsets: [Double] = []
        for second in 1..<30 {
            let flash = flashes[second]
            let beep = try #require(beeps.first { abs($0 - flash) < 0.5 }, "no beep heard near the flash of second \(second)")
            // Measured against what the file itself puts between them.
            offsets.append((beep - flash) - (beepTimes[second] - flashTimes[second]))
        }
        let worst = offsets.map(abs).max()!
        #expect(worst <= 0.020, "A/V offsets (ms): \(offsets.map { Int(($0 * 1000).rounded()) })")
    }
}
