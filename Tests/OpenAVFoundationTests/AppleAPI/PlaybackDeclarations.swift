import Testing
import OpenAVFoundation

// Apple's declarations of the playback classes (AVPlayer, AVPlayerItem, AVQueuePlayer,
// AVPlayerLooper, the item outputs and access log, AVPlayerLayer, the time pitch algorithms and
// the playback notifications), spelled as Apple's Swift SDK spells them. Each typed reference
// breaks the build when a name, a label, an optionality, an `async` or a `throws` drifts from
// Apple's. Nothing here plays media.

/// A pull delegate as an Apple-platform program writes one: an `NSObject` with both of the
/// protocol's (optional, on Apple platforms) methods.
private final class PullDelegate: NSObject, AVPlayerItemOutputPullDelegate {
    func outputMediaDataWillChange(_ sender: AVPlayerItemOutput) {}
    func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) {}
}

/// A legible output's delegate as an Apple-platform program writes one.
private final class LegibleDelegate: NSObject, AVPlayerItemLegibleOutputPushDelegate {
    func legibleOutput(_ output: AVPlayerItemLegibleOutput, didOutputAttributedStrings strings: [NSAttributedString],
                       nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime) {}
}

@Suite(.timeLimit(.minutes(10))) struct PlaybackAppleDeclarationTests {
    // https://developer.apple.com/documentation/avfoundation/avplayer
    @Test func player() {
        let _: () -> AVPlayer = AVPlayer.init
        let _: (URL) -> AVPlayer = AVPlayer.init(url:)
        let _: (AVPlayerItem?) -> AVPlayer = AVPlayer.init(playerItem:)
        let _: KeyPath<AVPlayer, AVPlayerItem?> = \AVPlayer.currentItem
        let _: (AVPlayer) -> (AVPlayerItem?) -> Void = AVPlayer.replaceCurrentItem(with:)
        let _: (AVPlayer) -> () -> Void = AVPlayer.play
        let _: (AVPlayer) -> () -> Void = AVPlayer.pause
        let _: (AVPlayer) -> (Float) -> Void = AVPlayer.playImmediately(atRate:)
        let _: ReferenceWritableKeyPath<AVPlayer, Float> = \AVPlayer.rate
        let _: ReferenceWritableKeyPath<AVPlayer, Float> = \AVPlayer.defaultRate
        let _: (AVPlayer) -> (Float, CMTime, CMTime) -> Void = AVPlayer.setRate(_:time:atHostTime:)
        let _: KeyPath<AVPlayer, AVPlayer.Status> = \AVPlayer.status
        let _: KeyPath<AVPlayer, (any Error)?> = \AVPlayer.error
        let _: KeyPath<AVPlayer, AVPlayer.TimeControlStatus> = \AVPlayer.timeControlStatus
        let _: KeyPath<AVPlayer, AVPlayer.WaitingReason?> = \AVPlayer.reasonForWaitingToPlay
        let _: ReferenceWritableKeyPath<AVPlayer, Bool> = \AVPlayer.automaticallyWaitsToMinimizeStalling
        let _: ReferenceWritableKeyPath<AVPlayer, AVPlayer.ActionAtItemEnd> = \AVPlayer.actionAtItemEnd
        let _: ReferenceWritableKeyPath<AVPlayer, Float> = \AVPlayer.volume
        let _: ReferenceWritableKeyPath<AVPlayer, Bool> = \AVPlayer.isMuted
        let _: ReferenceWritableKeyPath<AVPlayer, String?> = \AVPlayer.audioOutputDeviceUniqueID
        let _: ReferenceWritableKeyPath<AVPlayer, Bool> = \AVPlayer.allowsExternalPlayback
        let _: KeyPath<AVPlayer, Bool> = \AVPlayer.isExternalPlaybackActive
        let _: KeyPath<AVPlayer, Bool> = \AVPlayer.outputObscuredDueToInsufficientExternalProtection
        let _: Bool = AVPlayer.eligibleForHDRPlayback
    }

    // https://developer.apple.com/documentation/avfoundation/avplayer (Managing time, Observing time)
    @Test func playerTimeAndSeeking() {
        let _: (AVPlayer) -> () -> CMTime = AVPlayer.currentTime
        let _: (AVPlayer) -> (CMTime) -> Void = AVPlayer.seek(to:)
        let _: (AVPlayer) -> (CMTime, @escaping @Sendable (Bool) -> Void) -> Void = AVPlayer.seek(to:completionHandler:)
        let _: (AVPlayer) -> (CMTime) async -> Bool = AVPlayer.seek(to:)
        let _: (AVPlayer) -> (CMTime, CMTime, CMTime) -> Void = AVPlayer.seek(to:toleranceBefore:toleranceAfter:)
        let _: (AVPlayer) -> (CMTime, CMTime, CMTime, @escaping @Sendable (Bool) -> Void) -> Void =
            AVPlayer.seek(to:toleranceBefore:toleranceAfter:completionHandler:)
        let _: (AVPlayer) -> (CMTime, CMTime, CMTime) async -> Bool = AVPlayer.seek(to:toleranceBefore:toleranceAfter:)
        let _: (AVPlayer) -> (Date) -> Void = AVPlayer.seek(to:)
        let _: (AVPlayer) -> (Date, @escaping @Sendable (Bool) -> Void) -> Void = AVPlayer.seek(to:completionHandler:)
        let _: (AVPlayer) -> (Date) async -> Bool = AVPlayer.seek(to:)
        let _: (AVPlayer) -> (Float, (@Sendable (Bool) -> Void)?) -> Void = AVPlayer.preroll(atRate:completionHandler:)
        let _: (AVPlayer) -> (Float) async -> Bool = AVPlayer.preroll(atRate:)
        let _: (AVPlayer) -> () -> Void = AVPlayer.cancelPendingPrerolls
        let _: (AVPlayer) -> (CMTime, DispatchQueue?, @escaping @Sendable (CMTime) -> Void) -> Any =
            AVPlayer.addPeriodicTimeObserver(forInterval:queue:using:)
        let _: (AVPlayer) -> ([NSValue], DispatchQueue?, @escaping @Sendable () -> Void) -> Any =
            AVPlayer.addBoundaryTimeObserver(forTimes:queue:using:)
        let _: (AVPlayer) -> (Any) -> Void = AVPlayer.removeTimeObserver(_:)
        // Calls as programs write them: default arguments, trailing closures, block-based KVO.
        _ = { (player: AVPlayer) in
            player.preroll(atRate: 1)
            player.preroll(atRate: 1) { finished in _ = finished }
            let token = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 2), queue: .main) { time in _ = time }
            player.removeTimeObserver(token)
            let observation = player.observe(\.timeControlStatus, options: [.new, .initial]) { player, change in
                _ = (player.reasonForWaitingToPlay, change.newValue)
            }
            observation.invalidate()
        }
    }

    // https://developer.apple.com/documentation/avfoundation/avplayer/status and the other nested types
    @Test func playerNestedTypes() {
        let _: [AVPlayer.Status] = [.unknown, .readyToPlay, .failed]
        #expect(AVPlayer.Status.unknown.rawValue == 0 && AVPlayer.Status.readyToPlay.rawValue == 1 && AVPlayer.Status.failed.rawValue == 2)
        let _: [AVPlayer.TimeControlStatus] = [.paused, .waitingToPlayAtSpecifiedRate, .playing]
        #expect(AVPlayer.TimeControlStatus.paused.rawValue == 0 && AVPlayer.TimeControlStatus.waitingToPlayAtSpecifiedRate.rawValue == 1
            && AVPlayer.TimeControlStatus.playing.rawValue == 2)
        let _: [AVPlayer.ActionAtItemEnd] = [.advance, .pause, .none]
        #expect(AVPlayer.ActionAtItemEnd.advance.rawValue == 0 && AVPlayer.ActionAtItemEnd.pause.rawValue == 1
            && AVPlayer.ActionAtItemEnd.none.rawValue == 2)
        let _: (String) -> AVPlayer.WaitingReason = AVPlayer.WaitingReason.init(rawValue:)
        let _: [AVPlayer.WaitingReason] = [.toMinimizeStalls, .evaluatingBufferingRate, .noItemToPlay, .waitingForCoordinatedPlayback]
        #expect(AVPlayer.WaitingReason.toMinimizeStalls.rawValue == "AVPlayerWaitingToMinimizeStallsReason")
        #expect(AVPlayer.WaitingReason.evaluatingBufferingRate.rawValue == "AVPlayerWaitingWhileEvaluatingBufferingRateReason")
        #expect(AVPlayer.WaitingReason.noItemToPlay.rawValue == "AVPlayerWaitingWithNoItemToPlayReason")
        let _: (String) -> AVPlayer.RateDidChangeReason = AVPlayer.RateDidChangeReason.init(rawValue:)
        let _: [AVPlayer.RateDidChangeReason] = [.setRateCalled, .setRateFailed, .audioSessionInterrupted, .appBackgrounded]
        let _: NSNotification.Name = AVPlayer.rateDidChangeNotification
        let _: NSNotification.Name = AVPlayer.eligibleForHDRPlaybackDidChangeNotification
        let _: String = AVPlayer.rateDidChangeReasonKey
        // How a rate change observer reads the reason.
        let userInfo: [AnyHashable: Any] = [AVPlayer.rateDidChangeReasonKey: AVPlayer.RateDidChangeReason.setRateCalled]
        #expect(userInfo[AVPlayer.rateDidChangeReasonKey] as? AVPlayer.RateDidChangeReason == .setRateCalled)
    }

    // https://developer.apple.com/documentation/avfoundation/avplayeritem
    @Test func playerItem() throws {
        let _: (URL) -> AVPlayerItem = AVPlayerItem.init(url:)
        let _: (AVAsset) -> AVPlayerItem = AVPlayerItem.init(asset:)
        let _: (AVAsset, [String]?) -> AVPlayerItem = AVPlayerItem.init(asset:automaticallyLoadedAssetKeys:)
        let _: (AVAsset, [AVPartialAsyncProperty<AVAsset>]) -> AVPlayerItem = AVPlayerItem.init(asset:automaticallyLoadedAssetKeys:)
        // avplayeritem/select(_:in:), selectmediaoptionautomatically(in:), currentmediaselection
        let _: (AVPlayerItem) -> (AVMediaSelectionOption?, AVMediaSelectionGroup) -> Void = AVPlayerItem.select(_:in:)
        let _: (AVPlayerItem) -> (AVMediaSelectionGroup) -> Void = AVPlayerItem.selectMediaOptionAutomatically(in:)
        let _: KeyPath<AVPlayerItem, AVMediaSelection> = \AVPlayerItem.currentMediaSelection
        // avplayeritem/errorlog(), avplayeritemerrorlog, avplayeritemerrorlogevent
        let _: (AVPlayerItem) -> () -> AVPlayerItemErrorLog? = AVPlayerItem.errorLog
        let _: KeyPath<AVPlayerItemErrorLog, [AVPlayerItemErrorLogEvent]> = \AVPlayerItemErrorLog.events
        let _: (AVPlayerItemErrorLog) -> () -> Data? = AVPlayerItemErrorLog.extendedLogData
        let _: KeyPath<AVPlayerItemErrorLog, UInt> = \AVPlayerItemErrorLog.extendedLogDataStringEncoding
        let _: KeyPath<AVPlayerItemErrorLogEvent, Date?> = \AVPlayerItemErrorLogEvent.date
        let _: KeyPath<AVPlayerItemErrorLogEvent, String?> = \AVPlayerItemErrorLogEvent.uri
        let _: KeyPath<AVPlayerItemErrorLogEvent, String?> = \AVPlayerItemErrorLogEvent.serverAddress
        let _: KeyPath<AVPlayerItemErrorLogEvent, String?> = \AVPlayerItemErrorLogEvent.playbackSessionID
        let _: KeyPath<AVPlayerItemErrorLogEvent, Int> = \AVPlayerItemErrorLogEvent.errorStatusCode
        let _: KeyPath<AVPlayerItemErrorLogEvent, String> = \AVPlayerItemErrorLogEvent.errorDomain
        let _: KeyPath<AVPlayerItemErrorLogEvent, String?> = \AVPlayerItemErrorLogEvent.errorComment
        let _: KeyPath<AVPlayerItemErrorLogEvent, [String: String]?> = \AVPlayerItemErrorLogEvent.allHTTPResponseHeaderFields
        #expect(AVPlayerItem.newErrorLogEntryNotification.rawValue == "AVPlayerItemNewErrorLogEntryNotification")
        // avplayer/setmediaselectioncriteria(_:formediacharacteristic:), avplayermediaselectioncriteria
        let _: (AVPlayer) -> (AVPlayerMediaSelectionCriteria?, AVMediaCharacteristic) -> Void = AVPlayer.setMediaSelectionCriteria(_:forMediaCharacteristic:)
        let _: (AVPlayer) -> (AVMediaCharacteristic) -> AVPlayerMediaSelectionCriteria? = AVPlayer.mediaSelectionCriteria(forMediaCharacteristic:)
        let _: ReferenceWritableKeyPath<AVPlayer, Bool> = \AVPlayer.appliesMediaSelectionCriteriaAutomatically
        let _: ([String]?, [AVMediaCharacteristic]?) -> AVPlayerMediaSelectionCriteria = AVPlayerMediaSelectionCriteria.init(preferredLanguages:preferredMediaCharacteristics:)
        let _: ([AVMediaCharacteristic]?, [String]?, [AVMediaCharacteristic]?) -> AVPlayerMediaSelectionCriteria
            = AVPlayerMediaSelectionCriteria.init(principalMediaCharacteristics:preferredLanguages:preferredMediaCharacteristics:)
        #expect(AVPlayer().appliesMediaSelectionCriteriaAutomatically)
        let _: KeyPath<AVPlayerItem, AVPlayerItem.Status> = \AVPlayerItem.status
        let _: KeyPath<AVPlayerItem, (any Error)?> = \AVPlayerItem.error
        let _: KeyPath<AVPlayerItem, AVAsset> = \AVPlayerItem.asset
        let _: KeyPath<AVPlayerItem, [AVPlayerItemTrack]> = \AVPlayerItem.tracks
        let _: KeyPath<AVPlayerItem, CMTime> = \AVPlayerItem.duration
        let _: KeyPath<AVPlayerItem, CGSize> = \AVPlayerItem.presentationSize
        let _: KeyPath<AVPlayerItem, [String]> = \AVPlayerItem.automaticallyLoadedAssetKeys
        let _: KeyPath<AVPlayerItem, Bool> = \AVPlayerItem.canPlayFastForward
        let _: KeyPath<AVPlayerItem, Bool> = \AVPlayerItem.canPlaySlowForward
        let _: KeyPath<AVPlayerItem, Bool> = \AVPlayerItem.canPlayReverse
        let _: KeyPath<AVPlayerItem, Bool> = \AVPlayerItem.canPlaySlowReverse
        let _: KeyPath<AVPlayerItem, Bool> = \AVPlayerItem.canPlayFastReverse
        let _: KeyPath<AVPlayerItem, Bool> = \AVPlayerItem.canStepForward
        let _: KeyPath<AVPlayerItem, Bool> = \AVPlayerItem.canStepBackward
        let _: (AVPlayerItem) -> (Int) -> Void = AVPlayerItem.step(byCount:)
        let _: ReferenceWritableKeyPath<AVPlayerItem, AVVideoComposition?> = \AVPlayerItem.videoComposition
        let _: ReferenceWritableKeyPath<AVPlayerItem, AVAudioTimePitchAlgorithm> = \AVPlayerItem.audioTimePitchAlgorithm
        let _: ReferenceWritableKeyPath<AVPlayerItem, AVAudioMix?> = \AVPlayerItem.audioMix
        let _: KeyPath<AVPlayerItem, [NSValue]> = \AVPlayerItem.loadedTimeRanges
        let _: KeyPath<AVPlayerItem, Bool> = \AVPlayerItem.isPlaybackLikelyToKeepUp
        let _: KeyPath<AVPlayerItem, Bool> = \AVPlayerItem.isPlaybackBufferFull
        let _: KeyPath<AVPlayerItem, Bool> = \AVPlayerItem.isPlaybackBufferEmpty
        let _: ReferenceWritableKeyPath<AVPlayerItem, TimeInterval> = \AVPlayerItem.preferredForwardBufferDuration
        let _: ReferenceWritableKeyPath<AVPlayerItem, Double> = \AVPlayerItem.preferredPeakBitRate
        let _: ReferenceWritableKeyPath<AVPlayerItem, CGSize> = \AVPlayerItem.preferredMaximumResolution
        let _: (AVPlayerItem) -> () -> AVPlayerItemAccessLog? = AVPlayerItem.accessLog
        let _: (AVPlayerItem) -> (AVPlayerItemOutput) -> Void = AVPlayerItem.add(_:)
        let _: (AVPlayerItem) -> (AVPlayerItemOutput) -> Void = AVPlayerItem.remove(_:)
        let _: KeyPath<AVPlayerItem, [AVPlayerItemOutput]> = \AVPlayerItem.outputs
        _ = { (item: AVPlayerItem) in
            let observation = item.observe(\.status, options: [.new]) { item, change in _ = (item.error, change.newValue) }
            observation.invalidate()
        }

        // NSCopying: a copy is a new item of the same asset and settings.
        let item = AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent/clip.mov"))
        item.forwardPlaybackEndTime = CMTime(value: 3, timescale: 1)
        let copy = try #require(item.copy() as? AVPlayerItem)
        #expect(copy !== item && copy.asset === item.asset && copy.forwardPlaybackEndTime == item.forwardPlaybackEndTime)
        #expect(item.status == .unknown && item.accessLog() == nil)
    }

    // https://developer.apple.com/documentation/avfoundation/avplayeritem (Moving the playhead)
    @Test func playerItemTime() {
        let _: (AVPlayerItem) -> () -> CMTime = AVPlayerItem.currentTime
        let _: ReferenceWritableKeyPath<AVPlayerItem, CMTime> = \AVPlayerItem.forwardPlaybackEndTime
        let _: ReferenceWritableKeyPath<AVPlayerItem, CMTime> = \AVPlayerItem.reversePlaybackEndTime
        let _: KeyPath<AVPlayerItem, [NSValue]> = \AVPlayerItem.seekableTimeRanges
        let _: (AVPlayerItem) -> (CMTime, (@Sendable (Bool) -> Void)?) -> Void = AVPlayerItem.seek(to:completionHandler:)
        let _: (AVPlayerItem) -> (CMTime) async -> Bool = AVPlayerItem.seek(to:)
        let _: (AVPlayerItem) -> (CMTime, CMTime, CMTime, (@Sendable (Bool) -> Void)?) -> Void =
            AVPlayerItem.seek(to:toleranceBefore:toleranceAfter:completionHandler:)
        let _: (AVPlayerItem) -> (CMTime, CMTime, CMTime) async -> Bool = AVPlayerItem.seek(to:toleranceBefore:toleranceAfter:)
        let _: (AVPlayerItem) -> (Date, (@Sendable (Bool) -> Void)?) -> Bool = AVPlayerItem.seek(to:completionHandler:)
        let _: (AVPlayerItem) -> (Date) async -> Bool = AVPlayerItem.seek(to:)
        let _: (AVPlayerItem) -> () -> Date? = AVPlayerItem.currentDate
        let _: (AVPlayerItem) -> () -> Void = AVPlayerItem.cancelPendingSeeks
        // The calls without a completion handler (nil by default), as programs write them.
        _ = { (item: AVPlayerItem, time: CMTime) in
            item.seek(to: time, completionHandler: nil)
            item.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero)
            item.seek(to: Date())
        }
        let item = AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent/clip.mov"))
        #expect(item.currentDate() == nil && !item.seek(to: Date(), completionHandler: nil))
    }

    // https://developer.apple.com/documentation/avfoundation/avplayeritem/status and the notifications
    @Test func playerItemStatusAndNotifications() {
        let _: [AVPlayerItem.Status] = [.unknown, .readyToPlay, .failed]
        #expect(AVPlayerItem.Status.unknown.rawValue == 0 && AVPlayerItem.Status.readyToPlay.rawValue == 1
            && AVPlayerItem.Status.failed.rawValue == 2)
        #expect(AVPlayerItem.didPlayToEndTimeNotification.rawValue == "AVPlayerItemDidPlayToEndTimeNotification")
        #expect(AVPlayerItem.failedToPlayToEndTimeNotification.rawValue == "AVPlayerItemFailedToPlayToEndTimeNotification")
        #expect(AVPlayerItem.playbackStalledNotification.rawValue == "AVPlayerItemPlaybackStalledNotification")
        #expect(AVPlayerItem.timeJumpedNotification.rawValue == "AVPlayerItemTimeJumpedNotification")
        #expect(AVPlayerItem.newAccessLogEntryNotification.rawValue == "AVPlayerItemNewAccessLogEntryNotification")
        #expect(AVPlayerItemFailedToPlayToEndTimeErrorKey == "AVPlayerItemFailedToPlayToEndTimeErrorKey")
        // The spellings of the older Swift SDKs.
        #expect(NSNotification.Name.AVPlayerItemDidPlayToEndTime == AVPlayerItem.didPlayToEndTimeNotification)
        #expect(NSNotification.Name.AVPlayerItemFailedToPlayToEndTime == AVPlayerItem.failedToPlayToEndTimeNotification)
        #expect(NSNotification.Name.AVPlayerItemPlaybackStalled == AVPlayerItem.playbackStalledNotification)
        #expect(NSNotification.Name.AVPlayerItemTimeJumped == AVPlayerItem.timeJumpedNotification)
        #expect(NSNotification.Name.AVPlayerItemNewAccessLogEntry == AVPlayerItem.newAccessLogEntryNotification)
    }

    // https://developer.apple.com/documentation/avfoundation/avplayeritemtrack
    @Test func playerItemTrack() {
        let _: KeyPath<AVPlayerItemTrack, AVAssetTrack?> = \AVPlayerItemTrack.assetTrack
        let _: ReferenceWritableKeyPath<AVPlayerItemTrack, Bool> = \AVPlayerItemTrack.isEnabled
        let _: KeyPath<AVPlayerItemTrack, Float> = \AVPlayerItemTrack.currentVideoFrameRate
    }

    // https://developer.apple.com/documentation/avfoundation/avqueueplayer
    @Test func queuePlayer() {
        let _: ([AVPlayerItem]) -> AVQueuePlayer = AVQueuePlayer.init(items:)
        let _: () -> AVQueuePlayer = AVQueuePlayer.init
        let _: (AVQueuePlayer) -> () -> [AVPlayerItem] = AVQueuePlayer.items
        let _: (AVQueuePlayer) -> () -> Void = AVQueuePlayer.advanceToNextItem
        let _: (AVQueuePlayer) -> (AVPlayerItem, AVPlayerItem?) -> Bool = AVQueuePlayer.canInsert(_:after:)
        let _: (AVQueuePlayer) -> (AVPlayerItem, AVPlayerItem?) -> Void = AVQueuePlayer.insert(_:after:)
        let _: (AVQueuePlayer) -> (AVPlayerItem) -> Void = AVQueuePlayer.remove(_:)
        let _: (AVQueuePlayer) -> () -> Void = AVQueuePlayer.removeAllItems
        let _: (AVQueuePlayer) -> (AVPlayerItem?) -> Void = AVQueuePlayer.replaceCurrentItem(with:)
    }

    // https://developer.apple.com/documentation/avfoundation/avplayerlooper
    @Test func playerLooper() {
        let _: (AVQueuePlayer, AVPlayerItem, CMTimeRange, AVPlayerLooper.ItemOrdering) -> AVPlayerLooper =
            AVPlayerLooper.init(player:templateItem:timeRange:existingItemsOrdering:)
        let _: (AVQueuePlayer, AVPlayerItem, CMTimeRange) -> AVPlayerLooper = AVPlayerLooper.init(player:templateItem:timeRange:)
        let _: (AVQueuePlayer, AVPlayerItem) -> AVPlayerLooper = AVPlayerLooper.init(player:templateItem:)
        let _: KeyPath<AVPlayerLooper, AVPlayerLooper.Status> = \AVPlayerLooper.status
        let _: KeyPath<AVPlayerLooper, (any Error)?> = \AVPlayerLooper.error
        let _: KeyPath<AVPlayerLooper, Int> = \AVPlayerLooper.loopCount
        let _: KeyPath<AVPlayerLooper, [AVPlayerItem]> = \AVPlayerLooper.loopingPlayerItems
        let _: (AVPlayerLooper) -> () -> Void = AVPlayerLooper.disableLooping
        let _: [AVPlayerLooper.Status] = [.unknown, .ready, .failed, .cancelled]
        #expect(AVPlayerLooper.Status.unknown.rawValue == 0 && AVPlayerLooper.Status.ready.rawValue == 1
            && AVPlayerLooper.Status.failed.rawValue == 2 && AVPlayerLooper.Status.cancelled.rawValue == 3)
        let _: [AVPlayerLooper.ItemOrdering] = [.loopingItemsPrecedeExistingItems, .loopingItemsFollowExistingItems]
        #expect(AVPlayerLooper.ItemOrdering.loopingItemsPrecedeExistingItems.rawValue == 0
            && AVPlayerLooper.ItemOrdering.loopingItemsFollowExistingItems.rawValue == 1)
    }

    // https://developer.apple.com/documentation/avfoundation/avplayeritemoutput and avplayeritemvideooutput
    @Test func playerItemOutputs() {
        let _: (AVPlayerItemOutput) -> (CFTimeInterval) -> CMTime = AVPlayerItemOutput.itemTime(forHostTime:)
        let _: ReferenceWritableKeyPath<AVPlayerItemOutput, Bool> = \AVPlayerItemOutput.suppressesPlayerRendering
        let _: ([String: Any]?) -> AVPlayerItemVideoOutput = AVPlayerItemVideoOutput.init(pixelBufferAttributes:)
        let _: ([String: Any]?) -> AVPlayerItemVideoOutput = AVPlayerItemVideoOutput.init(outputSettings:)
        let _: (AVPlayerItemVideoOutput) -> (CMTime) -> Bool = AVPlayerItemVideoOutput.hasNewPixelBuffer(forItemTime:)
        let _: (AVPlayerItemVideoOutput) -> (CMTime, UnsafeMutablePointer<CMTime>?) -> CVPixelBuffer? =
            AVPlayerItemVideoOutput.copyPixelBuffer(forItemTime:itemTimeForDisplay:)
        let _: (AVPlayerItemVideoOutput) -> ((any AVPlayerItemOutputPullDelegate)?, DispatchQueue?) -> Void =
            AVPlayerItemVideoOutput.setDelegate(_:queue:)
        let _: KeyPath<AVPlayerItemVideoOutput, (any AVPlayerItemOutputPullDelegate)?> = \AVPlayerItemVideoOutput.delegate
        let _: KeyPath<AVPlayerItemVideoOutput, DispatchQueue?> = \AVPlayerItemVideoOutput.delegateQueue
        let _: (AVPlayerItemVideoOutput) -> (TimeInterval) -> Void = AVPlayerItemVideoOutput.requestNotificationOfMediaDataChange(withAdvanceInterval:)
        // The attributes are optional, nil by default.
        let output = AVPlayerItemVideoOutput()
        let delegate = PullDelegate()
        output.setDelegate(delegate, queue: .main)
        #expect(output.delegate === delegate && output.delegateQueue != nil)
        let item = AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent/clip.mov"))
        item.add(output)
        #expect(item.outputs.count == 1 && item.outputs.first === output)
        item.remove(output)
        #expect(item.outputs.isEmpty)
    }

    // https://developer.apple.com/documentation/avfoundation/avplayeritemlegibleoutput
    @Test func legibleOutput() {
        let _: () -> AVPlayerItemLegibleOutput = AVPlayerItemLegibleOutput.init
        let _: ([NSNumber]) -> AVPlayerItemLegibleOutput = AVPlayerItemLegibleOutput.init(mediaSubtypesForNativeRepresentation:)
        let _: (AVPlayerItemLegibleOutput) -> ((any AVPlayerItemLegibleOutputPushDelegate)?, DispatchQueue?) -> Void =
            AVPlayerItemLegibleOutput.setDelegate(_:queue:)
        let _: KeyPath<AVPlayerItemLegibleOutput, (any AVPlayerItemLegibleOutputPushDelegate)?> = \AVPlayerItemLegibleOutput.delegate
        let _: KeyPath<AVPlayerItemLegibleOutput, DispatchQueue?> = \AVPlayerItemLegibleOutput.delegateQueue
        let _: ReferenceWritableKeyPath<AVPlayerItemLegibleOutput, TimeInterval> = \AVPlayerItemLegibleOutput.advanceIntervalForDelegateInvocation
        let _: ReferenceWritableKeyPath<AVPlayerItemLegibleOutput, AVPlayerItemLegibleOutput.TextStylingResolution> =
            \AVPlayerItemLegibleOutput.textStylingResolution
        let _: [AVPlayerItemLegibleOutput.TextStylingResolution] = [.default, .sourceAndRulesOnly]
        let _: [CFString] = [kCMTextMarkupAttribute_ForegroundColorARGB, kCMTextMarkupAttribute_BackgroundColorARGB,
                             kCMTextMarkupAttribute_CharacterBackgroundColorARGB, kCMTextMarkupAttribute_BoldStyle,
                             kCMTextMarkupAttribute_ItalicStyle, kCMTextMarkupAttribute_UnderlineStyle,
                             kCMTextMarkupAttribute_FontFamilyName, kCMTextMarkupAttribute_BaseFontSizePercentageRelativeToVideoHeight,
                             kCMTextMarkupAttribute_RelativeFontSize, kCMTextMarkupAttribute_Alignment,
                             kCMTextMarkupAlignmentType_Start, kCMTextMarkupAlignmentType_Middle, kCMTextMarkupAlignmentType_End,
                             kCMTextMarkupAlignmentType_Left, kCMTextMarkupAlignmentType_Right]
        let output = AVPlayerItemLegibleOutput()
        let delegate = LegibleDelegate()
        output.setDelegate(delegate, queue: .main)
        #expect(output.delegate === delegate && output.advanceIntervalForDelegateInvocation == 0 && output.textStylingResolution == .default)
    }

    // https://developer.apple.com/documentation/avfoundation/avplayeritemaccesslog and avplayeritemaccesslogevent
    @Test func accessLog() {
        let _: KeyPath<AVPlayerItemAccessLog, [AVPlayerItemAccessLogEvent]> = \AVPlayerItemAccessLog.events
        let _: (AVPlayerItemAccessLog) -> () -> Data? = AVPlayerItemAccessLog.extendedLogData
        let _: KeyPath<AVPlayerItemAccessLog, UInt> = \AVPlayerItemAccessLog.extendedLogDataStringEncoding
        let _: (AVPlayerItemAccessLog) -> (NSZone?) -> Any = AVPlayerItemAccessLog.copy(with:)
        let _: KeyPath<AVPlayerItemAccessLogEvent, Int> = \AVPlayerItemAccessLogEvent.numberOfMediaRequests
        let _: KeyPath<AVPlayerItemAccessLogEvent, Date?> = \AVPlayerItemAccessLogEvent.playbackStartDate
        let _: KeyPath<AVPlayerItemAccessLogEvent, String?> = \AVPlayerItemAccessLogEvent.uri
        let _: KeyPath<AVPlayerItemAccessLogEvent, String?> = \AVPlayerItemAccessLogEvent.serverAddress
        let _: KeyPath<AVPlayerItemAccessLogEvent, Int> = \AVPlayerItemAccessLogEvent.numberOfServerAddressChanges
        let _: KeyPath<AVPlayerItemAccessLogEvent, String?> = \AVPlayerItemAccessLogEvent.playbackSessionID
        let _: KeyPath<AVPlayerItemAccessLogEvent, TimeInterval> = \AVPlayerItemAccessLogEvent.playbackStartOffset
        let _: KeyPath<AVPlayerItemAccessLogEvent, TimeInterval> = \AVPlayerItemAccessLogEvent.segmentsDownloadedDuration
        let _: KeyPath<AVPlayerItemAccessLogEvent, TimeInterval> = \AVPlayerItemAccessLogEvent.durationWatched
        let _: KeyPath<AVPlayerItemAccessLogEvent, Int> = \AVPlayerItemAccessLogEvent.numberOfStalls
        let _: KeyPath<AVPlayerItemAccessLogEvent, Int64> = \AVPlayerItemAccessLogEvent.numberOfBytesTransferred
        let _: KeyPath<AVPlayerItemAccessLogEvent, TimeInterval> = \AVPlayerItemAccessLogEvent.transferDuration
        let _: KeyPath<AVPlayerItemAccessLogEvent, Double> = \AVPlayerItemAccessLogEvent.observedBitrate
        let _: KeyPath<AVPlayerItemAccessLogEvent, Double> = \AVPlayerItemAccessLogEvent.indicatedBitrate
        let _: KeyPath<AVPlayerItemAccessLogEvent, Double> = \AVPlayerItemAccessLogEvent.indicatedAverageBitrate
        let _: KeyPath<AVPlayerItemAccessLogEvent, Double> = \AVPlayerItemAccessLogEvent.averageVideoBitrate
        let _: KeyPath<AVPlayerItemAccessLogEvent, Double> = \AVPlayerItemAccessLogEvent.averageAudioBitrate
        let _: KeyPath<AVPlayerItemAccessLogEvent, Int> = \AVPlayerItemAccessLogEvent.numberOfDroppedVideoFrames
        let _: KeyPath<AVPlayerItemAccessLogEvent, TimeInterval> = \AVPlayerItemAccessLogEvent.startupTime
        let _: KeyPath<AVPlayerItemAccessLogEvent, Int> = \AVPlayerItemAccessLogEvent.downloadOverdue
        let _: KeyPath<AVPlayerItemAccessLogEvent, Double> = \AVPlayerItemAccessLogEvent.observedBitrateStandardDeviation
        let _: KeyPath<AVPlayerItemAccessLogEvent, String?> = \AVPlayerItemAccessLogEvent.playbackType
        let _: KeyPath<AVPlayerItemAccessLogEvent, Int> = \AVPlayerItemAccessLogEvent.mediaRequestsWWAN
        let _: KeyPath<AVPlayerItemAccessLogEvent, Double> = \AVPlayerItemAccessLogEvent.switchBitrate
        let _: (AVPlayerItemAccessLogEvent) -> (NSZone?) -> Any = AVPlayerItemAccessLogEvent.copy(with:)
    }

    // https://developer.apple.com/documentation/avfoundation/avplayerlayer
    @Test func playerLayer() {
        let _: (AVPlayer?) -> AVPlayerLayer = AVPlayerLayer.init(player:)
        let _: ReferenceWritableKeyPath<AVPlayerLayer, AVPlayer?> = \AVPlayerLayer.player
        let _: ReferenceWritableKeyPath<AVPlayerLayer, AVLayerVideoGravity> = \AVPlayerLayer.videoGravity
        let _: KeyPath<AVPlayerLayer, Bool> = \AVPlayerLayer.isReadyForDisplay
        let _: KeyPath<AVPlayerLayer, CGRect> = \AVPlayerLayer.videoRect
        let _: ReferenceWritableKeyPath<AVPlayerLayer, [String: Any]?> = \AVPlayerLayer.pixelBufferAttributes
        let _: (AVPlayerLayer) -> () -> CVPixelBuffer? = AVPlayerLayer.displayedPixelBuffer
        let layer = AVPlayerLayer(player: nil)
        #expect(layer.player == nil && layer.videoGravity == .resizeAspect && !layer.isReadyForDisplay)
    }

    // https://developer.apple.com/documentation/avfoundation/avaudiotimepitchalgorithm
    @Test func timePitchAlgorithms() {
        let _: (String) -> AVAudioTimePitchAlgorithm = AVAudioTimePitchAlgorithm.init(rawValue:)
        let _: [AVAudioTimePitchAlgorithm] = [.lowQualityZeroLatency, .timeDomain, .spectral, .varispeed]
        // Apple's default since iOS 15 and macOS 12.
        #expect(AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent/clip.mov")).audioTimePitchAlgorithm == .timeDomain)
    }

    // https://developer.apple.com/documentation/avfoundation/avsamplebufferaudiorenderer
    @Test func sampleBufferRendering() {
        let _: () -> AVSampleBufferAudioRenderer = AVSampleBufferAudioRenderer.init
        let _: KeyPath<AVSampleBufferAudioRenderer, AVQueuedSampleBufferRenderingStatus> = \AVSampleBufferAudioRenderer.status
        let _: KeyPath<AVSampleBufferAudioRenderer, (any Error)?> = \AVSampleBufferAudioRenderer.error
        let _: ReferenceWritableKeyPath<AVSampleBufferAudioRenderer, Float> = \AVSampleBufferAudioRenderer.volume
        let _: ReferenceWritableKeyPath<AVSampleBufferAudioRenderer, Bool> = \AVSampleBufferAudioRenderer.isMuted
        let _: ReferenceWritableKeyPath<AVSampleBufferAudioRenderer, String?> = \AVSampleBufferAudioRenderer.audioOutputDeviceUniqueID
        let _: ReferenceWritableKeyPath<AVSampleBufferAudioRenderer, AVAudioTimePitchAlgorithm> = \AVSampleBufferAudioRenderer.audioTimePitchAlgorithm
        let _: (AVSampleBufferAudioRenderer) -> (CMTime, @escaping @Sendable (Bool) -> Void) -> Void
            = AVSampleBufferAudioRenderer.flush(fromSourceTime:completionHandler:)
        let _: KeyPath<AVSampleBufferAudioRenderer, CMTimebase> = \AVSampleBufferAudioRenderer.timebase
        let _: (AVSampleBufferAudioRenderer) -> (CMSampleBuffer) -> Void = AVSampleBufferAudioRenderer.enqueue
        let _: (AVSampleBufferAudioRenderer) -> () -> Void = AVSampleBufferAudioRenderer.flush
        let _: KeyPath<AVSampleBufferAudioRenderer, Bool> = \AVSampleBufferAudioRenderer.isReadyForMoreMediaData
        let _: KeyPath<AVSampleBufferAudioRenderer, Bool> = \AVSampleBufferAudioRenderer.hasSufficientMediaDataForReliablePlaybackStart
        let _: (AVSampleBufferAudioRenderer) -> (DispatchQueue, @escaping @Sendable () -> Void) -> Void
            = AVSampleBufferAudioRenderer.requestMediaDataWhenReady(on:using:)
        let _: (AVSampleBufferAudioRenderer) -> () -> Void = AVSampleBufferAudioRenderer.stopRequestingMediaData
        let _: () -> AVSampleBufferRenderSynchronizer = AVSampleBufferRenderSynchronizer.init
        let _: KeyPath<AVSampleBufferRenderSynchronizer, CMTimebase> = \AVSampleBufferRenderSynchronizer.timebase
        let _: ReferenceWritableKeyPath<AVSampleBufferRenderSynchronizer, Float> = \AVSampleBufferRenderSynchronizer.rate
        let _: (AVSampleBufferRenderSynchronizer) -> (Float, CMTime) -> Void = AVSampleBufferRenderSynchronizer.setRate(_:time:)
        let _: (AVSampleBufferRenderSynchronizer) -> (Float, CMTime, CMTime) -> Void = AVSampleBufferRenderSynchronizer.setRate(_:time:atHostTime:)
        let _: (AVSampleBufferRenderSynchronizer) -> () -> CMTime = AVSampleBufferRenderSynchronizer.currentTime
        let _: KeyPath<AVSampleBufferRenderSynchronizer, [any AVQueuedSampleBufferRendering]> = \AVSampleBufferRenderSynchronizer.renderers
        let _: (AVSampleBufferRenderSynchronizer) -> (any AVQueuedSampleBufferRendering) -> Void = AVSampleBufferRenderSynchronizer.addRenderer
        let _: (AVSampleBufferRenderSynchronizer) -> (any AVQueuedSampleBufferRendering, CMTime, (@Sendable (Bool) -> Void)?) -> Void
            = AVSampleBufferRenderSynchronizer.removeRenderer(_:at:completionHandler:)
        let _: (AVSampleBufferRenderSynchronizer) -> (CMTime, DispatchQueue?, @escaping @Sendable (CMTime) -> Void) -> Any
            = AVSampleBufferRenderSynchronizer.addPeriodicTimeObserver(forInterval:queue:using:)
        let _: (AVSampleBufferRenderSynchronizer) -> ([NSValue], DispatchQueue?, @escaping @Sendable () -> Void) -> Any
            = AVSampleBufferRenderSynchronizer.addBoundaryTimeObserver(forTimes:queue:using:)
        let _: (AVSampleBufferRenderSynchronizer) -> (Any) -> Void = AVSampleBufferRenderSynchronizer.removeTimeObserver
        let _: ReferenceWritableKeyPath<AVSampleBufferRenderSynchronizer, Bool>
            = \AVSampleBufferRenderSynchronizer.delaysRateChangeUntilHasSufficientMediaData
        let _: [AVQueuedSampleBufferRenderingStatus] = [.unknown, .rendering, .failed]
    }

    // https://developer.apple.com/documentation/avfoundation/avsamplebufferdisplaylayer
    // https://developer.apple.com/documentation/avfoundation/avsamplebuffervideorenderer
    @Test func sampleBufferDisplay() {
        let _: () -> AVSampleBufferDisplayLayer = AVSampleBufferDisplayLayer.init
        let _: KeyPath<AVSampleBufferDisplayLayer, AVSampleBufferVideoRenderer> = \AVSampleBufferDisplayLayer.sampleBufferRenderer
        let _: ReferenceWritableKeyPath<AVSampleBufferDisplayLayer, CMTimebase?> = \AVSampleBufferDisplayLayer.controlTimebase
        let _: ReferenceWritableKeyPath<AVSampleBufferDisplayLayer, AVLayerVideoGravity> = \AVSampleBufferDisplayLayer.videoGravity
        let _: ReferenceWritableKeyPath<AVSampleBufferDisplayLayer, Bool> = \AVSampleBufferDisplayLayer.preventsDisplaySleepDuringVideoPlayback
        let _: KeyPath<AVSampleBufferDisplayLayer, Bool> = \AVSampleBufferDisplayLayer.isReadyForDisplay
        let _: KeyPath<AVSampleBufferDisplayLayer, AVQueuedSampleBufferRenderingStatus> = \AVSampleBufferDisplayLayer.status
        let _: KeyPath<AVSampleBufferDisplayLayer, (any Error)?> = \AVSampleBufferDisplayLayer.error
        let _: KeyPath<AVSampleBufferDisplayLayer, Bool> = \AVSampleBufferDisplayLayer.requiresFlushToResumeDecoding
        let _: (AVSampleBufferDisplayLayer) -> (CMSampleBuffer) -> Void = AVSampleBufferDisplayLayer.enqueue
        let _: (AVSampleBufferDisplayLayer) -> () -> Void = AVSampleBufferDisplayLayer.flush
        let _: (AVSampleBufferDisplayLayer) -> () -> Void = AVSampleBufferDisplayLayer.flushAndRemoveImage
        let _: (AVSampleBufferDisplayLayer) -> (DispatchQueue, @escaping @Sendable () -> Void) -> Void
            = AVSampleBufferDisplayLayer.requestMediaDataWhenReady(on:using:)
        let _: (AVSampleBufferDisplayLayer) -> () -> Void = AVSampleBufferDisplayLayer.stopRequestingMediaData
        let _: any AVQueuedSampleBufferRendering = AVSampleBufferDisplayLayer()
        let _: Notification.Name = .AVSampleBufferDisplayLayerFailedToDecode
        let _: Notification.Name = .AVSampleBufferDisplayLayerRequiresFlushToResumeDecodingDidChange
        let _: String = AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey
        let _: () -> AVSampleBufferVideoRenderer = AVSampleBufferVideoRenderer.init
        let _: any AVQueuedSampleBufferRendering = AVSampleBufferVideoRenderer()
        let _: KeyPath<AVSampleBufferVideoRenderer, AVQueuedSampleBufferRenderingStatus> = \AVSampleBufferVideoRenderer.status
        let _: KeyPath<AVSampleBufferVideoRenderer, Bool> = \AVSampleBufferVideoRenderer.requiresFlushToResumeDecoding
        let _: (AVSampleBufferVideoRenderer) -> (Bool, (@Sendable () -> Void)?) -> Void
            = AVSampleBufferVideoRenderer.flush(removingDisplayedImage:completionHandler:)
        let _: (AVSampleBufferVideoRenderer) -> () -> CVPixelBuffer? = AVSampleBufferVideoRenderer.displayedPixelBuffer
        let _: Notification.Name = AVSampleBufferVideoRenderer.didFailToDecodeNotification
        let _: Notification.Name = AVSampleBufferVideoRenderer.requiresFlushToResumeDecodingDidChangeNotification
        let _: String = AVSampleBufferVideoRendererDidFailToDecodeNotificationErrorKey
    }
}
