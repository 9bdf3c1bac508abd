import OpenCoreMedia

extension CMSampleBuffer {
    /// A copy sharing this buffer's data and format, with new timing: one entry for all its
    /// samples, or one per sample. The one retiming helper of the writers (the session's start
    /// and end, a recording's file times); nil when the copy cannot be made.
    func retimed(_ timing: [CMSampleTimingInfo]) -> CMSampleBuffer? {
        var timing = timing
        var copy: CMSampleBuffer?
        CMSampleBufferCreateCopyWithNewTiming(allocator: nil, sampleBuffer: self, sampleTimingEntryCount: timing.count,
                                              sampleTimingArray: &timing, sampleBufferOut: &copy)
        return copy
    }
}
