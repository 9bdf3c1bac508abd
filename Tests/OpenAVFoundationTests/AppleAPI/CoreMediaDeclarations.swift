import Testing
import OpenAVFoundation

// Apple's declarations of Core Media (CMTime, CMTimeRange, CMTimeMapping, CMClock, CMSampleBuffer
// and its functions, CMBlockBuffer, CMFormatDescription and its functions, the attachment
// functions, the Core Audio types Core Media uses, and the metadata data types), spelled as
// Apple's Swift SDK spells them. Each typed reference breaks the build when a name, a label, an
// optionality or a `throws` drifts from Apple's. Nothing here reads or writes media; the few
// objects made are a handful of bytes.

/// The four-character code spelled by `text`, as C's `'avc1'` literal.
private func fourCharacterCode(_ text: String) -> FourCharCode {
    text.utf8.reduce(0) { $0 << 8 | FourCharCode($1) }
}

@Suite(.timeLimit(.minutes(10))) struct CoreMediaAppleDeclarationTests {
    // https://developer.apple.com/documentation/coremedia/cmtime
    @Test func time() {
        let _: () -> CMTime = CMTime.init
        let _: (CMTimeValue, CMTimeScale) -> CMTime = CMTime.init(value:timescale:)
        let _: (CMTimeValue, CMTimeScale, CMTimeFlags, CMTimeEpoch) -> CMTime = CMTime.init(value:timescale:flags:epoch:)
        let _: (Double, CMTimeScale) -> CMTime = CMTime.init(seconds:preferredTimescale:)
        let _: WritableKeyPath<CMTime, CMTimeValue> = \CMTime.value
        let _: WritableKeyPath<CMTime, CMTimeScale> = \CMTime.timescale
        let _: WritableKeyPath<CMTime, CMTimeFlags> = \CMTime.flags
        let _: WritableKeyPath<CMTime, CMTimeEpoch> = \CMTime.epoch
        let _: KeyPath<CMTime, Double> = \CMTime.seconds
        let _: KeyPath<CMTime, Bool> = \CMTime.isValid
        let _: KeyPath<CMTime, Bool> = \CMTime.isNumeric
        let _: KeyPath<CMTime, Bool> = \CMTime.isIndefinite
        let _: KeyPath<CMTime, Bool> = \CMTime.isPositiveInfinity
        let _: KeyPath<CMTime, Bool> = \CMTime.isNegativeInfinity
        let _: KeyPath<CMTime, Bool> = \CMTime.hasBeenRounded
        let _: (CMTime) -> (Int32, CMTimeRoundingMethod) -> CMTime = CMTime.convertScale(_:method:)
        let _: [CMTime] = [.zero, .invalid, .indefinite, .positiveInfinity, .negativeInfinity]
        let _: (CMTime, CMTime) -> CMTime = (+)
        let _: (CMTime, CMTime) -> CMTime = (-)
        let _: (inout CMTime, CMTime) -> Void = (+=)
        let _: (inout CMTime, CMTime) -> Void = (-=)
        let _: (CMTime, CMTime) -> Bool = (<)
        let _: (CMTime, CMTime) -> Bool = (<=)
        let _: (CMTime, CMTime) -> Bool = (>)
        let _: (CMTime, CMTime) -> Bool = (>=)
        let _: (CMTime, CMTime) -> Bool = (==)
        let _: (CMTime, CMTime) -> Bool = (!=)
        #expect(CMTime(value: 1, timescale: 2) == CMTime(value: 2, timescale: 4))
        #expect(kCMTimeMaxTimescale == 0x7fff_ffff)
        let _: Int = kCMTimeMaxTimescale
        let _: CMTimeValue = Int64(0)
        let _: CMTimeScale = Int32(0)
        let _: CMTimeEpoch = Int64(0)
    }

    // https://developer.apple.com/documentation/coremedia/cmtimeflags,
    // https://developer.apple.com/documentation/coremedia/cmtimeroundingmethod
    @Test func timeFlagsAndRounding() {
        let _: (UInt32) -> CMTimeFlags = CMTimeFlags.init(rawValue:)
        #expect(CMTimeFlags.valid.rawValue == 1 && CMTimeFlags.hasBeenRounded.rawValue == 2)
        #expect(CMTimeFlags.positiveInfinity.rawValue == 4 && CMTimeFlags.negativeInfinity.rawValue == 8)
        #expect(CMTimeFlags.indefinite.rawValue == 16 && CMTimeFlags.impliedValueFlagsMask.rawValue == 28)
        let methods: [CMTimeRoundingMethod] = [.roundHalfAwayFromZero, .roundTowardZero, .roundAwayFromZero, .quickTime,
                                               .roundTowardPositiveInfinity, .roundTowardNegativeInfinity]
        #expect(methods.map(\.rawValue) == [1, 2, 3, 4, 5, 6])
        #expect(CMTimeRoundingMethod.default == .roundHalfAwayFromZero)
    }

    // https://developer.apple.com/documentation/coremedia/cmtime-api
    @Test func timeFunctions() {
        let _: (Int64, Int32) -> CMTime = CMTimeMake(value:timescale:)
        let _: (Int64, Int32, Int64) -> CMTime = CMTimeMakeWithEpoch(value:timescale:epoch:)
        let _: (Float64, Int32) -> CMTime = CMTimeMakeWithSeconds(_:preferredTimescale:)
        let _: (CMTime) -> Float64 = CMTimeGetSeconds
        let _: (CMTime, Int32, CMTimeRoundingMethod) -> CMTime = CMTimeConvertScale(_:timescale:method:)
        let _: (CMTime, CMTime) -> CMTime = CMTimeAdd
        let _: (CMTime, CMTime) -> CMTime = CMTimeSubtract
        let _: (CMTime, Int32) -> CMTime = CMTimeMultiply(_:multiplier:)
        let _: (CMTime, Float64) -> CMTime = CMTimeMultiplyByFloat64(_:multiplier:)
        let _: (CMTime, Int32, Int32) -> CMTime = CMTimeMultiplyByRatio(_:multiplier:divisor:)
        let _: (CMTime, CMTime) -> Int32 = CMTimeCompare
        let _: (CMTime, CMTime) -> CMTime = CMTimeMinimum
        let _: (CMTime, CMTime) -> CMTime = CMTimeMaximum
        let _: (CMTime) -> CMTime = CMTimeAbsoluteValue
        let _: (CMTime, CFAllocator?) -> CFDictionary? = CMTimeCopyAsDictionary(_:allocator:)
        let _: (CFDictionary?) -> CMTime = CMTimeMakeFromDictionary
        let _: (CFAllocator?, CMTime) -> CFString? = CMTimeCopyDescription(allocator:time:)
        let _: (CMTime) -> Void = CMTimeShow
        let _: [(CMTime) -> Bool] = [CMTIME_IS_VALID, CMTIME_IS_INVALID, CMTIME_IS_POSITIVEINFINITY, CMTIME_IS_NEGATIVEINFINITY,
                                     CMTIME_IS_INDEFINITE, CMTIME_IS_NUMERIC, CMTIME_HAS_BEEN_ROUNDED]
        let _: [CFString] = [kCMTimeValueKey, kCMTimeScaleKey, kCMTimeEpochKey, kCMTimeFlagsKey]
        #expect(CMTimeMultiplyByRatio(CMTimeMake(value: 3, timescale: 4), multiplier: 2, divisor: 3) == CMTime(value: 1, timescale: 2))
    }

    // https://developer.apple.com/documentation/coremedia/cmtimerange,
    // https://developer.apple.com/documentation/coremedia/cmtimerange-api
    @Test func timeRange() {
        let _: () -> CMTimeRange = CMTimeRange.init
        let _: (CMTime, CMTime) -> CMTimeRange = CMTimeRange.init(start:duration:)
        let _: (CMTime, CMTime) -> CMTimeRange = CMTimeRange.init(start:end:)
        let _: WritableKeyPath<CMTimeRange, CMTime> = \CMTimeRange.start
        let _: WritableKeyPath<CMTimeRange, CMTime> = \CMTimeRange.duration
        let _: KeyPath<CMTimeRange, CMTime> = \CMTimeRange.end
        let _: KeyPath<CMTimeRange, Bool> = \CMTimeRange.isValid
        let _: KeyPath<CMTimeRange, Bool> = \CMTimeRange.isIndefinite
        let _: KeyPath<CMTimeRange, Bool> = \CMTimeRange.isEmpty
        let _: (CMTimeRange) -> (CMTimeRange) -> CMTimeRange = CMTimeRange.union(_:)
        let _: (CMTimeRange) -> (CMTimeRange) -> CMTimeRange = CMTimeRange.intersection(_:)
        let _: (CMTimeRange) -> (CMTime) -> Bool = CMTimeRange.containsTime(_:)
        let _: (CMTimeRange) -> (CMTimeRange) -> Bool = CMTimeRange.containsTimeRange(_:)
        let _: [CMTimeRange] = [.zero, .invalid]
        let _: (CMTimeRange, CMTimeRange) -> Bool = (==)
        let _: (CMTimeRange, CMTimeRange) -> Bool = (!=)
        let _: (CMTime, CMTime) -> CMTimeRange = CMTimeRangeMake(start:duration:)
        let _: (CMTime, CMTime) -> CMTimeRange = CMTimeRangeFromTimeToTime(start:end:)
        let _: (CMTimeRange) -> CMTime = CMTimeRangeGetEnd
        let _: (CMTimeRange, CMTimeRange) -> CMTimeRange = CMTimeRangeGetUnion(_:otherRange:)
        let _: (CMTimeRange, CMTimeRange) -> CMTimeRange = CMTimeRangeGetIntersection(_:otherRange:)
        let _: (CMTimeRange, CMTime) -> Bool = CMTimeRangeContainsTime(_:time:)
        let _: (CMTimeRange, CMTimeRange) -> Bool = CMTimeRangeContainsTimeRange(_:otherRange:)
        let _: (CMTimeRange, CMTimeRange) -> Bool = CMTimeRangeEqual
        let _: [(CMTimeRange) -> Bool] = [CMTIMERANGE_IS_VALID, CMTIMERANGE_IS_INVALID, CMTIMERANGE_IS_INDEFINITE, CMTIMERANGE_IS_EMPTY]
        let _: (CMTime, CMTimeRange) -> CMTime = CMTimeClampToRange(_:range:)
        let _: (CMTime, CMTimeRange) -> CMTime = CMTimeFoldIntoRange(_:foldRange:)
        let _: (CMTime, CMTimeRange, CMTimeRange) -> CMTime = CMTimeMapTimeFromRangeToRange(_:fromRange:toRange:)
        let _: (CMTime, CMTimeRange, CMTimeRange) -> CMTime = CMTimeMapDurationFromRangeToRange(_:fromRange:toRange:)
        let _: (CMTimeRange, CFAllocator?) -> CFDictionary? = CMTimeRangeCopyAsDictionary(_:allocator:)
        let _: (CFDictionary) -> CMTimeRange = CMTimeRangeMakeFromDictionary
        let _: (CFAllocator?, CMTimeRange) -> CFString? = CMTimeRangeCopyDescription(allocator:range:)
        let _: (CMTimeRange) -> Void = CMTimeRangeShow
        let _: [CFString] = [kCMTimeRangeStartKey, kCMTimeRangeDurationKey]
    }

    // https://developer.apple.com/documentation/coremedia/cmtimemapping,
    // https://developer.apple.com/documentation/coremedia/cmtimemapping-api
    @Test func timeMapping() {
        let _: () -> CMTimeMapping = CMTimeMapping.init
        let _: (CMTimeRange, CMTimeRange) -> CMTimeMapping = CMTimeMapping.init(source:target:)
        let _: WritableKeyPath<CMTimeMapping, CMTimeRange> = \CMTimeMapping.source
        let _: WritableKeyPath<CMTimeMapping, CMTimeRange> = \CMTimeMapping.target
        let _: CMTimeMapping = .invalid
        let _: (CMTimeRange, CMTimeRange) -> CMTimeMapping = CMTimeMappingMake(source:target:)
        let _: (CMTimeRange) -> CMTimeMapping = CMTimeMappingMakeEmpty(target:)
        let _: (CMTimeMapping, CFAllocator?) -> CFDictionary? = CMTimeMappingCopyAsDictionary(_:allocator:)
        let _: (CFDictionary) -> CMTimeMapping = CMTimeMappingMakeFromDictionary
        let _: (CFAllocator?, CMTimeMapping) -> CFString? = CMTimeMappingCopyDescription(allocator:mapping:)
        let _: (CMTimeMapping) -> Void = CMTimeMappingShow
        let _: [CFString] = [kCMTimeMappingSourceKey, kCMTimeMappingTargetKey]
        let mapping = CMTimeMappingMake(source: CMTimeRange(start: .zero, duration: CMTime(value: 2, timescale: 1)),
                                        target: CMTimeRange(start: CMTime(value: 5, timescale: 1), duration: CMTime(value: 2, timescale: 1)))
        let back = CMTimeMappingMakeFromDictionary(CMTimeMappingCopyAsDictionary(mapping, allocator: nil)!)
        #expect(back.source == mapping.source && back.target == mapping.target)
    }

    // https://developer.apple.com/documentation/coremedia/cmclock,
    // https://developer.apple.com/documentation/coremedia/cmclock-api
    @Test func clock() throws {
        let _: CMClock = CMClock.hostTimeClock
        let _: KeyPath<CMClock, CMTime> = \CMClock.time
        let _: (CMClock) -> () throws -> (anchorTime: CMTime, referenceTime: CMTime) = CMClock.anchorTime
        let _: (CMClock) -> (CMClock) -> Bool = CMClock.mightDrift(relativeTo:)
        let _: (CMTime) -> UInt64 = CMClock.convertHostTimeToSystemUnits(_:)
        let _: (UInt64) -> CMTime = CMClock.convertSystemUnitsToHostTime(_:)
        let _: () -> CMClock = CMClockGetHostTimeClock
        let _: (CMClock) -> CMTime = CMClockGetTime
        let _: (CMClock, UnsafeMutablePointer<CMTime>, UnsafeMutablePointer<CMTime>) -> OSStatus =
            CMClockGetAnchorTime(_:clockTimeOut:referenceClockTimeOut:)
        let _: (CMClock, CMClock) -> Bool = CMClockMightDrift(_:otherClock:)
        let _: (CMTime) -> UInt64 = CMClockConvertHostTimeToSystemUnits
        let _: (UInt64) -> CMTime = CMClockMakeHostTimeFromSystemUnits
        let _: (CMTime, CMClockOrTimebase, CMClockOrTimebase) -> CMTime = CMSyncConvertTime(_:from:to:)
        let _: (CMClockOrTimebase) -> CMTime = CMSyncGetTime
        let _: (CMClockOrTimebase, CMClockOrTimebase) -> Bool = CMSyncMightDrift
        #expect(kCMClockError_MissingRequiredParameter == -12745 && kCMClockError_InvalidParameter == -12746)
        #expect(kCMClockError_AllocationFailed == -12747 && kCMClockError_UnsupportedOperation == -12756)
        let clock = CMClockGetHostTimeClock()
        #expect(clock === CMClock.hostTimeClock)
        #expect(try clock.anchorTime().anchorTime.isNumeric)
        let _: CFTimeInterval = CACurrentMediaTime()
    }

    // https://developer.apple.com/documentation/coremedia/cmtimebase
    @Test func timebase() throws {
        let _: (CMClock) throws -> CMTimebase = CMTimebase.init(sourceClock:)
        let _: (CMTimebase) throws -> CMTimebase = CMTimebase.init(sourceTimebase:)
        let _: KeyPath<CMTimebase, CMTime> = \CMTimebase.time
        let _: KeyPath<CMTimebase, Double> = \CMTimebase.rate
        let _: KeyPath<CMTimebase, Double> = \CMTimebase.effectiveRate
        let _: KeyPath<CMTimebase, CMClock?> = \CMTimebase.sourceClock
        let _: KeyPath<CMTimebase, CMTimebase?> = \CMTimebase.sourceTimebase
        let _: KeyPath<CMTimebase, CMClock> = \CMTimebase.ultimateSourceClock
        let _: ReferenceWritableKeyPath<CMTimebase, any CMSyncProtocol> = \CMTimebase.source
        let _: (CMTimebase) -> (CMClock) -> Double = CMTimebase.rate(relativeTo:)
        let _: (CMClock) -> (CMTimebase) throws -> (rate: Double, anchorTime: CMTime, referenceTime: CMTime) =
            CMClock.rateAndAnchorTime(relativeTo:)
        let _: (CMTimebase) -> (CMTime, CMClock) -> CMTime = CMTimebase.convertTime(_:to:)
        let _: (CMClockOrTimebase, CMClockOrTimebase) -> Float64 = CMSyncGetRelativeRate(_:relativeTo:)
        let _: (CMClockOrTimebase, CMClockOrTimebase, UnsafeMutablePointer<Float64>?, UnsafeMutablePointer<CMTime>?,
                UnsafeMutablePointer<CMTime>?) -> OSStatus =
            CMSyncGetRelativeRateAndAnchorTime(_:relativeTo:relativeRateOut:anchorTimeOut:relativeToAnchorTimeOut:)
        let _: (CMTimebase) -> (CMTimeScale, CMTimeRoundingMethod) -> CMTime = CMTimebase.time(withTimescale:rounding:)
        let _: (CMTimebase) -> (CMTime) throws -> Void = CMTimebase.setTime(_:)
        let _: (CMTimebase) -> (CMTime, CMTime) throws -> Void = CMTimebase.setAnchorTime(_:referenceTime:)
        let _: (CMTimebase) -> (Double) throws -> Void = CMTimebase.setRate(_:)
        let _: (CMTimebase) -> (Double, CMTime, CMTime) throws -> Void = CMTimebase.setRateAndAnchorTime(rate:anchorTime:referenceTime:)
        let _: (CMTimebase) -> (Timer, RunLoop) throws -> Void = CMTimebase.addTimer(_:on:)
        let _: (CMTimebase) -> (Timer, CMTime) throws -> Void = CMTimebase.setTimerNextFireTime(_:fireTime:)
        let _: (CMTimebase) -> () throws -> Void = CMTimebase.notificationBarrier
        let _: NSNotification.Name = CMTimebase.timeJumped
        let _: NSNotification.Name = CMTimebase.effectiveRateChanged
        let _: CMTimebase.NotificationKey = .eventTime
        let _: CFAbsoluteTime = CMTimebase.farFuture
        let _: CFTimeInterval = CMTimebase.veryLongTimeInterval
        let _: NSError = CMTimebase.Error.readOnly
        let _: (CFAllocator?, CMClock, UnsafeMutablePointer<CMTimebase?>) -> OSStatus =
            CMTimebaseCreateWithSourceClock(allocator:sourceClock:timebaseOut:)
        let _: (CFAllocator?, CMTimebase, UnsafeMutablePointer<CMTimebase?>) -> OSStatus =
            CMTimebaseCreateWithSourceTimebase(allocator:sourceTimebase:timebaseOut:)
        let _: (CMTimebase) -> CMTime = CMTimebaseGetTime
        let _: (CMTimebase, CMTimeScale, CMTimeRoundingMethod) -> CMTime = CMTimebaseGetTimeWithTimeScale(_:timescale:method:)
        let _: (CMTimebase, CMTime) -> OSStatus = CMTimebaseSetTime(_:time:)
        let _: (CMTimebase, CMTime, CMTime) -> OSStatus = CMTimebaseSetAnchorTime(_:timebaseTime:immediateSourceTime:)
        let _: (CMTimebase) -> Float64 = CMTimebaseGetRate
        let _: (CMTimebase, UnsafeMutablePointer<CMTime>?, UnsafeMutablePointer<Float64>?) -> OSStatus =
            CMTimebaseGetTimeAndRate(_:timeOut:rateOut:)
        let _: (CMTimebase, Float64) -> OSStatus = CMTimebaseSetRate(_:rate:)
        let _: (CMTimebase, Float64, CMTime, CMTime) -> OSStatus = CMTimebaseSetRateAndAnchorTime(_:rate:anchorTime:immediateSourceTime:)
        let _: (CMTimebase) -> Float64 = CMTimebaseGetEffectiveRate
        let _: (CMTimebase) -> CMClock? = CMTimebaseCopySourceClock
        let _: (CMTimebase) -> CMTimebase? = CMTimebaseCopySourceTimebase
        let _: (CMTimebase) -> CMClock = CMTimebaseCopyUltimateSourceClock
        let _: (CMTimebase, CMClock) -> OSStatus = CMTimebaseSetSourceClock(_:_:)
        let _: (CMTimebase, CMTimebase) -> OSStatus = CMTimebaseSetSourceTimebase(_:_:)
        let _: (CMTimebase) -> OSStatus = CMTimebaseNotificationBarrier
        let _: CFString = kCMTimebaseNotification_TimeJumped
        let _: CFString = kCMTimebaseNotification_EffectiveRateChanged
        let _: CFString = kCMTimebaseNotificationKey_EventTime
        #expect(kCMTimebaseError_MissingRequiredParameter == -12748 && kCMTimebaseError_InvalidParameter == -12749)
        #expect(kCMTimebaseError_AllocationFailed == -12750 && kCMTimebaseError_TimerIntervalTooShort == -12751)
        #expect(kCMTimebaseError_ReadOnly == -12757)
        // The common call sites, as Apple's documentation writes them.
        let timebase = try CMTimebase(sourceClock: CMClockGetHostTimeClock())
        try timebase.setRate(1)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        try timebase.addTimer(timer)
        try timebase.setTimerNextFireTime(timer, fireTime: CMTime(value: 1, timescale: 1))
        try timebase.removeTimer(timer)
        timer.resume()
        timer.cancel()
        let _: CMTimebase? = AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent.mov")).timebase
    }

    // https://developer.apple.com/documentation/coremedia/cmbufferqueue
    @Test func bufferQueues() throws {
        let _: (CMItemCount, CMBufferQueue.Handlers) throws -> CMBufferQueue = CMBufferQueue.init(capacity:handlers:)
        let _: CMBufferQueue.Handlers = .unsortedSampleBuffers
        let _: CMBufferQueue.Handlers = .outputPTSSortedSampleBuffers
        let _: (CMBufferQueue) -> (CMBuffer) throws -> Void = CMBufferQueue.enqueue(_:)
        let _: (CMBufferQueue) -> () -> CMBuffer? = CMBufferQueue.dequeue
        let _: (CMBufferQueue) -> () -> CMBuffer? = CMBufferQueue.dequeueIfDataReady
        let _: KeyPath<CMBufferQueue, CMBuffer?> = \CMBufferQueue.head
        let _: KeyPath<CMBufferQueue, Bool> = \CMBufferQueue.isEmpty
        let _: KeyPath<CMBufferQueue, CMItemCount> = \CMBufferQueue.bufferCount
        let _: KeyPath<CMBufferQueue, CMTime> = \CMBufferQueue.duration
        let _: KeyPath<CMBufferQueue, CMTime> = \CMBufferQueue.minDecodeTimeStamp
        let _: KeyPath<CMBufferQueue, CMTime> = \CMBufferQueue.firstDecodeTimeStamp
        let _: KeyPath<CMBufferQueue, CMTime> = \CMBufferQueue.minPresentationTimeStamp
        let _: KeyPath<CMBufferQueue, CMTime> = \CMBufferQueue.firstPresentationTimeStamp
        let _: KeyPath<CMBufferQueue, CMTime> = \CMBufferQueue.maxPresentationTimeStamp
        let _: KeyPath<CMBufferQueue, CMTime> = \CMBufferQueue.endPresentationTimeStamp
        let _: KeyPath<CMBufferQueue, Int> = \CMBufferQueue.totalSize
        let _: KeyPath<CMBufferQueue, Bool> = \CMBufferQueue.containsEndOfData
        let _: KeyPath<CMBufferQueue, Bool> = \CMBufferQueue.isAtEndOfData
        let _: (CMBufferQueue) -> () throws -> Void = CMBufferQueue.markEndOfData
        let _: (CMBufferQueue) -> (CMBufferQueue.TriggerToken) throws -> Void = CMBufferQueue.removeTrigger(_:)
        let _: (CMBufferQueue) -> (CMBufferQueue.TriggerToken) -> Bool = CMBufferQueue.testTrigger(_:)
        let _: NSError = CMBufferQueue.Error.cannotModifyQueueFromTriggerCallback
        let _: (CFAllocator?, CMItemCount, UnsafePointer<CMBufferCallbacks>, UnsafeMutablePointer<CMBufferQueue?>) -> OSStatus =
            CMBufferQueueCreate(allocator:capacity:callbacks:queueOut:)
        let _: () -> UnsafePointer<CMBufferCallbacks> = CMBufferQueueGetCallbacksForUnsortedSampleBuffers
        let _: () -> UnsafePointer<CMBufferCallbacks> = CMBufferQueueGetCallbacksForSampleBuffersSortedByOutputPTS
        let _: (CMBufferQueue, CMBuffer) -> OSStatus = CMBufferQueueEnqueue(_:buffer:)
        let _: (CMBufferQueue) -> CMBuffer? = CMBufferQueueDequeue
        let _: (CMBufferQueue) -> CMBuffer? = CMBufferQueueDequeueIfDataReady
        let _: (CMBufferQueue, CMBufferQueueTriggerToken) -> OSStatus = CMBufferQueueRemoveTrigger
        let _: (CMBufferQueue, CMBufferQueueTriggerToken) -> Bool = CMBufferQueueTestTrigger
        let _: (Int) throws -> CMSimpleQueue = CMSimpleQueue.init(capacity:)
        let _: (CMSimpleQueue) -> (UnsafeRawPointer) throws -> Void = CMSimpleQueue.enqueue(_:)
        let _: (CMSimpleQueue) -> () -> UnsafeRawPointer? = CMSimpleQueue.dequeue
        let _: KeyPath<CMSimpleQueue, UnsafeRawPointer?> = \CMSimpleQueue.head
        let _: KeyPath<CMSimpleQueue, Int> = \CMSimpleQueue.capacity
        let _: KeyPath<CMSimpleQueue, Int> = \CMSimpleQueue.count
        let _: KeyPath<CMSimpleQueue, Float> = \CMSimpleQueue.fullness
        let _: (CFAllocator?, Int32, UnsafeMutablePointer<CMSimpleQueue?>) -> OSStatus = CMSimpleQueueCreate(allocator:capacity:queueOut:)
        let _: (CMSimpleQueue, UnsafeRawPointer) -> OSStatus = CMSimpleQueueEnqueue(_:element:)
        let _: (CMSimpleQueue) -> Int32 = CMSimpleQueueGetCount
        #expect(kCMSimpleQueueError_QueueIsFull == -12773 && kCMBufferQueueError_QueueIsFull == -12764)
        let _: (CFDictionary?) -> CMMemoryPool = CMMemoryPoolCreate(options:)
        let _: (CMMemoryPool) -> CFAllocator = CMMemoryPoolGetAllocator
        let _: (CMMemoryPool) -> Void = CMMemoryPoolFlush
        let _: (CMMemoryPool) -> Void = CMMemoryPoolInvalidate
        let _: CFString = kCMMemoryPoolOption_AgeOutPeriod
        // The common call sites.
        let queue = try CMBufferQueue(capacity: 0, handlers: .unsortedSampleBuffers)
        let token = try queue.installTrigger(condition: .whenDurationBecomesLessThan(CMTime(value: 1, timescale: 1))) { _ in }
        try queue.removeTrigger(token)
        let handlers = CMBufferQueue.Handlers { builder in
            builder.getDuration { _ in .zero }
            builder.compare { _, _ in .compareEqualTo }
        }
        _ = try CMBufferQueue(capacity: 4, handlers: handlers.withHandlers { $0.getSize { _ in 1 } })
    }

    // https://developer.apple.com/documentation/coremedia/cmsampletiminginfo
    @Test func sampleTimingInfo() {
        let _: () -> CMSampleTimingInfo = CMSampleTimingInfo.init
        let _: (CMTime, CMTime, CMTime) -> CMSampleTimingInfo = CMSampleTimingInfo.init(duration:presentationTimeStamp:decodeTimeStamp:)
        let _: WritableKeyPath<CMSampleTimingInfo, CMTime> = \CMSampleTimingInfo.duration
        let _: WritableKeyPath<CMSampleTimingInfo, CMTime> = \CMSampleTimingInfo.presentationTimeStamp
        let _: WritableKeyPath<CMSampleTimingInfo, CMTime> = \CMSampleTimingInfo.decodeTimeStamp
        let _: CMSampleTimingInfo = .invalid
        let _: CMItemCount = Int(0)
        let _: CMItemIndex = Int(0)
        let _: CMPersistentTrackID = Int32(0)
        #expect(kCMPersistentTrackID_Invalid == 0)
    }

    // https://developer.apple.com/documentation/coremedia/cmsamplebuffer (the Swift members)
    @Test func sampleBuffer() throws {
        let _: KeyPath<CMSampleBuffer, CMTime> = \CMSampleBuffer.presentationTimeStamp
        let _: KeyPath<CMSampleBuffer, CMTime> = \CMSampleBuffer.decodeTimeStamp
        let _: KeyPath<CMSampleBuffer, CMTime> = \CMSampleBuffer.duration
        let _: KeyPath<CMSampleBuffer, CMTime> = \CMSampleBuffer.outputPresentationTimeStamp
        let _: KeyPath<CMSampleBuffer, CMTime> = \CMSampleBuffer.outputDuration
        let _: KeyPath<CMSampleBuffer, CMFormatDescription?> = \CMSampleBuffer.formatDescription
        let _: KeyPath<CMSampleBuffer, CVImageBuffer?> = \CMSampleBuffer.imageBuffer
        let _: KeyPath<CMSampleBuffer, CMBlockBuffer?> = \CMSampleBuffer.dataBuffer
        let _: KeyPath<CMSampleBuffer, CMItemCount> = \CMSampleBuffer.numSamples
        let _: KeyPath<CMSampleBuffer, Int> = \CMSampleBuffer.totalSampleSize
        let _: KeyPath<CMSampleBuffer, Bool> = \CMSampleBuffer.isValid
        let _: KeyPath<CMSampleBuffer, CMSampleBuffer.DataReadiness> = \CMSampleBuffer.dataReadiness
        let _: KeyPath<CMSampleBuffer, CMSampleBuffer.SampleAttachmentsArray> = \CMSampleBuffer.sampleAttachments
        let _: (CMSampleBuffer) -> () throws -> [CMSampleTimingInfo] = CMSampleBuffer.sampleTimingInfos
        let _: (CMSampleBuffer) -> (CMItemIndex) throws -> CMSampleTimingInfo = CMSampleBuffer.sampleTimingInfo(at:)
        let _: (CMSampleBuffer) -> () throws -> [Int] = CMSampleBuffer.sampleSizes
        let _: (CMSampleBuffer) -> (Int) -> Int = CMSampleBuffer.sampleSize(at:)
        let _: (CMSampleBuffer) -> (CMBlockBuffer) throws -> Void = CMSampleBuffer.setDataBuffer(_:)
        let _: (CMSampleBuffer) -> (CMTime) throws -> Void = CMSampleBuffer.setOutputPresentationTimeStamp(_:)
        let _: (CMSampleBuffer) -> (CMSampleBuffer.DataReadiness) throws -> Void = CMSampleBuffer.setDataReadiness(_:)
        let _: (CMSampleBuffer) -> () throws -> Void = CMSampleBuffer.makeDataReady
        let _: (CMSampleBuffer) -> () throws -> Void = CMSampleBuffer.invalidate
        let _: (CMSampleBuffer) -> (CFAllocator?, CMSampleBuffer.Flags, (UnsafeMutableAudioBufferListPointer, CMBlockBuffer) throws -> Int)
            throws -> Int = CMSampleBuffer.withAudioBufferList(blockBufferMemoryAllocator:flags:body:)
        // The defaults: `kCFAllocatorDefault` and no flags.
        let _: (CMSampleBuffer) throws -> Int = { try $0.withAudioBufferList { list, _ in list.count } }
        let _: [CMSampleBuffer.DataReadiness] = [.ready, .notReady, .failed(noErr)]
        let _: CMSampleBuffer.Flags = .audioBufferListAssure16ByteAlignment
        #expect(CMSampleBuffer.Flags.audioBufferListAssure16ByteAlignment.rawValue == kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment)
        let keys: [CMSampleBuffer.PerSampleAttachmentsDictionary.Key] = [
            .notSync, .partialSync, .hasRedundantCoding, .isDependedOnByOthers, .dependsOnOthers, .earlierDisplayTimesAllowed,
            .displayImmediately, .doNotDisplay,
        ]
        #expect(keys.map(\.rawValue) == [kCMSampleAttachmentKey_NotSync, kCMSampleAttachmentKey_PartialSync,
                                         kCMSampleAttachmentKey_HasRedundantCoding, kCMSampleAttachmentKey_IsDependedOnByOthers,
                                         kCMSampleAttachmentKey_DependsOnOthers, kCMSampleAttachmentKey_EarlierDisplayTimesAllowed,
                                         kCMSampleAttachmentKey_DisplayImmediately, kCMSampleAttachmentKey_DoNotDisplay])
        let _: (CMSampleBuffer.SampleAttachmentsArray) -> (Int) -> CMSampleBuffer.PerSampleAttachmentsDictionary = { array in { array[$0] } }

        // A marker buffer (no samples, no data) is the cheapest sample buffer there is.
        var marker: CMSampleBuffer?
        #expect(CMSampleBufferCreate(allocator: kCFAllocatorDefault, dataBuffer: nil, dataReady: true, makeDataReadyCallback: nil,
                                     refcon: nil, formatDescription: nil, sampleCount: 0, sampleTimingEntryCount: 0,
                                     sampleTimingArray: nil, sampleSizeEntryCount: 0, sampleSizeArray: nil,
                                     sampleBufferOut: &marker) == noErr)
        let buffer = try #require(marker)
        #expect(buffer.numSamples == 0 && buffer.dataReadiness == .ready)
        #expect(try buffer.sampleSizes().isEmpty)
        #expect(throws: (any Error).self) { try buffer.sampleTimingInfo(at: 0) }

        // Two frames of planar stereo float audio, read through `withAudioBufferList`.
        var asbd = AudioStreamBasicDescription(mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
                                               mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
                                               mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2,
                                               mBitsPerChannel: 32, mReserved: 0)
        var audioFormat: CMAudioFormatDescription?
        #expect(CMAudioFormatDescriptionCreate(allocator: nil, asbd: &asbd, layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil,
                                               extensions: nil, formatDescriptionOut: &audioFormat) == noErr)
        var block: CMBlockBuffer?
        #expect(CMBlockBufferCreateWithMemoryBlock(allocator: nil, memoryBlock: nil, blockLength: 16, blockAllocator: nil, customBlockSource: nil,
                                                   offsetToData: 0, dataLength: 16, flags: 0, blockBufferOut: &block) == noErr)
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 48_000), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
        var audio: CMSampleBuffer?
        #expect(CMSampleBufferCreateReady(allocator: nil, dataBuffer: block, formatDescription: audioFormat, sampleCount: 2,
                                          sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 0, sampleSizeArray: nil,
                                          sampleBufferOut: &audio) == noErr)
        let sizes = try #require(audio).withAudioBufferList { list, _ in list.map(\.mDataByteSize) }
        #expect(sizes == [8, 8])
        #expect(try #require(audio).sampleTimingInfo(at: 1).presentationTimeStamp == CMTime(value: 1, timescale: 48_000))
    }

    // https://developer.apple.com/documentation/coremedia/cmsamplebuffer-api
    @Test func sampleBufferFunctions() {
        let _: (CFAllocator?, CMBlockBuffer?, Bool, CMSampleBufferMakeDataReadyCallback?, UnsafeMutableRawPointer?, CMFormatDescription?,
                CMItemCount, CMItemCount, UnsafePointer<CMSampleTimingInfo>?, CMItemCount, UnsafePointer<Int>?,
                UnsafeMutablePointer<CMSampleBuffer?>) -> OSStatus =
            CMSampleBufferCreate(allocator:dataBuffer:dataReady:makeDataReadyCallback:refcon:formatDescription:sampleCount:sampleTimingEntryCount:sampleTimingArray:sampleSizeEntryCount:sampleSizeArray:sampleBufferOut:)
        let _: (CFAllocator?, CMBlockBuffer?, CMFormatDescription?, CMItemCount, CMItemCount, UnsafePointer<CMSampleTimingInfo>?,
                CMItemCount, UnsafePointer<Int>?, UnsafeMutablePointer<CMSampleBuffer?>) -> OSStatus =
            CMSampleBufferCreateReady(allocator:dataBuffer:formatDescription:sampleCount:sampleTimingEntryCount:sampleTimingArray:sampleSizeEntryCount:sampleSizeArray:sampleBufferOut:)
        let _: (CFAllocator?, CVImageBuffer, Bool, CMSampleBufferMakeDataReadyCallback?, UnsafeMutableRawPointer?, CMVideoFormatDescription,
                UnsafePointer<CMSampleTimingInfo>, UnsafeMutablePointer<CMSampleBuffer?>) -> OSStatus =
            CMSampleBufferCreateForImageBuffer(allocator:imageBuffer:dataReady:makeDataReadyCallback:refcon:formatDescription:sampleTiming:sampleBufferOut:)
        let _: (CFAllocator?, CVImageBuffer, CMVideoFormatDescription, UnsafePointer<CMSampleTimingInfo>,
                UnsafeMutablePointer<CMSampleBuffer?>) -> OSStatus =
            CMSampleBufferCreateReadyWithImageBuffer(allocator:imageBuffer:formatDescription:sampleTiming:sampleBufferOut:)
        let _: (CFAllocator?, CMSampleBuffer, UnsafeMutablePointer<CMSampleBuffer?>) -> OSStatus =
            CMSampleBufferCreateCopy(allocator:sampleBuffer:sampleBufferOut:)
        let _: (CFAllocator?, CMSampleBuffer, CMItemCount, UnsafePointer<CMSampleTimingInfo>?, UnsafeMutablePointer<CMSampleBuffer?>) -> OSStatus =
            CMSampleBufferCreateCopyWithNewTiming(allocator:sampleBuffer:sampleTimingEntryCount:sampleTimingArray:sampleBufferOut:)
        let _: (CMSampleBuffer, CMBlockBuffer) -> OSStatus = CMSampleBufferSetDataBuffer(_:newValue:)
        let _: (CMSampleBuffer) -> CMBlockBuffer? = CMSampleBufferGetDataBuffer
        let _: (CMSampleBuffer) -> CVImageBuffer? = CMSampleBufferGetImageBuffer
        let _: (CMSampleBuffer) -> CMFormatDescription? = CMSampleBufferGetFormatDescription
        let _: (CMSampleBuffer) -> CMItemCount = CMSampleBufferGetNumSamples
        let _: [(CMSampleBuffer) -> CMTime] = [CMSampleBufferGetPresentationTimeStamp, CMSampleBufferGetDecodeTimeStamp,
                                               CMSampleBufferGetDuration, CMSampleBufferGetOutputPresentationTimeStamp,
                                               CMSampleBufferGetOutputDuration]
        let _: (CMSampleBuffer, CMTime) -> OSStatus = CMSampleBufferSetOutputPresentationTimeStamp(_:newValue:)
        let _: (CMSampleBuffer, CMItemIndex, UnsafeMutablePointer<CMSampleTimingInfo>) -> OSStatus =
            CMSampleBufferGetSampleTimingInfo(_:at:timingInfoOut:)
        let _: (CMSampleBuffer, CMItemCount, UnsafeMutablePointer<CMSampleTimingInfo>?, UnsafeMutablePointer<CMItemCount>?) -> OSStatus =
            CMSampleBufferGetSampleTimingInfoArray(_:entryCount:arrayToFill:entriesNeededOut:)
        let _: (CMSampleBuffer, CMItemIndex) -> Int = CMSampleBufferGetSampleSize(_:at:)
        let _: (CMSampleBuffer, CMItemCount, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<CMItemCount>?) -> OSStatus =
            CMSampleBufferGetSampleSizeArray(_:entryCount:arrayToFill:entriesNeededOut:)
        let _: (CMSampleBuffer) -> Int = CMSampleBufferGetTotalSampleSize
        let _: (CMSampleBuffer, Bool) -> CFArray? = CMSampleBufferGetSampleAttachmentsArray(_:createIfNecessary:)
        let _: (CMSampleBuffer) -> Bool = CMSampleBufferIsValid
        let _: (CMSampleBuffer) -> OSStatus = CMSampleBufferInvalidate
        let _: (CMSampleBuffer) -> Bool = CMSampleBufferDataIsReady
        let _: (CMSampleBuffer) -> OSStatus = CMSampleBufferSetDataReady
        let _: (CMSampleBuffer, OSStatus) -> OSStatus = CMSampleBufferSetDataFailed(_:status:)
        let _: (CMSampleBuffer, UnsafeMutablePointer<OSStatus>?) -> Bool = CMSampleBufferHasDataFailed(_:statusOut:)
        let _: (CMSampleBuffer) -> OSStatus = CMSampleBufferMakeDataReady
        let _: (CMSampleBuffer, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<AudioBufferList>?, Int, CFAllocator?, CFAllocator?, UInt32,
                UnsafeMutablePointer<CMBlockBuffer?>?) -> OSStatus =
            CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(_:bufferListSizeNeededOut:bufferListOut:bufferListSize:blockBufferAllocator:blockBufferMemoryAllocator:flags:blockBufferOut:)
        #expect(kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment == 1)
    }

    // https://developer.apple.com/documentation/coremedia/sample-buffer-errors,
    // https://developer.apple.com/documentation/coremedia/sample-attachment-keys
    @Test func sampleBufferConstants() {
        #expect([kCMSampleBufferError_AllocationFailed, kCMSampleBufferError_RequiredParameterMissing,
                  kCMSampleBufferError_AlreadyHasDataBuffer, kCMSampleBufferError_BufferNotReady,
                  kCMSampleBufferError_SampleIndexOutOfRange, kCMSampleBufferError_BufferHasNoSampleSizes,
                  kCMSampleBufferError_BufferHasNoSampleTimingInfo, kCMSampleBufferError_ArrayTooSmall,
                  kCMSampleBufferError_InvalidEntryCount, kCMSampleBufferError_CannotSubdivide,
                  kCMSampleBufferError_SampleTimingInfoInvalid, kCMSampleBufferError_InvalidMediaTypeForOperation,
                  kCMSampleBufferError_InvalidSampleData, kCMSampleBufferError_InvalidMediaFormat,
                  kCMSampleBufferError_Invalidated] == Array((Int32(-12744) ... Int32(-12730)).reversed()))
        #expect(kCMSampleBufferError_DataFailed == -16750 && kCMSampleBufferError_DataCanceled == -16751)
        let _: [CFString] = [kCMSampleAttachmentKey_NotSync, kCMSampleAttachmentKey_PartialSync, kCMSampleAttachmentKey_HasRedundantCoding,
                             kCMSampleAttachmentKey_IsDependedOnByOthers, kCMSampleAttachmentKey_DependsOnOthers,
                             kCMSampleAttachmentKey_EarlierDisplayTimesAllowed, kCMSampleAttachmentKey_DisplayImmediately,
                             kCMSampleAttachmentKey_DoNotDisplay, kCMSampleBufferAttachmentKey_ResetDecoderBeforeDecoding,
                             kCMSampleBufferAttachmentKey_DroppedFrameReason, kCMSampleBufferAttachmentKey_DroppedFrameReasonInfo,
                             kCMSampleBufferAttachmentKey_TrimDurationAtStart, kCMSampleBufferAttachmentKey_TrimDurationAtEnd,
                             kCMSampleBufferDroppedFrameReason_FrameWasLate, kCMSampleBufferDroppedFrameReason_OutOfBuffers,
                             kCMSampleBufferDroppedFrameReason_Discontinuity]
    }

    // https://developer.apple.com/documentation/coremedia/cmattachmentbearer-api
    @Test func attachments() {
        let _: (CMAttachmentBearer, CFString, CFTypeRef?, CMAttachmentMode) -> Void = CMSetAttachment(_:key:value:attachmentMode:)
        let _: (CMAttachmentBearer, CFString, UnsafeMutablePointer<CMAttachmentMode>?) -> CFTypeRef? = CMGetAttachment(_:key:attachmentModeOut:)
        let _: (CMAttachmentBearer, CFString) -> Void = CMRemoveAttachment(_:key:)
        let _: (CMAttachmentBearer) -> Void = CMRemoveAllAttachments
        let _: (CFAllocator?, CMAttachmentBearer, CMAttachmentMode) -> CFDictionary? = CMCopyDictionaryOfAttachments(allocator:target:attachmentMode:)
        let _: (CMAttachmentBearer, CFDictionary, CMAttachmentMode) -> Void = CMSetAttachments(_:attachments:attachmentMode:)
        let _: (CMAttachmentBearer, CMAttachmentBearer) -> Void = CMPropagateAttachments(_:destination:)
        let _: CMAttachmentMode = UInt32(0)
        #expect(kCMAttachmentMode_ShouldNotPropagate == 0 && kCMAttachmentMode_ShouldPropagate == 1)
    }

    // https://developer.apple.com/documentation/coremedia/cmblockbuffer
    @Test func blockBuffer() throws {
        let _: KeyPath<CMBlockBuffer, Int> = \CMBlockBuffer.dataLength
        let _: KeyPath<CMBlockBuffer, Bool> = \CMBlockBuffer.isEmpty
        let _: (CMBlockBuffer) -> (Int, (UnsafeMutableRawBufferPointer) throws -> Int) throws -> Int =
            CMBlockBuffer.withUnsafeMutableBytes(atOffset:_:)
        let _: (CMBlockBuffer) -> () throws -> Data = CMBlockBuffer.dataBytes
        let _: KeyPath<CMBlockBuffer, Bool> = \CMBlockBuffer.isContiguous
        let _: (CMBlockBuffer) -> ((UnsafeRawBufferPointer) throws -> Int) throws -> Int = CMBlockBuffer.withContiguousStorage
        let _: (CMBlockBuffer) -> (UnsafeMutableRawBufferPointer) throws -> Void = CMBlockBuffer.copyDataBytes(to:)
        let _: (CMBlockBuffer) -> (UnsafeRawBufferPointer) throws -> Void = CMBlockBuffer.replaceDataBytes(with:)
        let _: (CMBlockBuffer) -> (UInt8) throws -> Void = CMBlockBuffer.fillDataBytes(with:)
        var made: CMBlockBuffer?
        #expect(CMBlockBufferCreateWithMemoryBlock(allocator: kCFAllocatorDefault, memoryBlock: nil, blockLength: 4, blockAllocator: nil,
                                                   customBlockSource: nil, offsetToData: 0, dataLength: 4, flags: 0,
                                                   blockBufferOut: &made) == kCMBlockBufferNoErr)
        let block = try #require(made)
        // The default offset.
        #expect(try block.withUnsafeMutableBytes { $0.count } == 4)
        #expect(try block.dataBytes() == Data([0, 0, 0, 0]))
    }

    // https://developer.apple.com/documentation/coremedia/cmblockbuffer-api
    @Test func blockBufferFunctions() {
        let _: (CFAllocator?, UInt32, CMBlockBufferFlags, UnsafeMutablePointer<CMBlockBuffer?>) -> OSStatus =
            CMBlockBufferCreateEmpty(allocator:capacity:flags:blockBufferOut:)
        let _: (CFAllocator?, UnsafeMutableRawPointer?, Int, CFAllocator?, UnsafePointer<CMBlockBufferCustomBlockSource>?, Int, Int,
                CMBlockBufferFlags, UnsafeMutablePointer<CMBlockBuffer?>) -> OSStatus =
            CMBlockBufferCreateWithMemoryBlock(allocator:memoryBlock:blockLength:blockAllocator:customBlockSource:offsetToData:dataLength:flags:blockBufferOut:)
        let _: (CFAllocator?, CMBlockBuffer, Int, Int, CMBlockBufferFlags, UnsafeMutablePointer<CMBlockBuffer?>) -> OSStatus =
            CMBlockBufferCreateWithBufferReference(allocator:referenceBuffer:offsetToData:dataLength:flags:blockBufferOut:)
        let _: (CFAllocator?, CMBlockBuffer, CFAllocator?, UnsafePointer<CMBlockBufferCustomBlockSource>?, Int, Int, CMBlockBufferFlags,
                UnsafeMutablePointer<CMBlockBuffer?>) -> OSStatus =
            CMBlockBufferCreateContiguous(allocator:sourceBuffer:blockAllocator:customBlockSource:offsetToData:dataLength:flags:blockBufferOut:)
        let _: (CMBlockBuffer, UnsafeMutableRawPointer?, Int, CFAllocator?, UnsafePointer<CMBlockBufferCustomBlockSource>?, Int, Int,
                CMBlockBufferFlags) -> OSStatus =
            CMBlockBufferAppendMemoryBlock(_:memoryBlock:length:blockAllocator:customBlockSource:offsetToData:dataLength:flags:)
        let _: (CMBlockBuffer, CMBlockBuffer, Int, Int, CMBlockBufferFlags) -> OSStatus =
            CMBlockBufferAppendBufferReference(_:targetBBuf:offsetToData:dataLength:flags:)
        let _: (CMBlockBuffer) -> OSStatus = CMBlockBufferAssureBlockMemory
        let _: (CMBlockBuffer) -> Int = CMBlockBufferGetDataLength
        let _: (CMBlockBuffer) -> Bool = CMBlockBufferIsEmpty
        let _: (CMBlockBuffer, Int, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int>?,
                UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> OSStatus =
            CMBlockBufferGetDataPointer(_:atOffset:lengthAtOffsetOut:totalLengthOut:dataPointerOut:)
        let _: (CMBlockBuffer, Int, Int, UnsafeMutableRawPointer, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> OSStatus =
            CMBlockBufferAccessDataBytes(_:atOffset:length:temporaryBlock:returnedPointerOut:)
        let _: (CMBlockBuffer, Int, Int, UnsafeMutableRawPointer) -> OSStatus = CMBlockBufferCopyDataBytes(_:atOffset:dataLength:destination:)
        let _: (UnsafeRawPointer, CMBlockBuffer, Int, Int) -> OSStatus =
            CMBlockBufferReplaceDataBytes(with:blockBuffer:offsetIntoDestination:dataLength:)
        let _: (CChar, CMBlockBuffer, Int, Int) -> OSStatus = CMBlockBufferFillDataBytes(with:blockBuffer:offsetIntoDestination:dataLength:)
        let _: (CMBlockBuffer, Int, Int) -> Bool = CMBlockBufferIsRangeContiguous(_:atOffset:length:)
        #expect([kCMBlockBufferStructureAllocationFailedErr, kCMBlockBufferBlockAllocationFailedErr, kCMBlockBufferBadCustomBlockSourceErr,
                  kCMBlockBufferBadOffsetParameterErr, kCMBlockBufferBadLengthParameterErr, kCMBlockBufferBadPointerParameterErr,
                  kCMBlockBufferEmptyBBufErr, kCMBlockBufferUnallocatedBlockErr, kCMBlockBufferInsufficientSpaceErr]
                 == Array((Int32(-12708) ... Int32(-12700)).reversed()))
        #expect(kCMBlockBufferNoErr == 0)
        #expect([kCMBlockBufferAssureMemoryNowFlag, kCMBlockBufferAlwaysCopyDataFlag, kCMBlockBufferDontOptimizeDepthFlag,
                  kCMBlockBufferPermitEmptyReferenceFlag] == [1, 2, 4, 8])
        let _: CMBlockBufferFlags = UInt32(0)
        let _: UInt32 = kCMBlockBufferCustomBlockSourceVersion
        // https://developer.apple.com/documentation/coremedia/cmblockbuffercustomblocksource
        let _: () -> CMBlockBufferCustomBlockSource = CMBlockBufferCustomBlockSource.init
        let _: (UInt32, (@convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?)?,
                (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer, Int) -> Void)?, UnsafeMutableRawPointer?)
            -> CMBlockBufferCustomBlockSource = CMBlockBufferCustomBlockSource.init(version:AllocateBlock:FreeBlock:refCon:)
        let _: WritableKeyPath<CMBlockBufferCustomBlockSource, UInt32> = \CMBlockBufferCustomBlockSource.version
        let _: WritableKeyPath<CMBlockBufferCustomBlockSource, UnsafeMutableRawPointer?> = \CMBlockBufferCustomBlockSource.refCon
        let _: WritableKeyPath<CMBlockBufferCustomBlockSource, (@convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?)?> =
            \CMBlockBufferCustomBlockSource.AllocateBlock
        let _: WritableKeyPath<CMBlockBufferCustomBlockSource,
                               (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer, Int) -> Void)?> =
            \CMBlockBufferCustomBlockSource.FreeBlock
    }

    // https://developer.apple.com/documentation/coremedia/cmformatdescription (the Swift members)
    @Test func formatDescription() throws {
        let _: KeyPath<CMFormatDescription, CMFormatDescription.MediaType> = \CMFormatDescription.mediaType
        let _: KeyPath<CMFormatDescription, CMFormatDescription.MediaSubType> = \CMFormatDescription.mediaSubType
        let _: KeyPath<CMFormatDescription, CMFormatDescription.Extensions> = \CMFormatDescription.extensions
        let _: KeyPath<CMFormatDescription, CMVideoDimensions> = \CMFormatDescription.dimensions
        let _: KeyPath<CMFormatDescription, AudioStreamBasicDescription?> = \CMFormatDescription.audioStreamBasicDescription
        let _: (CMFormatDescription) -> (Bool, Bool) -> CGSize = CMFormatDescription.presentationDimensions(usePixelAspectRatio:useCleanAperture:)
        let _: (CMFormatDescription) -> (Bool) -> CGRect = CMFormatDescription.cleanAperture(originIsAtTopLeft:)
        let _: (CMFormatDescription) -> (CVImageBuffer) -> Bool = CMFormatDescription.matchesImageBuffer(_:)
        let _: (CMFormatDescription) -> (CMFormatDescription.Extensions.Key) -> CMFormatDescription.Extensions.Value? =
            CMFormatDescription.extension(by:)
        let _: (FourCharCode) -> CMFormatDescription.MediaType = CMFormatDescription.MediaType.init(rawValue:)
        let _: (FourCharCode) -> CMFormatDescription.MediaSubType = CMFormatDescription.MediaSubType.init(rawValue:)
        let types: [CMFormatDescription.MediaType] = [.video, .audio, .muxed, .text, .closedCaption, .subtitle, .timeCode, .metadata]
        #expect(types.map(\.rawValue) == [kCMMediaType_Video, kCMMediaType_Audio, kCMMediaType_Muxed, kCMMediaType_Text,
                                          kCMMediaType_ClosedCaption, kCMMediaType_Subtitle, kCMMediaType_TimeCode, kCMMediaType_Metadata])
        let subTypes: [CMFormatDescription.MediaSubType] = [
            .h264, .hevc, .hevcWithAlpha, .jpeg, .jpeg_OpenDML, .h263, .mpeg4Video, .mpeg2Video, .mpeg1Video, .vp9, .proRes4444XQ,
            .proRes4444, .proRes422HQ, .proRes422, .proRes422LT, .proRes422Proxy, .animation, .linearPCM, .ac3, .enhancedAC3, .mpeg4AAC,
            .mpeg4AAC_HE, .mpeg4AAC_HE_V2, .mpeg4AAC_LD, .mpeg4AAC_ELD, .appleLossless, .mpegLayer1, .mpegLayer2, .mpegLayer3, .uLaw,
            .aLaw, .opus, .flac, .amr,
        ]
        #expect(Set(subTypes).count == subTypes.count)
        #expect(CMFormatDescription.MediaSubType.h264.rawValue == kCMVideoCodecType_H264)
        // https://developer.apple.com/documentation/coremedia/cmformatdescription/extensions-swift.struct
        let _: () -> CMFormatDescription.Extensions = CMFormatDescription.Extensions.init
        let _: ([CFString: CFTypeRef]?) -> CMFormatDescription.Extensions = CMFormatDescription.Extensions.init(base:)
        let _: WritableKeyPath<CMFormatDescription.Extensions, CFTypeRef?> = \CMFormatDescription.Extensions.[kCMFormatDescriptionExtension_Depth]
        let _: WritableKeyPath<CMFormatDescription.Extensions, CMFormatDescription.Extensions.Value?> =
            \CMFormatDescription.Extensions.[CMFormatDescription.Extensions.Key.depth]
        let _: (CFString) -> CMFormatDescription.Extensions.Key = CMFormatDescription.Extensions.Key.init(rawValue:)
        let _: [CMFormatDescription.Extensions.Key] = [.formatName, .depth, .cleanAperture, .pixelAspectRatio, .colorPrimaries,
                                                       .transferFunction, .yCbCrMatrix, .fullRangeVideo, .sampleDescriptionExtensionAtoms,
                                                       .fieldCount, .verbatimSampleDescription]

        var video: CMVideoFormatDescription?
        #expect(CMVideoFormatDescriptionCreate(allocator: kCFAllocatorDefault, codecType: kCMVideoCodecType_H264, width: 64, height: 48,
                                               extensions: nil, formatDescriptionOut: &video) == noErr)
        let format = try #require(video)
        #expect(format.mediaType == .video && format.mediaSubType == .h264 && format.dimensions.width == 64)
        #expect(format.presentationDimensions() == CGSize(width: 64, height: 48))
    }

    // https://developer.apple.com/documentation/coremedia/cmformatdescription-api
    @Test func formatDescriptionFunctions() {
        let _: (CFAllocator?, CMMediaType, FourCharCode, CFDictionary?, UnsafeMutablePointer<CMFormatDescription?>) -> OSStatus =
            CMFormatDescriptionCreate(allocator:mediaType:mediaSubType:extensions:formatDescriptionOut:)
        let _: (CMFormatDescription) -> CMMediaType = CMFormatDescriptionGetMediaType
        let _: (CMFormatDescription) -> FourCharCode = CMFormatDescriptionGetMediaSubType
        let _: (CMFormatDescription) -> CFDictionary? = CMFormatDescriptionGetExtensions
        let _: (CMFormatDescription, CFString) -> CFTypeRef? = CMFormatDescriptionGetExtension(_:extensionKey:)
        let _: (CMFormatDescription?, CMFormatDescription?) -> Bool = CMFormatDescriptionEqual(_:otherFormatDescription:)
        let _: (CFAllocator?, CMVideoCodecType, Int32, Int32, CFDictionary?, UnsafeMutablePointer<CMVideoFormatDescription?>) -> OSStatus =
            CMVideoFormatDescriptionCreate(allocator:codecType:width:height:extensions:formatDescriptionOut:)
        let _: (CMVideoFormatDescription) -> CMVideoDimensions = CMVideoFormatDescriptionGetDimensions
        let _: (CMVideoFormatDescription, Bool) -> CGRect = CMVideoFormatDescriptionGetCleanAperture(_:originIsAtTopLeft:)
        let _: (CMVideoFormatDescription, Bool, Bool) -> CGSize =
            CMVideoFormatDescriptionGetPresentationDimensions(_:usePixelAspectRatio:useCleanAperture:)
        let _: (CFAllocator?, CVImageBuffer, UnsafeMutablePointer<CMVideoFormatDescription?>) -> OSStatus =
            CMVideoFormatDescriptionCreateForImageBuffer(allocator:imageBuffer:formatDescriptionOut:)
        let _: (CMVideoFormatDescription, CVImageBuffer) -> Bool = CMVideoFormatDescriptionMatchesImageBuffer(_:imageBuffer:)
        let _: () -> CFArray = CMVideoFormatDescriptionGetExtensionKeysCommonWithImageBuffers
        let _: (CFAllocator?, UnsafePointer<AudioStreamBasicDescription>, Int, UnsafePointer<AudioChannelLayout>?, Int, UnsafeRawPointer?,
                CFDictionary?, UnsafeMutablePointer<CMAudioFormatDescription?>) -> OSStatus =
            CMAudioFormatDescriptionCreate(allocator:asbd:layoutSize:layout:magicCookieSize:magicCookie:extensions:formatDescriptionOut:)
        let _: (CMAudioFormatDescription) -> UnsafePointer<AudioStreamBasicDescription>? = CMAudioFormatDescriptionGetStreamBasicDescription
        let _: (CMAudioFormatDescription, UnsafeMutablePointer<Int>?) -> UnsafePointer<AudioChannelLayout>? =
            CMAudioFormatDescriptionGetChannelLayout(_:sizeOut:)
        let _: (CMAudioFormatDescription, UnsafeMutablePointer<Int>?) -> UnsafeRawPointer? = CMAudioFormatDescriptionGetMagicCookie(_:sizeOut:)
        #expect(kCMFormatDescriptionError_InvalidParameter == -12710 && kCMFormatDescriptionError_AllocationFailed == -12711)
        #expect(kCMFormatDescriptionError_ValueNotAvailable == -12718)
        // https://developer.apple.com/documentation/coremedia/cmvideodimensions
        let _: () -> CMVideoDimensions = CMVideoDimensions.init
        let _: (Int32, Int32) -> CMVideoDimensions = CMVideoDimensions.init(width:height:)
        let _: WritableKeyPath<CMVideoDimensions, Int32> = \CMVideoDimensions.width
        let _: WritableKeyPath<CMVideoDimensions, Int32> = \CMVideoDimensions.height
    }

    // https://developer.apple.com/documentation/coremedia/video-codec-constants, media types, pixel formats
    @Test func fourCharacterCodes() {
        #expect([kCMMediaType_Video, kCMMediaType_Audio, kCMMediaType_Muxed, kCMMediaType_Text, kCMMediaType_ClosedCaption,
                  kCMMediaType_Subtitle, kCMMediaType_TimeCode, kCMMediaType_Metadata]
                 == ["vide", "soun", "muxx", "text", "clcp", "sbtl", "tmcd", "meta"].map(fourCharacterCode))
        let codecs: [CMVideoCodecType] = [
            kCMVideoCodecType_422YpCbCr8, kCMVideoCodecType_Animation, kCMVideoCodecType_Cinepak, kCMVideoCodecType_JPEG,
            kCMVideoCodecType_JPEG_OpenDML, kCMVideoCodecType_SorensonVideo, kCMVideoCodecType_SorensonVideo3, kCMVideoCodecType_H263,
            kCMVideoCodecType_H264, kCMVideoCodecType_HEVC, kCMVideoCodecType_HEVCWithAlpha, kCMVideoCodecType_MPEG4Video,
            kCMVideoCodecType_MPEG2Video, kCMVideoCodecType_MPEG1Video, kCMVideoCodecType_VP9, kCMVideoCodecType_AV1,
            kCMVideoCodecType_DVCNTSC, kCMVideoCodecType_DVCPAL, kCMVideoCodecType_AppleProRes4444XQ, kCMVideoCodecType_AppleProRes4444,
            kCMVideoCodecType_AppleProRes422HQ, kCMVideoCodecType_AppleProRes422, kCMVideoCodecType_AppleProRes422LT,
            kCMVideoCodecType_AppleProRes422Proxy, kCMVideoCodecType_AppleProResRAW, kCMVideoCodecType_AppleProResRAWHQ,
        ]
        #expect(codecs == ["2vuy", "rle ", "cvid", "jpeg", "dmb1", "SVQ1", "SVQ3", "h263", "avc1", "hvc1", "muxa",
                                               "mp4v", "mp2v", "mp1v", "vp09", "av01", "dvc ", "dvcp", "ap4x", "ap4h", "apch", "apcn",
                                               "apcs", "apco", "aprn", "aprh"].map(fourCharacterCode))
        let pixelFormats: [CMPixelFormatType] = [
            kCMPixelFormat_32ARGB, kCMPixelFormat_32BGRA, kCMPixelFormat_24RGB, kCMPixelFormat_16BE555, kCMPixelFormat_16BE565,
            kCMPixelFormat_16LE555, kCMPixelFormat_16LE565, kCMPixelFormat_16LE5551, kCMPixelFormat_422YpCbCr8,
            kCMPixelFormat_422YpCbCr8_yuvs, kCMPixelFormat_444YpCbCr8, kCMPixelFormat_4444YpCbCrA8, kCMPixelFormat_422YpCbCr16,
            kCMPixelFormat_422YpCbCr10, kCMPixelFormat_444YpCbCr10, kCMPixelFormat_8IndexedGray_WhiteIsZero,
        ]
        #expect(pixelFormats.count == 16 && kCMPixelFormat_32ARGB == 32 && kCMPixelFormat_8IndexedGray_WhiteIsZero == 40)
        let metadataFormats: [CMMetadataFormatType] = [kCMMetadataFormatType_ICY, kCMMetadataFormatType_ID3, kCMMetadataFormatType_Boxed,
                                                       kCMMetadataFormatType_EMSG]
        #expect(metadataFormats == ["icy ", "id3 ", "mebx", "emsg"].map(fourCharacterCode))
    }

    // https://developer.apple.com/documentation/coremedia/format-description-extensions
    @Test func formatDescriptionExtensionKeys() {
        #expect(kCMFormatDescriptionExtension_CleanAperture == "CVCleanAperture")
        #expect(kCMFormatDescriptionExtension_PixelAspectRatio == "CVPixelAspectRatio")
        #expect(kCMFormatDescriptionExtension_FieldCount == "CVFieldCount")
        #expect(kCMFormatDescriptionExtension_ColorPrimaries == "CVImageBufferColorPrimaries")
        let _: [CFString] = [
            kCMFormatDescriptionExtension_FormatName, kCMFormatDescriptionExtension_Depth, kCMFormatDescriptionKey_CleanApertureWidth,
            kCMFormatDescriptionKey_CleanApertureHeight, kCMFormatDescriptionKey_CleanApertureHorizontalOffset,
            kCMFormatDescriptionKey_CleanApertureVerticalOffset, kCMFormatDescriptionKey_CleanApertureWidthRational,
            kCMFormatDescriptionKey_CleanApertureHeightRational, kCMFormatDescriptionKey_CleanApertureHorizontalOffsetRational,
            kCMFormatDescriptionKey_CleanApertureVerticalOffsetRational, kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing,
            kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing, kCMFormatDescriptionExtension_TransferFunction,
            kCMFormatDescriptionExtension_YCbCrMatrix, kCMFormatDescriptionExtension_GammaLevel, kCMFormatDescriptionExtension_FullRangeVideo,
            kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms, kCMFormatDescriptionExtension_FieldDetail,
            kCMFormatDescriptionExtension_VerbatimSampleDescription, kCMFormatDescriptionExtension_VerbatimISOSampleEntry,
            kCMFormatDescriptionExtension_BytesPerRow, kCMFormatDescriptionExtension_Version, kCMFormatDescriptionExtension_RevisionLevel,
            kCMFormatDescriptionExtension_Vendor,
        ]
    }

    // https://developer.apple.com/documentation/coremedia/text-format-description-constants,
    // coremedia/cmtextdisplayflags, coremedia/cmtextjustificationvalue, coremedia/cmformatdescription/defaultstyle()
    @Test func textFormatDescriptions() {
        let _: FourCharCode = kCMTextFormatType_QTText
        let _: FourCharCode = kCMTextFormatType_3GText
        let _: [CFString] = [
            kCMTextFormatDescriptionExtension_DisplayFlags, kCMTextFormatDescriptionExtension_BackgroundColor,
            kCMTextFormatDescriptionExtension_DefaultTextBox, kCMTextFormatDescriptionExtension_DefaultStyle,
            kCMTextFormatDescriptionExtension_HorizontalJustification, kCMTextFormatDescriptionExtension_VerticalJustification,
            kCMTextFormatDescriptionExtension_FontTable, kCMTextFormatDescriptionExtension_TextJustification,
            kCMTextFormatDescriptionExtension_DefaultFontName, kCMTextFormatDescriptionColor_Red, kCMTextFormatDescriptionColor_Green,
            kCMTextFormatDescriptionColor_Blue, kCMTextFormatDescriptionColor_Alpha, kCMTextFormatDescriptionRect_Top,
            kCMTextFormatDescriptionRect_Left, kCMTextFormatDescriptionRect_Bottom, kCMTextFormatDescriptionRect_Right,
            kCMTextFormatDescriptionStyle_StartChar, kCMTextFormatDescriptionStyle_Font, kCMTextFormatDescriptionStyle_FontFace,
            kCMTextFormatDescriptionStyle_ForegroundColor, kCMTextFormatDescriptionStyle_FontSize, kCMTextFormatDescriptionStyle_EndChar,
            kCMTextFormatDescriptionStyle_Height, kCMTextFormatDescriptionStyle_Ascent,
        ]
        let flags: [CMTextDisplayFlags] = [
            kCMTextDisplayFlag_scrollIn, kCMTextDisplayFlag_scrollOut, kCMTextDisplayFlag_scrollDirectionMask,
            kCMTextDisplayFlag_scrollDirection_bottomToTop, kCMTextDisplayFlag_scrollDirection_rightToLeft,
            kCMTextDisplayFlag_scrollDirection_topToBottom, kCMTextDisplayFlag_scrollDirection_leftToRight,
            kCMTextDisplayFlag_continuousKaraoke, kCMTextDisplayFlag_writeTextVertically, kCMTextDisplayFlag_fillTextRegion,
            kCMTextDisplayFlag_obeySubtitleFormatting, kCMTextDisplayFlag_forcedSubtitlesPresent, kCMTextDisplayFlag_allSubtitlesForced,
        ]
        #expect(flags[0] == 0x20 && flags[2] == 0x180 && flags[12] == 0x8000_0000)
        let justifications: [CMTextJustificationValue] = [kCMTextJustification_left_top, kCMTextJustification_centered, kCMTextJustification_bottom_right]
        #expect(justifications == [0, 1, -1])
        let _: (CMFormatDescription, UnsafeMutablePointer<CMTextDisplayFlags>) -> OSStatus = CMTextFormatDescriptionGetDisplayFlags
        let _: (CMFormatDescription, UnsafeMutablePointer<CMTextJustificationValue>?, UnsafeMutablePointer<CMTextJustificationValue>?) -> OSStatus
            = CMTextFormatDescriptionGetJustification(_:horizontaJustificationOut:verticalJustificationOut:)
        let _: (CMFormatDescription, Bool, CGFloat, UnsafeMutablePointer<CGRect>) -> OSStatus = CMTextFormatDescriptionGetDefaultTextBox
        let _: (CMFormatDescription, UnsafeMutablePointer<UInt16>?, UnsafeMutablePointer<DarwinBoolean>?, UnsafeMutablePointer<DarwinBoolean>?,
                UnsafeMutablePointer<DarwinBoolean>?, UnsafeMutablePointer<CGFloat>?, UnsafeMutablePointer<CGFloat>?) -> OSStatus
            = CMTextFormatDescriptionGetDefaultStyle
        let _: (CMTextFormatDescription) -> () throws -> CMFormatDescription.Extensions.Value.TextDisplayFlags = CMFormatDescription.displayFlags
        let _: (CMTextFormatDescription) -> (Bool, CGFloat) throws -> CGRect = CMFormatDescription.defaultTextBox(originIsAtTopLeft:heightOfTextTrack:)
        let _: (CMTextFormatDescription) -> (Int) throws -> String = CMFormatDescription.fontName(localFontID:)
        let _: [CMFormatDescription.Extensions.Key] = [.displayFlags, .backgroundColor, .defaultTextBox, .defaultStyle, .horizontalJustification,
                                                       .verticalJustification, .fontTable, .textJustification, .defaultFontName]
        let _: (CMFormatDescription.MediaType, CMFormatDescription.MediaSubType, CMFormatDescription.Extensions?) throws -> CMFormatDescription
            = CMFormatDescription.init(mediaType:mediaSubType:extensions:)
        let _: (CMFormatDescription.MediaSubType, Int, Int, CMFormatDescription.Extensions?) throws -> CMFormatDescription
            = CMFormatDescription.init(videoCodecType:width:height:extensions:)
        let _: (CVImageBuffer) throws -> CMFormatDescription = CMFormatDescription.init(imageBuffer:)
    }

    // https://developer.apple.com/documentation/coremedia/transfer-function-extension-constants and the
    // colour primaries and Y'CbCr matrix constants beside it: the same strings as CoreVideo's, so
    // a format description's value compares equal with either.
    @Test func formatDescriptionColorValues() {
        #expect(kCMFormatDescriptionColorPrimaries_ITU_R_709_2 == kCVImageBufferColorPrimaries_ITU_R_709_2)
        #expect(kCMFormatDescriptionTransferFunction_ITU_R_2100_HLG == kCVImageBufferTransferFunction_ITU_R_2100_HLG)
        #expect(kCMFormatDescriptionYCbCrMatrix_ITU_R_601_4 == kCVImageBufferYCbCrMatrix_ITU_R_601_4)
        let primaries: [CFString] = [
            kCMFormatDescriptionColorPrimaries_ITU_R_709_2, kCMFormatDescriptionColorPrimaries_EBU_3213, kCMFormatDescriptionColorPrimaries_SMPTE_C,
            kCMFormatDescriptionColorPrimaries_DCI_P3, kCMFormatDescriptionColorPrimaries_P3_D65, kCMFormatDescriptionColorPrimaries_ITU_R_2020,
            kCMFormatDescriptionColorPrimaries_P22,
        ]
        let transfers: [CFString] = [
            kCMFormatDescriptionTransferFunction_ITU_R_709_2, kCMFormatDescriptionTransferFunction_SMPTE_240M_1995,
            kCMFormatDescriptionTransferFunction_UseGamma, kCMFormatDescriptionTransferFunction_ITU_R_2020,
            kCMFormatDescriptionTransferFunction_SMPTE_ST_428_1, kCMFormatDescriptionTransferFunction_SMPTE_ST_2084_PQ,
            kCMFormatDescriptionTransferFunction_ITU_R_2100_HLG, kCMFormatDescriptionTransferFunction_Linear,
            kCMFormatDescriptionTransferFunction_sRGB,
        ]
        let matrices: [CFString] = [
            kCMFormatDescriptionYCbCrMatrix_ITU_R_709_2, kCMFormatDescriptionYCbCrMatrix_ITU_R_601_4,
            kCMFormatDescriptionYCbCrMatrix_SMPTE_240M_1995, kCMFormatDescriptionYCbCrMatrix_ITU_R_2020,
        ]
        #expect(Set(primaries).count == 7 && Set(transfers).count == 9 && Set(matrices).count == 4)
    }

    // https://developer.apple.com/documentation/coremedia/metadata-base-data-types,
    // https://developer.apple.com/documentation/coremedia/kcmmetadatadatatype_quicktimemetadatalocation_iso6709
    @Test func metadataDataTypes() {
        #expect(kCMMetadataBaseDataType_UTF8 == "com.apple.metadata.datatype.UTF-8")
        #expect(kCMMetadataBaseDataType_UTF16 == "com.apple.metadata.datatype.UTF-16")
        #expect(kCMMetadataBaseDataType_RawData == "com.apple.metadata.datatype.raw-data")
        // Apple publishes no string value for these two: code compares with the constants.
        let dataTypes: [CFString] = [kCMMetadataDataType_QuickTimeMetadataLocation_ISO6709, kCMMetadataDataType_QuickTimeMetadataDirection]
        #expect(Set(dataTypes).count == 2 && !dataTypes.contains(kCMMetadataBaseDataType_UTF8))
    }

    // https://developer.apple.com/documentation/coreaudiotypes/audiostreambasicdescription
    @Test func audioStreamBasicDescription() {
        let _: () -> AudioStreamBasicDescription = AudioStreamBasicDescription.init
        let _: (Float64, AudioFormatID, AudioFormatFlags, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) -> AudioStreamBasicDescription =
            AudioStreamBasicDescription.init(mSampleRate:mFormatID:mFormatFlags:mBytesPerPacket:mFramesPerPacket:mBytesPerFrame:mChannelsPerFrame:mBitsPerChannel:mReserved:)
        let _: WritableKeyPath<AudioStreamBasicDescription, Float64> = \AudioStreamBasicDescription.mSampleRate
        let _: WritableKeyPath<AudioStreamBasicDescription, AudioFormatID> = \AudioStreamBasicDescription.mFormatID
        let _: WritableKeyPath<AudioStreamBasicDescription, AudioFormatFlags> = \AudioStreamBasicDescription.mFormatFlags
        let _: [WritableKeyPath<AudioStreamBasicDescription, UInt32>] = [
            \.mBytesPerPacket, \.mFramesPerPacket, \.mBytesPerFrame, \.mChannelsPerFrame, \.mBitsPerChannel, \.mReserved,
        ]
        let formats: [AudioFormatID] = [
            kAudioFormatLinearPCM, kAudioFormatAC3, kAudioFormat60958AC3, kAudioFormatAppleIMA4, kAudioFormatMPEG4AAC, kAudioFormatULaw,
            kAudioFormatALaw, kAudioFormatMPEGLayer1, kAudioFormatMPEGLayer2, kAudioFormatMPEGLayer3, kAudioFormatAppleLossless,
            kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_LD, kAudioFormatMPEG4AAC_ELD, kAudioFormatMPEG4AAC_HE_V2, kAudioFormatAMR,
            kAudioFormatAMR_WB, kAudioFormatAES3, kAudioFormatEnhancedAC3, kAudioFormatFLAC, kAudioFormatOpus,
        ]
        #expect(formats == ["lpcm", "ac-3", "cac3", "ima4", "aac ", "ulaw", "alaw", ".mp1", ".mp2", ".mp3", "alac",
                                                "aach", "aacl", "aace", "aacp", "samr", "sawb", "aes3", "ec-3", "flac", "opus"].map(fourCharacterCode))
        #expect([kAudioFormatFlagIsFloat, kAudioFormatFlagIsBigEndian, kAudioFormatFlagIsSignedInteger, kAudioFormatFlagIsPacked,
                  kAudioFormatFlagIsAlignedHigh, kAudioFormatFlagIsNonInterleaved, kAudioFormatFlagIsNonMixable] == [1, 2, 4, 8, 16, 32, 64])
        #expect(kAudioFormatFlagsAreAllClear == 0x8000_0000 && kLinearPCMFormatFlagsAreAllClear == kAudioFormatFlagsAreAllClear)
        #expect([kLinearPCMFormatFlagIsFloat, kLinearPCMFormatFlagIsBigEndian, kLinearPCMFormatFlagIsSignedInteger,
                  kLinearPCMFormatFlagIsPacked, kLinearPCMFormatFlagIsAlignedHigh, kLinearPCMFormatFlagIsNonInterleaved,
                  kLinearPCMFormatFlagIsNonMixable] == [1, 2, 4, 8, 16, 32, 64])
        #expect(kLinearPCMFormatFlagsSampleFractionShift == 7 && kLinearPCMFormatFlagsSampleFractionMask == 0x1F80)
        #expect(kAudioFormatFlagsNativeFloatPacked == kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked)
    }

    // https://developer.apple.com/documentation/coreaudiotypes/audiobufferlist,
    // https://developer.apple.com/documentation/coreaudiotypes/audiobuffer,
    // https://developer.apple.com/documentation/coreaudio/unsafemutableaudiobufferlistpointer
    @Test func audioBuffers() {
        let _: () -> AudioBuffer = AudioBuffer.init
        let _: (UInt32, UInt32, UnsafeMutableRawPointer?) -> AudioBuffer = AudioBuffer.init(mNumberChannels:mDataByteSize:mData:)
        let _: (UnsafeMutableBufferPointer<Float>, Int) -> AudioBuffer = AudioBuffer.init(_:numberOfChannels:)
        let _: WritableKeyPath<AudioBuffer, UInt32> = \AudioBuffer.mNumberChannels
        let _: WritableKeyPath<AudioBuffer, UInt32> = \AudioBuffer.mDataByteSize
        let _: WritableKeyPath<AudioBuffer, UnsafeMutableRawPointer?> = \AudioBuffer.mData
        let _: () -> AudioBufferList = AudioBufferList.init
        let _: (UInt32, AudioBuffer) -> AudioBufferList = AudioBufferList.init(mNumberBuffers:mBuffers:)
        let _: WritableKeyPath<AudioBufferList, UInt32> = \AudioBufferList.mNumberBuffers
        let _: WritableKeyPath<AudioBufferList, AudioBuffer> = \AudioBufferList.mBuffers
        let _: (Int) -> Int = AudioBufferList.sizeInBytes(maximumBuffers:)
        let _: (Int) -> UnsafeMutableAudioBufferListPointer = AudioBufferList.allocate(maximumBuffers:)
        let _: (UnsafeMutablePointer<AudioBufferList>) -> UnsafeMutableAudioBufferListPointer = UnsafeMutableAudioBufferListPointer.init
        let _: (UnsafeMutablePointer<AudioBufferList>?) -> UnsafeMutableAudioBufferListPointer? = UnsafeMutableAudioBufferListPointer.init
        let _: KeyPath<UnsafeMutableAudioBufferListPointer, UnsafePointer<AudioBufferList>> = \UnsafeMutableAudioBufferListPointer.unsafePointer
        let _: WritableKeyPath<UnsafeMutableAudioBufferListPointer, UnsafeMutablePointer<AudioBufferList>> =
            \UnsafeMutableAudioBufferListPointer.unsafeMutablePointer
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { list.unsafeMutablePointer.deallocate() }
        list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 8, mData: nil)
        #expect(list.count == 2 && list[1].mDataByteSize == 8 && list.map(\.mNumberChannels) == [0, 1])
    }

    // https://developer.apple.com/documentation/coreaudiotypes/audiochannellayout and its parts
    @Test func audioChannelLayout() {
        let _: () -> AudioChannelLayout = AudioChannelLayout.init
        let _: (AudioChannelLayoutTag, AudioChannelBitmap, UInt32, AudioChannelDescription) -> AudioChannelLayout =
            AudioChannelLayout.init(mChannelLayoutTag:mChannelBitmap:mNumberChannelDescriptions:mChannelDescriptions:)
        let _: WritableKeyPath<AudioChannelLayout, AudioChannelLayoutTag> = \AudioChannelLayout.mChannelLayoutTag
        let _: WritableKeyPath<AudioChannelLayout, AudioChannelBitmap> = \AudioChannelLayout.mChannelBitmap
        let _: WritableKeyPath<AudioChannelLayout, UInt32> = \AudioChannelLayout.mNumberChannelDescriptions
        let _: WritableKeyPath<AudioChannelLayout, AudioChannelDescription> = \AudioChannelLayout.mChannelDescriptions
        let _: () -> AudioChannelDescription = AudioChannelDescription.init
        let _: (AudioChannelLabel, AudioChannelFlags, (Float32, Float32, Float32)) -> AudioChannelDescription =
            AudioChannelDescription.init(mChannelLabel:mChannelFlags:mCoordinates:)
        let _: WritableKeyPath<AudioChannelDescription, AudioChannelLabel> = \AudioChannelDescription.mChannelLabel
        let _: WritableKeyPath<AudioChannelDescription, AudioChannelFlags> = \AudioChannelDescription.mChannelFlags
        let _: WritableKeyPath<AudioChannelDescription, (Float32, Float32, Float32)> = \AudioChannelDescription.mCoordinates
        let _: (UInt32) -> AudioChannelFlags = AudioChannelFlags.init(rawValue:)
        #expect(AudioChannelFlags.allOff.rawValue == 0 && AudioChannelFlags.rectangularCoordinates.rawValue == 1)
        #expect(AudioChannelFlags.sphericalCoordinates.rawValue == 2 && AudioChannelFlags.meters.rawValue == 4)
        let _: (UInt32) -> AudioChannelBitmap = AudioChannelBitmap.init(rawValue:)
        let bits: [AudioChannelBitmap] = [
            .bit_Left, .bit_Right, .bit_Center, .bit_LFEScreen, .bit_LeftSurround, .bit_RightSurround, .bit_LeftCenter, .bit_RightCenter,
            .bit_CenterSurround, .bit_LeftSurroundDirect, .bit_RightSurroundDirect, .bit_TopCenterSurround, .bit_VerticalHeightLeft,
            .bit_VerticalHeightCenter, .bit_VerticalHeightRight, .bit_TopBackLeft, .bit_TopBackCenter, .bit_TopBackRight,
        ]
        #expect(bits.map(\.rawValue) == (0..<18).map { UInt32(1) << $0 })
        let labels: [AudioChannelLabel] = [
            kAudioChannelLabel_Unused, kAudioChannelLabel_Left, kAudioChannelLabel_Right, kAudioChannelLabel_Center,
            kAudioChannelLabel_LFEScreen, kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RightSurround, kAudioChannelLabel_LeftCenter,
            kAudioChannelLabel_RightCenter, kAudioChannelLabel_CenterSurround, kAudioChannelLabel_LeftSurroundDirect,
            kAudioChannelLabel_RightSurroundDirect, kAudioChannelLabel_TopCenterSurround,
        ]
        #expect(labels == (0 ... 12).map { AudioChannelLabel($0) })
        #expect([kAudioChannelLabel_RearSurroundLeft, kAudioChannelLabel_RearSurroundRight, kAudioChannelLabel_LFE2, kAudioChannelLabel_Mono,
                  kAudioChannelLabel_UseCoordinates, kAudioChannelLabel_Discrete, kAudioChannelLabel_Discrete_0, kAudioChannelLabel_Unknown]
                 == [33, 34, 37, 42, 100, 400, 0x1_0000, 0xFFFF_FFFF])
        let tags: [AudioChannelLayoutTag] = [
            kAudioChannelLayoutTag_UseChannelDescriptions, kAudioChannelLayoutTag_UseChannelBitmap, kAudioChannelLayoutTag_Mono,
            kAudioChannelLayoutTag_Stereo, kAudioChannelLayoutTag_StereoHeadphones, kAudioChannelLayoutTag_MatrixStereo,
            kAudioChannelLayoutTag_MidSide, kAudioChannelLayoutTag_XY, kAudioChannelLayoutTag_Binaural,
            kAudioChannelLayoutTag_Ambisonic_B_Format, kAudioChannelLayoutTag_Quadraphonic, kAudioChannelLayoutTag_Pentagonal,
            kAudioChannelLayoutTag_Hexagonal, kAudioChannelLayoutTag_Octagonal, kAudioChannelLayoutTag_Cube,
            kAudioChannelLayoutTag_MPEG_3_0_A, kAudioChannelLayoutTag_MPEG_3_0_B, kAudioChannelLayoutTag_MPEG_4_0_A,
            kAudioChannelLayoutTag_MPEG_4_0_B, kAudioChannelLayoutTag_MPEG_5_0_A, kAudioChannelLayoutTag_MPEG_5_0_B,
            kAudioChannelLayoutTag_MPEG_5_0_C, kAudioChannelLayoutTag_MPEG_5_0_D, kAudioChannelLayoutTag_MPEG_5_1_A,
            kAudioChannelLayoutTag_MPEG_5_1_B, kAudioChannelLayoutTag_MPEG_5_1_C, kAudioChannelLayoutTag_MPEG_5_1_D,
            kAudioChannelLayoutTag_MPEG_6_1_A, kAudioChannelLayoutTag_MPEG_7_1_A, kAudioChannelLayoutTag_MPEG_7_1_B,
            kAudioChannelLayoutTag_MPEG_7_1_C, kAudioChannelLayoutTag_Emagic_Default_7_1, kAudioChannelLayoutTag_SMPTE_DTV,
            kAudioChannelLayoutTag_ITU_2_1, kAudioChannelLayoutTag_ITU_2_2,
        ]
        let tagNumbers: [AudioChannelLayoutTag] = [0, 1] + (100 ... 132).map { AudioChannelLayoutTag($0) }
        #expect(tags.map { $0 >> 16 } == tagNumbers)
        #expect(kAudioChannelLayoutTag_MPEG_1_0 == kAudioChannelLayoutTag_Mono && kAudioChannelLayoutTag_MPEG_2_0 == kAudioChannelLayoutTag_Stereo)
        #expect(kAudioChannelLayoutTag_ITU_3_2_1 == kAudioChannelLayoutTag_MPEG_5_1_A)
        #expect(kAudioChannelLayoutTag_AAC_5_1 == kAudioChannelLayoutTag_MPEG_5_1_D && kAudioChannelLayoutTag_AAC_7_1 == kAudioChannelLayoutTag_MPEG_7_1_B)
        #expect(kAudioChannelLayoutTag_DiscreteInOrder == 147 << 16 && kAudioChannelLayoutTag_Unknown == 0xFFFF_0000)
        let _: (AudioChannelLayoutTag) -> UInt32 = AudioChannelLayoutTag_GetNumberOfChannels
        #expect(AudioChannelLayoutTag_GetNumberOfChannels(kAudioChannelLayoutTag_MPEG_5_1_A) == 6)
    }
}
