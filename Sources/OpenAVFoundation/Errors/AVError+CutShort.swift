import OpenCoreMedia

extension AVError {
    /// How far short of its track's end a reading may stop and still count as complete: the
    /// last sample's end and the container's track duration differ by a frame or an audio
    /// packet, never by this much.
    static let cutShortTolerance = CMTime(value: 1, timescale: 2)

    /// The error of a track whose reading completed at `reached` (the end of the last sample
    /// read) while it was to go on to `expected` (the end asked for, or the track's own end when
    /// sooner): the file was cut short, for instance truncated while it played. FFmpeg's
    /// readers meet the file's end there as an ordinary end of file. Nil when it reached it.
    static func cutShort(reached: CMTime, expected: CMTime) -> AVError? {
        guard reached.isNumeric, expected.isNumeric, reached + cutShortTolerance < expected else { return nil }
        return AVError(.fileFailedToParse, reason: String(format: "the file ends at %.3f s, before its track's end at %.3f s: it was cut short",
                                                          reached.seconds, expected.seconds))
    }
}
