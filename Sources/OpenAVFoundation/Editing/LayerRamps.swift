import Foundation
import OpenCoreMedia

/// The values of one property of a layer instruction or an audio mix input over time: ramps
/// (a start and an end value over a time range) and values set at a time, held until the next
/// ramp or value.
/// Before the first, the property has its default; after a ramp ends, its end value holds.
struct LayerRamps<Value> {
    /// One ramp; a value set at a time is a ramp from it to itself.
    struct Ramp {
        var start: Value
        var end: Value
        /// The ramp's range; a held value's runs to the next ramp's start (or on forever).
        var timeRange: CMTimeRange
    }

    /// The ramps in time order; held values have an infinite duration here.
    private var ramps: [Ramp] = []

    /// Adds a ramp, replacing any that starts at the same time.
    mutating func add(_ ramp: Ramp) {
        ramps.removeAll { $0.timeRange.start == ramp.timeRange.start }
        ramps.append(ramp)
        ramps.sort { $0.timeRange.start < $1.timeRange.start }
    }

    /// Sets `value` from `time` on.
    mutating func set(_ value: Value, at time: CMTime) {
        add(Ramp(start: value, end: value, timeRange: CMTimeRange(start: time, duration: .positiveInfinity)))
    }

    /// Every ramp in time order, held values' ranges cut at the next ramp.
    var all: [Ramp] { ramps.compactMap { ramp(at: $0.timeRange.start) } }

    /// The ramp in effect at `time` (the last one starting at or before it), a held value's
    /// range cut at the next ramp; nil before the first.
    func ramp(at time: CMTime) -> Ramp? {
        guard let index = ramps.lastIndex(where: { $0.timeRange.start <= time }) else { return nil }
        var ramp = ramps[index]
        if ramp.timeRange.duration.isPositiveInfinity, index + 1 < ramps.count {
            ramp.timeRange = CMTimeRange(start: ramp.timeRange.start, end: ramps[index + 1].timeRange.start)
        }
        return ramp
    }

    /// What the `get…Ramp(for:…)` methods report, as Apple documents them: the ramp whose
    /// range holds `time` (a held value's range cut at the next ramp), else the first ramp
    /// starting after `time`; nil when there is neither.
    func reported(at time: CMTime) -> Ramp? {
        let cut = all
        if let holding = cut.last(where: { $0.timeRange.containsTime(time) }) { return holding }
        return cut.first { $0.timeRange.start > time }
    }

    /// The value at `time`: interpolated inside a ramp, its end value after it, the default
    /// before any.
    func value(at time: CMTime, default defaultValue: Value, interpolate: (Value, Value, Double) -> Value) -> Value {
        guard let ramp = ramp(at: time) else { return defaultValue }
        let range = ramp.timeRange
        guard range.duration.isNumeric, range.duration > .zero else { return ramp.start }
        guard time < range.end else { return ramp.end }
        return interpolate(ramp.start, ramp.end, (time - range.start).seconds / range.duration.seconds)
    }
}
