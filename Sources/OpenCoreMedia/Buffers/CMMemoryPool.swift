import Foundation
import OpenCoreVideo
import Synchronization

/// A pool of recently freed large blocks of memory, so that allocating the same size again
/// (a block buffer per encoded frame, for instance) reuses one instead of asking the system.
///
/// Use its allocator (`CMMemoryPoolGetAllocator`) as a block buffer's block allocator. Blocks
/// are whole pages; a block not reused within the age-out period (half a second, or
/// `kCMMemoryPoolOption_AgeOutPeriod`) is freed the next time the allocator is used. Once the
/// pool is invalidated or gone, its allocator goes on allocating and freeing without pooling.
///
/// Differs from Apple: a Swift class rather than a CoreFoundation type.
public final class CMMemoryPool: @unchecked Sendable {
    let storage: CMMemoryPoolStorage
    let allocator: CFAllocator

    init(ageOutNanoseconds: UInt64) {
        let storage = CMMemoryPoolStorage(ageOutNanoseconds: ageOutNanoseconds)
        self.storage = storage
        // The allocator holds the storage weakly: it may outlive the pool, and then only allocates.
        allocator = CFAllocator(allocate: { [weak storage] byteCount in
            storage?.take(byteCount) ?? CMMemoryPoolStorage.allocate(byteCount)
        }, deallocate: { [weak storage] pointer, byteCount in
            if let storage { storage.keep(pointer, byteCount) } else { CMMemoryPoolStorage.free(pointer) }
        })
    }

    deinit { storage.invalidate() }

    /// The number of freed blocks the pool holds for reuse.
    package var heldBlockCount: Int { storage.heldCount }
}

/// The blocks a pool holds, by size in pages, and when each came back. Thread-safe.
final class CMMemoryPoolStorage: @unchecked Sendable {
    struct Held {
        let pointer: UnsafeMutableRawPointer
        let returnedAt: UInt64
    }

    /// Guarded by the mutex: the pointers are the pool's, never shared while held.
    struct State: @unchecked Sendable {
        var held: [Int: [Held]] = [:]
        var isValid = true
    }

    private let state = Mutex(State())
    private let ageOutNanoseconds: UInt64

    init(ageOutNanoseconds: UInt64) {
        self.ageOutNanoseconds = ageOutNanoseconds
    }

    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// `byteCount` rounded up to whole pages.
    static func pages(_ byteCount: Int) -> Int { (max(byteCount, 1) + pageSize - 1) / pageSize * pageSize }

    /// A new page-aligned block of whole pages.
    static func allocate(_ byteCount: Int) -> UnsafeMutableRawPointer {
        .allocate(byteCount: pages(byteCount), alignment: pageSize)
    }

    static func free(_ pointer: UnsafeMutableRawPointer) { pointer.deallocate() }

    /// A held block of the same pages if there is one, else a new one; frees what aged out.
    func take(_ byteCount: Int) -> UnsafeMutableRawPointer {
        let reused = state.withLock { state -> UnsafeMutableRawPointer? in
            let freed = ageOut(&state)
            freed.forEach(Self.free)
            return state.held[Self.pages(byteCount)]?.popLast()?.pointer
        }
        return reused ?? Self.allocate(byteCount)
    }

    /// Holds a block that came back, unless the pool is invalid; frees what aged out.
    func keep(_ pointer: UnsafeMutableRawPointer, _ byteCount: Int) {
        let now = CMClock.monotonicNanoseconds()
        let kept = state.withLock { state in
            ageOut(&state).forEach(Self.free)
            guard state.isValid else { return false }
            state.held[Self.pages(byteCount), default: []].append(Held(pointer: pointer, returnedAt: now))
            return true
        }
        if !kept { Self.free(pointer) }
    }

    /// Frees every block held.
    func flush() {
        state.withLock { state in
            state.held.values.joined().forEach { Self.free($0.pointer) }
            state.held = [:]
        }
    }

    /// Stops holding blocks, and frees those held.
    func invalidate() {
        state.withLock { $0.isValid = false }
        flush()
    }

    /// The number of blocks held now.
    var heldCount: Int { state.withLock { $0.held.values.reduce(0) { $0 + $1.count } } }

    /// Removes the blocks held longer than the age-out period and returns their pointers.
    private func ageOut(_ state: inout State) -> [UnsafeMutableRawPointer] {
        let now = CMClock.monotonicNanoseconds()
        var freed: [UnsafeMutableRawPointer] = []
        for (pages, blocks) in state.held {
            let young = blocks.filter { $0.returnedAt + ageOutNanoseconds > now }
            freed += blocks.filter { $0.returnedAt + ageOutNanoseconds <= now }.map(\.pointer)
            state.held[pages] = young.isEmpty ? nil : young
        }
        return freed
    }
}

/// An allocation of one of the pool's internal structures failed.
public let kCMMemoryPoolError_AllocationFailed: OSStatus = -15490
/// A parameter was missing or not valid.
public let kCMMemoryPoolError_InvalidParameter: OSStatus = -15491

/// The options key for how long, in seconds (a number), a freed block stays in the pool.
public let kCMMemoryPoolOption_AgeOutPeriod: CFString = "AgeOutPeriod"

/// Makes a memory pool; `options` may set `kCMMemoryPoolOption_AgeOutPeriod` (default 0.5 s).
public func CMMemoryPoolCreate(options: CFDictionary?) -> CMMemoryPool {
    let seconds = (options?[kCMMemoryPoolOption_AgeOutPeriod] as? NSNumber)?.doubleValue ?? 0.5
    return CMMemoryPool(ageOutNanoseconds: UInt64(min(max(0, seconds), 1e9) * 1e9))
}

/// The pool's allocator, to pass as a block buffer's block allocator.
public func CMMemoryPoolGetAllocator(_ pool: CMMemoryPool) -> CFAllocator {
    pool.allocator
}

/// Frees every block the pool holds.
public func CMMemoryPoolFlush(_ pool: CMMemoryPool) {
    pool.storage.flush()
}

/// Stops the pool from holding blocks and frees those it holds; its allocator goes on
/// allocating without pooling.
public func CMMemoryPoolInvalidate(_ pool: CMMemoryPool) {
    pool.storage.invalidate()
}
