import Foundation
import HostSystem
import Hummingbird
import Logging
import MediaEngine
import OpenAVFoundation

/// Takes the session's pictures and sound from its data outputs and hands them to every
/// browser watching: each picture encoded once as JPEG, the sound as it comes (interleaved
/// 16-bit or float PCM), the microphone's level ten times a second. It is the data outputs'
/// delegate only while a browser watches (`LiveSession.join`).
///
/// Binary messages start with a kind byte:
/// - 1, a picture: the host time of its capture in microseconds (UInt64, little-endian), then a
///   JPEG file;
/// - 2, sound: channels (UInt8), sample format (UInt8: 1 float32, 2 int16), sample rate (UInt32,
///   little-endian), then the interleaved samples, little-endian.
///
/// Pictures are encoded on a thread of their own, below the recording's encoding in priority
/// (a `NewestItemThread`): the page shows the newest picture it can, and never takes a frame
/// from the movie being recorded. The delegate queue only hands the newest picture over (an
/// older one still waiting is replaced).
///
/// The text message `{"type":"level","average":A,"peak":P}` carries the levels of the
/// microphone's first channel in dBFS, from `AVCaptureAudioChannel`: the loudest buffer's
/// average power since the last message (so a short sound is never missed between two
/// messages) and the peak of the last half second.
final class LiveBroadcast: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate,
    AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    /// The JPEG quality of pictures: small enough for a Wi-Fi link at 720p30.
    private static let quality = 0.7
    /// Seconds between two level messages.
    private static let levelInterval = 0.1
    private static let logger = Logger(label: "openav.serve.live")

    private let lock = NSLock()
    private var clients: [ObjectIdentifier: LiveClient] = [:]
    /// Where pictures are encoded (set once, by `init`); stopped when the last browser leaves.
    private var encoding: NewestItemThread<CMSampleBuffer>!
    /// Used on the encoding thread only: the encoder, and the size of the last message.
    private var encoder: ImageEncoder?
    private var lastPictureBytes = 0
    /// Used on the audio output's queue only: when the last level message went, and the
    /// loudest buffer since.
    private var lastLevel: Double = 0
    private var loudest: Float = -160

    /// A broadcast with no audience yet.
    override init() {
        super.init()
        encoding = NewestItemThread(name: "openav.serve.pictures.encoding") { [weak self] sampleBuffer in
            guard let self, let message = picture(sampleBuffer) else { return }
            currentClients.forEach { $0.offerPicture(message) }
        }
    }

    deinit {
        encoding.stop()
    }

    /// Adds a browser to the audience; how many watch now.
    func add(_ client: LiveClient) -> Int {
        lock.withLock {
            clients[ObjectIdentifier(client)] = client
            return clients.count
        }
    }

    /// Removes a browser from the audience; how many watch now. The last one gone ends the
    /// encoding thread.
    func remove(_ client: LiveClient) -> Int {
        let count = lock.withLock {
            clients[ObjectIdentifier(client)] = nil
            return clients.count
        }
        if count == 0 { encoding.stop() }
        return count
    }

    /// How many browsers watch.
    var audience: Int { lock.withLock { clients.count } }

    private var currentClients: [LiveClient] { lock.withLock { Array(clients.values) } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let clients = currentClients
        guard !clients.isEmpty else { return }
        if output is AVCaptureVideoDataOutput {
            // Not encoded while every browser still has a picture waiting: it would be replaced unsent.
            guard clients.contains(where: \.wantsPicture) else { return }
            encoding.handOver(sampleBuffer)
        } else {
            if let (message, duration) = sound(sampleBuffer) { clients.forEach { $0.offerSound(message, duration: duration) } }
            if let (average, peak) = level(connection) { clients.forEach { $0.offerLevel(average: average, peak: peak) } }
        }
    }

    /// The picture message of a video sample.
    private func picture(_ sampleBuffer: CMSampleBuffer) -> ByteBuffer? {
        guard let pixels = CMSampleBufferGetImageBuffer(sampleBuffer) else { return nil }
        do {
            if encoder?.width != pixels.width || encoder?.height != pixels.height {
                encoder = try ImageEncoder(format: .jpeg(quality: Self.quality), width: pixels.width, height: pixels.height)
            }
            let time = CMTimeConvertScale(sampleBuffer.presentationTimeStamp, timescale: 1_000_000, method: .roundTowardZero)
            var message = ByteBuffer()
            // Room for a picture as large as the last one and a little more: one allocation.
            message.reserveCapacity(lastPictureBytes + lastPictureBytes / 8 + 4096)
            message.writeInteger(UInt8(1))
            message.writeInteger(UInt64(max(0, time.value)), endianness: .little)
            try encoder!.encode(pixels) { message.writeBytes($0) }
            lastPictureBytes = message.readableBytes
            return message
        } catch {
            Self.logger.warning("a preview picture could not be encoded: \(error)")
            return nil
        }
    }

    /// The sound message of an audio sample, and how long it lasts; nil for formats a browser
    /// is not sent (non-interleaved, or other than float32 and int16).
    private func sound(_ sampleBuffer: CMSampleBuffer) -> (message: ByteBuffer, duration: CMTime)? {
        guard let format = sampleBuffer.formatDescription?.audioStreamBasicDescription,
              format.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0, format.mChannelsPerFrame > 0, format.mSampleRate >= 1,
              let data = sampleBuffer.dataBuffer else { return nil }
        let isFloat = format.mFormatFlags & kAudioFormatFlagIsFloat != 0
        let sampleFormat: UInt8
        switch (isFloat, format.mBitsPerChannel) {
        case (true, 32): sampleFormat = 1
        case (false, 16): sampleFormat = 2
        default: return nil
        }
        var message = ByteBuffer()
        message.reserveCapacity(7 + data.dataLength)
        message.writeInteger(UInt8(2))
        message.writeInteger(UInt8(format.mChannelsPerFrame))
        message.writeInteger(sampleFormat)
        message.writeInteger(UInt32(format.mSampleRate), endianness: .little)
        guard (try? data.withUnsafeMutableBytes { message.writeBytes(UnsafeRawBufferPointer($0)) }) != nil else { return nil }
        return (message, CMTime(value: CMTimeValue(sampleBuffer.numSamples), timescale: CMTimeScale(format.mSampleRate)))
    }

    /// The levels to send, at most every `levelInterval`: the loudest buffer's average power
    /// since the last ones, and the peak of the last half second.
    private func level(_ connection: AVCaptureConnection) -> (average: Float, peak: Float)? {
        guard let channel = connection.audioChannels.first else { return nil }
        loudest = max(loudest, channel.averagePowerLevel)
        let now = Date().timeIntervalSince1970
        guard now - lastLevel >= Self.levelInterval else { return nil }
        defer { (lastLevel, loudest) = (now, -160) }
        return (max(-160, loudest), max(-160, channel.peakHoldLevel))
    }
}
