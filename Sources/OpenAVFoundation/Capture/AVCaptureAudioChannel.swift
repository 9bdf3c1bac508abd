import Foundation
import OpenCoreMedia

/// The level of one audio channel flowing through a connection, measured from the samples
/// themselves (`AVCaptureConnection.audioChannels`).
///
/// Levels are in decibels relative to full scale: 0 dB is a full-scale square wave, a
/// full-scale sine averages -3 dB, silence reads -160 dB (Apple's floor). Linux addition: the
/// macOS `volume` and `isEnabled` are not available.
public final class AVCaptureAudioChannel: NSObject, @unchecked Sendable {
    /// How long a peak is held.
    static let peakHoldTime = 0.5
    /// The level reported for silence.
    static let floor: Float = -160

    private let lock = NSLock()
    private var average = AVCaptureAudioChannel.floor
    private var peaks: [(time: Double, peak: Float)] = []

    override init() { super.init() }

    /// The average power of the most recent buffer of samples (their RMS), in dB.
    public var averagePowerLevel: Float { lock.withLock { average } }

    /// The highest sample level of the last half second, in dB.
    public var peakHoldLevel: Float {
        lock.withLock { Self.decibels(peaks.map(\.peak).max() ?? 0) }
    }

    private static func decibels(_ amplitude: Float) -> Float {
        amplitude > 0 ? max(floor, 20 * log10(amplitude)) : floor
    }

    /// Records a buffer's mean square and peak (as linear amplitudes) at a time in seconds.
    private func record(meanSquare: Float, peak: Float, at time: Double) {
        lock.withLock {
            average = meanSquare > 0 ? max(Self.floor, 10 * log10(meanSquare)) : Self.floor
            peaks.removeAll { $0.time <= time - Self.peakHoldTime }
            peaks.append((time, peak))
        }
    }

    /// Measures an interleaved linear PCM buffer (16- or 32-bit integer, or 32-bit float), one channel
    /// object per channel; does nothing for other layouts.
    static func measure(_ buffer: CMSampleBuffer, into channels: [AVCaptureAudioChannel]) {
        guard !channels.isEmpty, let asbd = buffer.formatDescription?.audioStreamBasicDescription,
              asbd.mFormatID == kAudioFormatLinearPCM, asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0,
              Int(asbd.mChannelsPerFrame) == channels.count, let block = buffer.dataBuffer else { return }
        let isFloat = asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0
        guard (isFloat && asbd.mBitsPerChannel == 32) || (!isFloat && [16, 32].contains(asbd.mBitsPerChannel)) else { return }
        let count = buffer.numSamples
        let width = channels.count
        var sums = [Float](repeating: 0, count: width), peaks = [Float](repeating: 0, count: width)
        func add(_ value: Float, channel: Int) {
            sums[channel] += value * value
            peaks[channel] = max(peaks[channel], abs(value))
        }
        var length = 0
        var pointer: UnsafeMutablePointer<CChar>?
        guard CMBlockBufferGetDataPointer(block, atOffset: 0, lengthAtOffsetOut: &length, totalLengthOut: nil,
                                          dataPointerOut: &pointer) == kCMBlockBufferNoErr,
              let pointer, length >= count * Int(asbd.mBytesPerFrame) else { return }
        if isFloat {
            pointer.withMemoryRebound(to: Float.self, capacity: count * width) { samples in
                for index in 0..<(count * width) { add(samples[index], channel: index % width) }
            }
        } else if asbd.mBitsPerChannel == 32 {
            pointer.withMemoryRebound(to: Int32.self, capacity: count * width) { samples in
                for index in 0..<(count * width) { add(Float(samples[index]) / 2_147_483_648, channel: index % width) }
            }
        } else {
            pointer.withMemoryRebound(to: Int16.self, capacity: count * width) { samples in
                for index in 0..<(count * width) { add(Float(samples[index]) / 32768, channel: index % width) }
            }
        }
        let time = buffer.presentationTimeStamp.seconds
        for (channel, meter) in channels.enumerated() {
            meter.record(meanSquare: sums[channel] / Float(max(count, 1)), peak: peaks[channel], at: time)
        }
    }
}
