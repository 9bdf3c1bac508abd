import Foundation
import Testing
@testable import HostSystem

/// The locked-value box: writes from several threads at once are neither lost nor torn.
@Suite(.timeLimit(.minutes(10))) struct LockedTests {
    private struct Counts {
        var first = 0
        var second = 0
    }

    /// Eight threads each add 10 000 to two members in one step; every sum arrives, and no
    /// reader ever sees the two members differ.
    @Test func keepsEveryWriteAndShowsNoHalfWrite() {
        let box = Locked(Counts())
        let torn = Locked(false)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for _ in 0..<10_000 {
                if index % 2 == 0 {
                    box.withLock { counts in
                        counts.first += 1
                        counts.second += 1
                    }
                } else {
                    let counts = box.withLock { $0 }
                    if counts.first != counts.second { torn.wrappedValue = true }
                    box.withLock { counts in
                        counts.first += 1
                        counts.second += 1
                    }
                }
            }
        }
        #expect(box.first == 80_000)
        #expect(box.second == 80_000)
        #expect(!torn.wrappedValue)
    }

    /// The wrapper form: a property declared `@Locked` reads what was last written.
    @Test func wrapsOneProperty() {
        final class Owner: @unchecked Sendable {
            @Locked var value = 1
        }
        let owner = Owner()
        owner.value = 2
        owner.$value.withLock { $0 += 1 }
        #expect(owner.value == 3)
    }
}
