import Foundation
import OpenCoreMedia

/// Archiving of times, ranges and mappings with an `NSCoder`, as AVFoundation adds it: each
/// value is stored under its key's name followed by a field name (`"start.value"`,
/// `"start.timescale"`, …), so that any keyed coder holds it.
///
/// Differs from Apple: the archived layout is this module's own; a key never encoded decodes
/// as the invalid value.
extension NSCoder {
    /// Encodes a time under `key`.
    public func encode(_ time: CMTime, forKey key: String) {
        encode(time.value, forKey: key + ".value")
        encode(time.timescale, forKey: key + ".timescale")
        encode(Int64(time.flags.rawValue), forKey: key + ".flags")
        encode(time.epoch, forKey: key + ".epoch")
    }

    /// The time encoded under `key`, or `CMTime.invalid` when there is none.
    public func decodeTime(forKey key: String) -> CMTime {
        guard containsValue(forKey: key + ".flags") else { return .invalid }
        return CMTime(value: decodeInt64(forKey: key + ".value"), timescale: decodeInt32(forKey: key + ".timescale"),
                      flags: CMTimeFlags(rawValue: UInt32(truncatingIfNeeded: decodeInt64(forKey: key + ".flags"))),
                      epoch: decodeInt64(forKey: key + ".epoch"))
    }

    /// Encodes a time range under `key`.
    public func encode(_ timeRange: CMTimeRange, forKey key: String) {
        encode(timeRange.start, forKey: key + ".start")
        encode(timeRange.duration, forKey: key + ".duration")
    }

    /// The time range encoded under `key`, or `CMTimeRange.invalid` when there is none.
    public func decodeTimeRange(forKey key: String) -> CMTimeRange {
        guard containsValue(forKey: key + ".start.flags") else { return .invalid }
        return CMTimeRange(start: decodeTime(forKey: key + ".start"), duration: decodeTime(forKey: key + ".duration"))
    }

    /// Encodes a time mapping under `key`.
    public func encode(_ timeMapping: CMTimeMapping, forKey key: String) {
        encode(timeMapping.source, forKey: key + ".source")
        encode(timeMapping.target, forKey: key + ".target")
    }

    /// The time mapping encoded under `key`, or `CMTimeMapping.invalid` when there is none.
    public func decodeTimeMapping(forKey key: String) -> CMTimeMapping {
        guard containsValue(forKey: key + ".source.start.flags") else { return .invalid }
        return CMTimeMapping(source: decodeTimeRange(forKey: key + ".source"), target: decodeTimeRange(forKey: key + ".target"))
    }
}
