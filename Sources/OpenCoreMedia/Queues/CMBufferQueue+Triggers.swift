import Foundation
import OpenCoreVideo

/// Identifies a trigger installed on a `CMBufferQueue`, for testing and removing it.
public typealias CMBufferQueueTriggerToken = OpaquePointer

/// Called with the trigger's token when its condition becomes true.
public typealias CMBufferQueueTriggerHandler = (CMBufferQueueTriggerToken) -> Void

extension CMBufferQueue {
    /// The type of a trigger's token.
    public typealias TriggerToken = CMBufferQueueTriggerToken

    /// When a trigger fires: each time its condition goes from false to true after a change of
    /// the queue (enqueue, dequeue, end of data, reset), and when it is installed already true.
    public enum TriggerCondition {
        /// The duration becomes less than the time.
        case whenDurationBecomesLessThan(CMTime)
        /// The duration becomes less than or equal to the time.
        case whenDurationBecomesLessThanOrEqualTo(CMTime)
        /// The duration becomes greater than the time.
        case whenDurationBecomesGreaterThan(CMTime)
        /// The duration becomes greater than or equal to the time.
        case whenDurationBecomesGreaterThanOrEqualTo(CMTime)
        /// The minimum presentation timestamp changes.
        case whenMinPresentationTimeStampChanges
        /// The maximum presentation timestamp changes.
        case whenMaxPresentationTimeStampChanges
        /// The head buffer becomes ready, so that `dequeueIfDataReady()` would return it.
        case whenDataBecomesReady
        /// The queue becomes marked with the end of data and empty (`isAtEndOfData`).
        case whenEndOfDataReached
        /// The queue is reset.
        case whenReset
        /// The buffer count becomes less than the number.
        case whenBufferCountBecomesLessThan(CMItemCount)
        /// The buffer count becomes greater than the number.
        case whenBufferCountBecomesGreaterThan(CMItemCount)
    }

    /// Installs a trigger that calls `body` each time `condition` becomes true, on the thread
    /// that changed the queue, with the queue's lock held; it calls it at once when the
    /// condition is already true. Without a body, test the condition with `testTrigger(_:)`.
    ///
    /// Throws `CMBufferQueue.Error.badTriggerDuration` for a duration that is not numeric or
    /// has an epoch.
    public func installTrigger(condition: TriggerCondition, _ body: CMBufferQueueTriggerHandler? = nil) throws -> TriggerToken {
        var token: TriggerToken?
        try throwIfError(install(Trigger(condition: condition, handler: body), tokenOut: &token))
        return token!
    }

    /// Removes a trigger. Throws `CMBufferQueue.Error.invalidTriggerToken` when it is not one of
    /// this queue's.
    public func removeTrigger(_ triggerToken: TriggerToken) throws {
        try throwIfError(removeTriggerStatus(triggerToken))
    }

    /// Whether the trigger's condition holds now; false for the conditions that are events
    /// (presentation timestamp changes, reset) and for a token not of this queue.
    public func testTrigger(_ triggerToken: TriggerToken) -> Bool {
        lock.withLock {
            triggers.first { $0.token == triggerToken }.map { $0.holds(in: observe()) } ?? false
        }
    }

    // MARK: Internals

    /// What the trigger conditions look at, read at one moment.
    struct Observation {
        var duration: CMTime
        var count: CMItemCount
        var minPresentationTimeStamp: CMTime
        var maxPresentationTimeStamp: CMTime
        var headIsReady: Bool
        var isAtEndOfData: Bool
    }

    /// The queue as the triggers see it. Called with the lock held.
    func observe() -> Observation {
        Observation(duration: totalDuration, count: entries.count,
                    minPresentationTimeStamp: extreme(handlers.getPresentationTimeStamp, <),
                    maxPresentationTimeStamp: extreme(handlers.getPresentationTimeStamp, >),
                    headIsReady: entries.first.map { handlers.isDataReady?($0.buffer) ?? true } ?? false,
                    isAtEndOfData: endOfDataMarked && entries.isEmpty)
    }

    /// An installed trigger; its address is its token.
    final class Trigger {
        let condition: TriggerCondition
        let handler: CMBufferQueueTriggerHandler?
        /// Whether the condition held after the last change, so that it fires only on becoming true.
        var held = false

