import Foundation
import Synchronization
import OpenAVFoundation

/// Our side of the AVFAudio workloads (see `AudioWorkloads.swift`).
extension Workers {
    /// Every frame of a sound file through `AVAudioFile`, in 32768-frame buffers.
    static func audioDecode(_ url: URL) throws {
        let file = try AVAudioFile(forReading: url)
        guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 32_768) else { throw Failure("no buffer") }
        var frames = 0
        repeat {
            try file.read(into: buffer)
            frames += Int(buffer.frameLength)
        } while buffer.frameLength > 0
        print("decoded \(frames) frames of \(url.lastPathComponent)")
    }

    /// Converts the whole of `file` through `converter`'s input block (32768-frame buffers in)
    /// into `output` again and again, calling `took` after each conversion, to the end.
    static func convertAll(_ file: AVAudioFile, with converter: AVAudioConverter, into output: AVAudioBuffer, took: () -> Void) throws {
        guard let input = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 32_768) else { throw Failure("no buffer") }
        var failure: Error?
        while true {
            var error: NSError?
            let status = converter.convert(to: output, error: &error) { _, inputStatus in
                do {
                    try file.read(into: input)
                } catch {
                    failure = error
                }
                inputStatus.pointee = input.frameLength > 0 ? .haveData : .endOfStream
                return input.frameLength > 0 ? input : nil
            }
            if let error = error ?? failure { throw error }
            took()
            if status == .endOfStream || status == .error { break }
        }
    }

    /// A 44.1 kHz file converted to 48 kHz through `AVAudioConverter`'s input block.
    static func resample(_ url: URL) throws {
        let file = try AVAudioFile(forReading: url)
        guard let target = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: file.processingFormat.channelCount),
              let converter = AVAudioConverter(from: file.processingFormat, to: target),
              let output = AVAudioPCMBuffer(pcmFormat: target, frameCapacity: 32_768) else { throw Failure("no converter") }
        var frames = 0
        try convertAll(file, with: converter, into: output) { frames += Int(output.frameLength) }
        print("converted to \(frames) frames at 48 kHz")
    }

    /// A sound file encoded to AAC at 128 kbit/s through `AVAudioConverter`'s input block,
    /// 16 packets an output buffer.
    static func aacEncode(_ url: URL) throws {
        let file = try AVAudioFile(forReading: url)
        let source = file.processingFormat
        guard let aac = AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: source.sampleRate,
                                                 AVNumberOfChannelsKey: source.channelCount]),
              let converter = AVAudioConverter(from: source, to: aac) else { throw Failure("no encoder") }
        converter.bitRate = 128_000
        let output = AVAudioCompressedBuffer(format: aac, packetCapacity: 16, maximumPacketSize: converter.maximumOutputPacketSize)
        var packets = 0
        var bytes = 0
        try convertAll(file, with: converter, into: output) {
            packets += Int(output.packetCount)
            bytes += Int(output.byteLength)
        }
        print("encoded \(packets) AAC packets, \(bytes) bytes")
    }

    /// Two files mixed offline through `AVAudioEngine`: two players into the main mixer at their
    /// volumes and pans, an EQ band and a reverb between the mixer and the output, 4096 frames
    /// a render.
    static func engineMix(_ first: URL, _ second: URL) throws {
        let engine = AVAudioEngine()
        let files = [try AVAudioFile(forReading: first), try AVAudioFile(forReading: second)]
        let players = [AVAudioPlayerNode(), AVAudioPlayerNode()]
        for (player, file) in zip(players, files) {
            engine.attach(player)
            engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
            player.scheduleFile(file, at: nil)
        }
        (players[0].volume, players[0].pan) = (0.5, -0.5)
        (players[1].volume, players[1].pan) = (0.8, 0.25)
        let equalizer = AVAudioUnitEQ(numberOfBands: 1)
        equalizer.bands[0].frequency = 1000
        equalizer.bands[0].bandwidth = 1
        equalizer.bands[0].gain = 6
        equalizer.bands[0].bypass = false
        let reverb = AVAudioUnitReverb()
        reverb.loadFactoryPreset(.mediumHall)
        reverb.wetDryMix = 30
        engine.attach(equalizer)
        engine.attach(reverb)
        guard let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2) else { throw Failure("no format") }
        engine.connect(engine.mainMixerNode, to: equalizer, format: format)
        engine.connect(equalizer, to: reverb, format: format)
        engine.connect(reverb, to: engine.outputNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        try engine.start()
        players.forEach { $0.play() }
        guard let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4096) else { throw Failure("no buffer") }
        let length = files.map(\.length).max() ?? 0
        while engine.manualRenderingSampleTime < length {
            let frames = AVAudioFrameCount(min(4096, length - engine.manualRenderingSampleTime))
            guard try engine.renderOffline(frames, to: buffer) == .success else { throw Failure("a render failed") }
        }
        engine.stop()
        print("mixed \(length) frames")
    }

    /// A file played in real time through `AVAudioEngine`: a player, an EQ band and the main
    /// mixer with a tap, to the sound server, until the file has been heard.
    static func enginePlay(_ url: URL) throws {
        let engine = AVAudioEngine()
        let file = try AVAudioFile(forReading: url)
        let player = AVAudioPlayerNode(), equalizer = AVAudioUnitEQ(numberOfBands: 1)
        equalizer.bands[0].frequency = 1000
        equalizer.bands[0].bandwidth = 1
        equalizer.bands[0].gain = 6
        equalizer.bands[0].bypass = false
        engine.attach(player)
        engine.attach(equalizer)
        engine.connect(player, to: equalizer, format: file.processingFormat)
        engine.connect(equalizer, to: engine.mainMixerNode, format: file.processingFormat)
        let tapped = TapCount()
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 4800, format: nil) { buffer, _ in
            tapped.frames.add(Int(buffer.frameLength), ordering: .relaxed)
        }
        let heard = DispatchSemaphore(value: 0)
        player.scheduleFile(file, at: nil, completionCallbackType: .dataPlayedBack) { _ in heard.signal() }
        try engine.start()
        player.play()
        heard.wait()
        engine.stop()
        print("played \(Double(file.length) / file.processingFormat.sampleRate) s; the tap saw \(tapped.frames.load(ordering: .relaxed)) frames")
    }
}

/// The frames the engine-play worker's tap saw.
final class TapCount: Sendable {
    let frames = Atomic(0)
}
