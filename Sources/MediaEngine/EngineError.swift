import CFFmpeg

/// A failure inside the media engine: FFmpeg's error code and message and what was being done.
/// `OpenAVFoundation` turns it into an `AVError` at the public boundary.
package struct EngineError: Error, CustomStringConvertible, Sendable {
    /// FFmpeg's (negative) error code, or 0 when the failure is not FFmpeg's.
    package let code: Int32
    /// What the engine was doing, such as "opening /tmp/a.mov".
    package let operation: String
    /// FFmpeg's own message for `code`, or a message of ours.
    package let message: String
    /// Whether the failure was reading from the network (an `http`/`https` URL), where a POSIX
    /// code means a connection problem rather than a file's.
    package var isNetwork = false
    /// The error a byte source was given for its failure (an asset resource loader delegate's),
    /// which the public error carries underneath; nil for FFmpeg's and the system's failures.
    package var cause: (any Error)?

    /// Whether the code is FFmpeg's bare -1, which many of its functions (seeking, demuxers,
    /// decoders) return for a failure they do not explain. It equals `AVERROR(EPERM)`, but only
    /// a file being opened means "operation not permitted" by it.
    package let isUnexplained: Bool

    /// Wraps FFmpeg error `code` returned while doing `operation`; `opensFile` says that the
    /// operation opened a file or connection, where a code is the system's error.
    package init(ffmpegCode code: Int32, operation: String, opensFile: Bool = false) {
        self.code = code
        self.operation = operation
        isUnexplained = code == -1 && !opensFile
        var buffer = [CChar](repeating: 0, count: 256)
        if isUnexplained {
            message = "FFmpeg failed without giving a reason"
        } else if av_strerror(code, &buffer, buffer.count) == 0 {
            message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        } else {
            message = "FFmpeg error \(code)"
        }
    }

    /// A failure that is not an FFmpeg error code.
    package init(operation: String, message: String) {
        self.code = 0
        isUnexplained = false
        self.operation = operation
        self.message = message
    }

    /// A read given up because it was cancelled, as FFmpeg's interrupted reads are (`AVERROR_EXIT`).
    package static func cancelled(_ operation: String) -> EngineError {
        EngineError(ffmpegCode: cffmpeg_averror_exit(), operation: operation)
    }

    /// A wait for bytes that made no progress within its timeout, as a network read that stalls
    /// (`ETIMEDOUT`).
    package static func timedOut(_ operation: String) -> EngineError {
        var error = EngineError(ffmpegCode: cffmpeg_averror(ETIMEDOUT), operation: operation)
        error.isNetwork = true
        return error
    }

    /// Whether FFmpeg reported the end of the input.
    package var isEndOfFile: Bool { code == cffmpeg_averror_eof() }

    /// Whether FFmpeg reported corrupt or unreadable data.
    package var isInvalidData: Bool { code == cffmpeg_averror_invaliddata() }

    /// Whether a decoder's failure on a packet is the packet's fault: anything but running out
    /// of memory. FFmpeg's decoders report broken data as `AVERROR_INVALIDDATA` and, in places,
    /// as a bare -1 or another code; a corrupt packet is skipped as `ffmpeg` skips it.
    package var isCorruptPacket: Bool { code < 0 && code != -ENOMEM }

    /// Whether FFmpeg has no decoder for the codec.
    package var isDecoderNotFound: Bool { code == cffmpeg_averror_decoder_not_found() }

    /// The HTTP status a server refused the request with (400, 401, 403, 404, 500, or 499 for
    /// another 4xx), or nil.
    package var httpStatus: Int? {
        guard code < 0 else { return nil }
        return [400, 401, 403, 404, 500, 499].first { code == cffmpeg_averror_http_status(Int32($0)) }
    }

    /// "operation: message".
    package var description: String { "\(operation): \(message)" }
}

/// Calls an FFmpeg function returning a status code, throwing `EngineError` when it is negative;
/// returns non-negative results unchanged.
@discardableResult
package func ffmpegCheck(_ status: Int32, _ operation: @autoclosure () -> String) throws(EngineError) -> Int32 {
    if status < 0 { throw EngineError(ffmpegCode: status, operation: operation()) }
    return status
}
