import Foundation
import HostSystem

/// A multiband equalizer: each band (`bands`) a parametric, pass, stop or shelf filter, then
/// `globalGain`; libavfilter's biquad filters (`equalizer`, `lowpass`, `highpass`, `bandpass`,
/// `bandreject`, `lowshelf`, `highshelf`) run them, one after another.
open class AVAudioUnitEQ: AVAudioUnitEffect, @unchecked Sendable {
    /// The bands, in the order the sound goes through them.
    public private(set) var bands: [AVAudioUnitEQFilterParameters] = []

    private let storedGain = Locked<Float>(0)

    /// An equalizer of `numberOfBands` bands, each bypassed until set up.
    public init(numberOfBands: Int) {
        super.init(name: "AUNBandEQ")
        bands = (0..<max(0, numberOfBands)).map { _ in AVAudioUnitEQFilterParameters { [weak self] in self?.chainChanged() } }
    }

    /// An equalizer of one band.
    public convenience init() {
        self.init(numberOfBands: 1)
    }

    /// The gain applied after the bands, in decibels, −96 to 24 (0 at first).
    open var globalGain: Float {
        get { storedGain.withLock { $0 } }
        set {
            storedGain.withLock { $0 = newValue }
            chainChanged()
        }
    }

    override var chain: String? {
        let rate = currentOutputFormat(0).sampleRate
        var filters = bands.compactMap { $0.filter(sampleRate: rate) }
        let level = min(max(-96, storedGain.withLock { $0 }), 24)
        if level != 0 { filters.append("volume=\(level)dB") }
        return filters.isEmpty ? nil : filters.joined(separator: ",")
    }
}
