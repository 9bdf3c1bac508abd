/// The frame rate and counting of a `SMPTETime` (Core Audio's `kSMPTETimeType…` constants).
public enum SMPTETimeType: UInt32, Sendable {
    /// 24 frames a second, as film.
    case type24 = 0
    /// 25 frames a second, as PAL video.
    case type25 = 1
    /// 30 frames a second with frame numbers dropped to keep up with the clock.
    case type30Drop = 2
    /// 30 frames a second.
    case type30 = 3
    /// 29.97 frames a second, as NTSC video.
    case type2997 = 4
    /// 29.97 frames a second with frame numbers dropped so that the timecode matches the clock.
    case type2997Drop = 5
    /// 60 frames a second.
    case type60 = 6
    /// 59.94 frames a second.
    case type5994 = 7
    /// 60 frames a second with frame numbers dropped.
    case type60Drop = 8
    /// 59.94 frames a second with frame numbers dropped.
    case type5994Drop = 9
    /// 50 frames a second.
    case type50 = 10
    /// 23.98 frames a second.
    case type2398 = 11
}
