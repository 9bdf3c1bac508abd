import Foundation
import HostSystem
import OpenCoreMedia

/// The level of one audio channel flowing through a connection, measured from the samples
/// themselves (`AVCaptureConnection.audioChannels`).
///
/// Levels are in decibels relative to full scale: 0 dB is a full-scale square wave, a
/// full-scale sine averages -3 dB, silence reads -160 dB (Apple's floor). Differs from Apple: the
/// macOS `volume` and `isEnabled` are not available.
public final class AVCaptureAudioChannel: NSObject, @unchecked Sendable {
    /// How long a peak is held.
    static let peakHoldTime = 0.5
    /// The level reported for silence.
    static let floor: Float = -160

    /// The last buffer's average level and the peaks of the last half second, changed together.
    private struct State {
        var average = AVCaptureAudioChannel.floor
        var peaks: [(time: Double, peak: Float)] = []
    }

    private let state = Locked(State())

    override init() { super.init() }

    /// The average power of the most recent buffer of samples (their RMS), in dB.
    public var averagePowerLevel: Float { state.average }

    /// The highest sample level of the last half second, in dB.
    public var peakHoldLevel: Float {
        state.withLock { Self.decibels($0.peaks.map(\.peak).max() ?? 0) }
    }

    private static func decibels(_ amplitude: Float) -> Float {
        amplitude > 0 ? max(floor, 20 * log10(amplitude)) : floor
    }

    /// Records a buffer's mean square and peak (as linear amplitudes) at a time in seconds.
    private func record(_ level: Level, at time: Double) {
        state.withLock { s in
            s.average = level.meanSquare > 0 ? max(Self.floor, 10 * log10(level.meanSquare)) : Self.floor
            s.peaks.removeAll { $0.time <= time - Self.peakHoldTime }
            s.peaks.append((time, level.peak))
        }
    }

    /// One channel's level in one buffer, as linear amplitudes.
    struct Level {
        /// The mean of the squared samples.
        var meanSquare: Float = 0
        /// The largest absolute sample.
        var peak: Float = 0
    }

    /// The level of each channel of an interleaved linear PCM buffer (16- or 32-bit integer, or
    /// 32-bit float); nil for other layouts. Measured once per buffer, however many connections
    /// the buffer goes to.
    static func levels(of buffer: CMSampleBuffer) -> [Level]? {
        guard let asbd = buffer.formatDescription?.audioStreamBasicDescription,
              asbd.mFormatID == kAudioFormatLinearPCM, asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0,
              asbd.mChannelsPerFrame > 0, let block = buffer.dataBuffer else { return nil }
        let isFloat = asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0
        guard (isFloat && asbd.mBitsPerChannel == 32) || (!isFloat && [16, 32].contains(asbd.mBitsPerChannel)) else { return nil }
        let count = buffer.numSamples
        let width = Int(asbd.mChannelsPerFrame)
        var length = 0
        var pointer: UnsafeMutablePointer<CChar>?
        guard CMBlockBufferGetDataPointer(block, atOffset: 0, lengthAtOffsetOut: &length, totalLengthOut: nil,
                                          dataPointerOut: &pointer) == kCMBlockBufferNoErr,
              let pointer, length >= count * Int(asbd.mBytesPerFrame) else { return nil }
        var levels = [Level](repeating: Level(), count: width)
        func accumulate<Sample>(_: Sample.Type, _ value: (Sample) -> Float) {
            pointer.withMemoryRebound(to: Sample.self, capacity: count * width) { samples in
                for frame in 0..<count {
                    for channel in 0..<width {
                        let sample = value(samples[frame * width + channel])
                        levels[channel].meanSquare += sample * sample
                        levels[channel].peak = max(levels[channel].peak, abs(sample))
                    }
                }
            }
        }
        if isFloat {
            accumulate(Float.self) { $0 }
        } else if asbd.mBitsPerChannel == 32 {
            accumulate(Int32.self) { Float($0) / 2_147_483_648 }
        } else {
            accumulate(Int16.self) { Float($0) / 32768 }
        }
        for channel in 0..<width { levels[channel].meanSquare /= Float(max(count, 1)) }
        return levels
    }

    /// Records `levels`, measured from a buffer presented at `time` (seconds), into a
    /// connection's channels, one per channel; does nothing when the counts differ.
    static func record(_ levels: [Level], at time: Double, into channels: [AVCaptureAudioChannel]) {
        guard levels.count == channels.count else { return }
        for (meter, level) in zip(channels, levels) { meter.record(level, at: time) }
    }
}