        init(condition: TriggerCondition, handler: CMBufferQueueTriggerHandler?) {
            self.condition = condition
            self.handler = handler
        }

        var token: TriggerToken { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

        /// Whether a duration condition's time is one the queue can compare with.
        var isValid: Bool {
            switch condition {
            case .whenDurationBecomesLessThan(let time), .whenDurationBecomesLessThanOrEqualTo(let time),
                 .whenDurationBecomesGreaterThan(let time), .whenDurationBecomesGreaterThanOrEqualTo(let time):
                time.isNumeric && time.epoch == 0
            default: true
            }
        }

        /// Whether the condition holds in `queue`; false for the conditions that are events.
        func holds(in queue: Observation) -> Bool {
            switch condition {
            case .whenDurationBecomesLessThan(let time): CMTimeCompare(queue.duration, time) < 0
            case .whenDurationBecomesLessThanOrEqualTo(let time): CMTimeCompare(queue.duration, time) <= 0
            case .whenDurationBecomesGreaterThan(let time): CMTimeCompare(queue.duration, time) > 0
            case .whenDurationBecomesGreaterThanOrEqualTo(let time): CMTimeCompare(queue.duration, time) >= 0
            case .whenDataBecomesReady: queue.headIsReady
            case .whenEndOfDataReached: queue.isAtEndOfData
            case .whenBufferCountBecomesLessThan(let count): queue.count < count
            case .whenBufferCountBecomesGreaterThan(let count): queue.count > count
            case .whenMinPresentationTimeStampChanges, .whenMaxPresentationTimeStampChanges, .whenReset: false
            }
        }

        /// Whether a change of the queue from `before` to `after` (a reset when `isReset`) fires
        /// the trigger; records whether the condition now holds.
        func fires(before: Observation, after: Observation, isReset: Bool) -> Bool {
            switch condition {
            case .whenMinPresentationTimeStampChanges:
                return !Self.same(before.minPresentationTimeStamp, after.minPresentationTimeStamp)
            case .whenMaxPresentationTimeStampChanges:
                return !Self.same(before.maxPresentationTimeStamp, after.maxPresentationTimeStamp)
            case .whenReset:
                return isReset
            default:
                let holds = holds(in: after)
                defer { held = holds }
                return holds && !held
            }
        }

        /// Whether two timestamps are the same, invalid ones included.
        private static func same(_ lhs: CMTime, _ rhs: CMTime) -> Bool {
            lhs.isValid == rhs.isValid && (!lhs.isValid || CMTimeCompare(lhs, rhs) == 0)
        }
    }

    /// Installs `trigger`, writes its token, and calls it when its condition already holds.
    func install(_ trigger: Trigger, tokenOut: UnsafeMutablePointer<TriggerToken?>?) -> OSStatus {
        guard trigger.isValid else { return kCMBufferQueueError_BadTriggerDuration }
        return lock.withLock {
            trigger.held = trigger.holds(in: observe())
            triggers.append(trigger)
            tokenOut?.pointee = trigger.token
            if trigger.held { call([trigger]) }
            return noErr
        }
    }

    /// Removes the trigger with `token`; `kCMBufferQueueError_InvalidTriggerToken` when there is none.
    func removeTriggerStatus(_ token: TriggerToken) -> OSStatus {
        lock.withLock {
            guard let index = triggers.firstIndex(where: { $0.token == token }) else { return kCMBufferQueueError_InvalidTriggerToken }
            triggers.remove(at: index)
            return noErr
        }
    }

    /// Calls the triggers that a change from `before` to now fires. Called with the lock held.
    func fireTriggers(before: Observation, isReset: Bool) {
        let after = observe()
        call(triggers.filter { $0.fires(before: before, after: after, isReset: isReset) })
    }

    /// Calls the handlers of `fired`, refusing changes to the queue meanwhile. Called with the
    /// lock held.
    private func call(_ fired: [Trigger]) {
        let wasCalling = callingTriggers
        callingTriggers = true
        defer { callingTriggers = wasCalling }
        for trigger in fired { trigger.handler?(trigger.token) }
    }
}
