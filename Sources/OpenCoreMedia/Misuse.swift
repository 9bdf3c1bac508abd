/// The rules of the API whose breaking is a programmer error, each with the message the process
/// stops with: `Misuse.check(_:_:)` and `Misuse.fail(_:)` stop the process as `precondition`
/// and `preconditionFailure` do, with a message that names the type and the rule.
///
/// Every rule of this module is here, grouped by the type whose rule it is.
enum Misuse {
    // MARK: AudioBufferList

    case audioBufferListWithoutRoom
    /// A buffer index (`index`) outside the list.
    case audioBufferIndexOutOfRange(index: Int)

    // MARK: CMTimebase

    /// `CMTimebase.source` set to a source the timebase refuses, with the status it returned.
    case timebaseSourceRefused(status: OSStatus)

    // MARK: CMBufferQueue

    /// `CMBufferQueue.Handlers` built without the required `getDuration` handler.
    case bufferQueueHandlersWithoutDuration

    /// The message the process stops with: the type, and the rule broken.
    var message: String {
        switch self {
        // AudioBufferList
        case .audioBufferListWithoutRoom: "AudioBufferList needs room for at least one buffer"
        case .audioBufferIndexOutOfRange(let index): "AudioBufferList index \(index) out of range"
        // CMTimebase
        case .timebaseSourceRefused(let status):
            "CMTimebase.source must be a clock or a timebase that is not driven by this one, on a timebase that is not read-only (status \(status))"
        // CMBufferQueue
        case .bufferQueueHandlersWithoutDuration: "CMBufferQueue.Handlers needs a getDuration handler"
        }
    }

    /// Stops the process with `rule`'s message unless `condition` holds, as `precondition` does
    /// (the message names the caller's file and line).
    static func check(_ condition: @autoclosure () -> Bool, _ rule: @autoclosure () -> Misuse,
                      file: StaticString = #file, line: UInt = #line) {
        precondition(condition(), rule().message, file: file, line: line)
    }

    /// Stops the process with `rule`'s message, as `preconditionFailure` does.
    static func fail(_ rule: Misuse, file: StaticString = #file, line: UInt = #line) -> Never {
        preconditionFailure(rule.message, file: file, line: line)
    }
}
