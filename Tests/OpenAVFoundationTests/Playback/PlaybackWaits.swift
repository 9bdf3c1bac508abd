import Foundation
import OpenAVFoundation
import TestSupport

extension AVPlayerItem {
    /// Waits until the item's status is known (ready to play or failed), at most `timeout`
    /// seconds, through an observation of `status`; the status then.
    func knownStatus(within timeout: TimeInterval = 10) async -> Status {
        _ = await waitUntil(timeout: timeout) { done in
            observe(\.status, options: [.initial]) { item, _ in
                if item.status != .unknown { done() }
            }.invalidate
        }
        return status
    }
}

extension AVPlayer {
    /// Waits until playback reaches `seconds` of the current item, at most `timeout` seconds,
    /// through a boundary time observer; whether it did.
    func reaches(_ seconds: Double, within timeout: TimeInterval = 10) async -> Bool {
        await waitUntil(timeout: timeout) { done in
            let boundary = addBoundaryTimeObserver(forTimes: [NSValue(time: CMTime(seconds: seconds, preferredTimescale: 600))],
                                                   queue: .global()) { done() }
            // A boundary already behind the player is never crossed: it has been reached.
            if currentTime().seconds >= seconds { done() }
            return { self.removeTimeObserver(boundary) }
        }
    }

    /// Waits until the current item is no longer `item`, at most `timeout` seconds, through an
    /// observation of `currentItem`; whether it changed.
    func leaves(_ item: AVPlayerItem?, within timeout: TimeInterval = 10) async -> Bool {
        await waitUntil(timeout: timeout) { done in
            observe(\.currentItem, options: [.initial]) { player, _ in
                if player.currentItem !== item { done() }
            }.invalidate
        }
    }
}
