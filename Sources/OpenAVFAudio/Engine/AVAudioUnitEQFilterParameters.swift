import Foundation

/// The settings of one band of an `AVAudioUnitEQ` (from its `bands`): the kind of filter, its
/// frequency, bandwidth and gain, and whether it is bypassed. A change takes effect at the next
/// render cycle.
open class AVAudioUnitEQFilterParameters: NSObject, @unchecked Sendable {
    private let state: NSLock = NSLock()
    private var values: (type: AVAudioUnitEQFilterType, frequency: Float, bandwidth: Float, gain: Float, bypass: Bool) =
        (.parametric, 1000, 0.5, 0, true)
    /// Called when a setting changed.
    let changed: () -> Void

    /// A band whose changes call `changed`.
    init(changed: @escaping () -> Void) {
        self.changed = changed
        super.init()
    }

    private func set(_ change: (inout (type: AVAudioUnitEQFilterType, frequency: Float, bandwidth: Float, gain: Float, bypass: Bool)) -> Void) {
        state.withLock { change(&values) }
        changed()
    }

    /// The kind of filter (`.parametric` at first).
    open var filterType: AVAudioUnitEQFilterType {
        get { state.withLock { values.type } }
        set { set { $0.type = newValue } }
    }

    /// The band's frequency in hertz, 20 to half the sample rate (1 kHz at first).
    open var frequency: Float {
        get { state.withLock { values.frequency } }
        set { set { $0.frequency = newValue } }
    }

    /// The band's width in octaves, 0.05 to 5 (0.5 at first).
    open var bandwidth: Float {
        get { state.withLock { values.bandwidth } }
        set { set { $0.bandwidth = newValue } }
    }

    /// The band's gain in decibels, −96 to 24 (0 at first).
    open var gain: Float {
        get { state.withLock { values.gain } }
        set { set { $0.gain = newValue } }
    }

    /// Whether the band is bypassed (true at first: a band does nothing until it is turned on).
    open var bypass: Bool {
        get { state.withLock { values.bypass } }
        set { set { $0.bypass = newValue } }
    }

    /// The band as a libavfilter filter, nil when bypassed.
    func filter(sampleRate: Double) -> String? {
        let (type, frequency, bandwidth, gain, bypass) = state.withLock { values }
        guard !bypass else { return nil }
        let f = min(max(20, Double(frequency)), sampleRate / 2 - 1)
        let w = min(max(0.05, Double(bandwidth)), 5)
        let g = min(max(-96, Double(gain)), 24)
        switch type {
        case .parametric: return "equalizer=f=\(f):t=o:w=\(w):g=\(g)"
        case .lowPass: return "lowpass=f=\(f)"
        case .highPass: return "highpass=f=\(f)"
        case .resonantLowPass: return "lowpass=f=\(f):t=o:w=\(w)"
        case .resonantHighPass: return "highpass=f=\(f):t=o:w=\(w)"
        case .bandPass: return "bandpass=f=\(f):t=o:w=\(w)"
        case .bandStop: return "bandreject=f=\(f):t=o:w=\(w)"
        case .lowShelf: return "lowshelf=f=\(f):g=\(g)"
        case .highShelf: return "highshelf=f=\(f):g=\(g)"
        case .resonantLowShelf: return "lowshelf=f=\(f):t=o:w=\(w):g=\(g)"
        case .resonantHighShelf: return "highshelf=f=\(f):t=o:w=\(w):g=\(g)"
        }
    }
}
