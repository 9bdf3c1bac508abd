import Foundation

/// Nice values of the threads that work in the background of real-time ones (a recording's
/// encoders, the newest-picture workers), relative to the process's own: a process started with
/// `nice -n -10` keeps them ahead of the rest of the machine by as much as it keeps itself.
package enum ThreadPriority {
    /// Sets the calling thread's nice value `steps` above the process's (its main thread's), at
    /// most 19. On Linux a nice value is the thread's own, and the threads it starts inherit it.
    package static func lowerCallingThread(by steps: Int32) {
        errno = 0
        let process = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid()))
        let base = errno == 0 ? process : 0
        // `who` 0 is the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, base + steps))
    }
}
