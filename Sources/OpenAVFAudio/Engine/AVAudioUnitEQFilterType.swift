/// The kind of filter an equalizer band is, with Apple's values.
public enum AVAudioUnitEQFilterType: Int, Sendable {
    /// A peak or dip around `frequency`, `bandwidth` octaves wide, by `gain` (libavfilter's
    /// `equalizer`).
    case parametric = 0
    /// A second-order Butterworth low pass at `frequency` (−3 dB there).
    case lowPass = 1
    /// A second-order Butterworth high pass at `frequency`.
    case highPass = 2
    /// A low pass with its resonance set by `bandwidth`.
    case resonantLowPass = 3
    /// A high pass with its resonance set by `bandwidth`.
    case resonantHighPass = 4
    /// A band pass around `frequency`, `bandwidth` octaves wide.
    case bandPass = 5
    /// A band stop (notch) around `frequency`, `bandwidth` octaves wide.
    case bandStop = 6
    /// A shelf raising or lowering what is below `frequency` by `gain`.
    case lowShelf = 7
    /// A shelf raising or lowering what is above `frequency` by `gain`.
    case highShelf = 8
    /// A low shelf with its slope set by `bandwidth`.
    case resonantLowShelf = 9
    /// A high shelf with its slope set by `bandwidth`.
    case resonantHighShelf = 10
}
