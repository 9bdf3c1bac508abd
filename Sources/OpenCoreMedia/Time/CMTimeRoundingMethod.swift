/// How a time's value is rounded when it is converted to another timescale.
public enum CMTimeRoundingMethod: UInt32, Sendable, CaseIterable {
    /// Rounds toward zero when the fraction is below one half, away from zero otherwise.
    case roundHalfAwayFromZero = 1
    /// Rounds toward zero whenever there is a fraction.
    case roundTowardZero = 2
    /// Rounds away from zero whenever there is a fraction.
    case roundAwayFromZero = 3
    /// Rounds toward zero when converting to a smaller timescale, away from zero when converting
    /// to a larger one, and never rounds a negative time up to zero (it becomes `-1/timescale`).
    case quickTime = 4
    /// Rounds toward positive infinity whenever there is a fraction.
    case roundTowardPositiveInfinity = 5
    /// Rounds toward negative infinity whenever there is a fraction.
    case roundTowardNegativeInfinity = 6

    /// The default rounding method, `roundHalfAwayFromZero`.
    public static var `default`: CMTimeRoundingMethod { .roundHalfAwayFromZero }
}
