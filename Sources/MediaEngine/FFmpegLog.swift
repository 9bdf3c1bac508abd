import CFFmpeg
import Foundation
import Logging

/// Routes FFmpeg's log messages to swift-log (label "OpenAVFoundation.FFmpeg", at debug
/// level) instead of standard error: the library prints nothing itself. Installed once, by the first demuxer,
/// decoder, encoder, muxer, image encoder or pixel converter.
package enum FFmpegLog {
    /// The logger FFmpeg's messages go to.
    static let logger = Logger(label: "OpenAVFoundation.FFmpeg")

    /// Installs the callback (once; later calls do nothing).
    package static let install: Void = {
        av_log_set_callback { _, level, format, arguments in
            guard level <= AV_LOG_INFO, let format, let arguments else { return }
            var buffer = [CChar](repeating: 0, count: 1024)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !message.isEmpty else { return }
            // FFmpeg's own errors reach callers as AVErrors; its messages are diagnostics, kept
            // below swift-log's default threshold unless FFmpeg is about to abort.
            if level <= AV_LOG_FATAL {
                FFmpegLog.logger.critical("\(message)")
            } else {
                FFmpegLog.logger.debug("\(message)", metadata: ["ffmpegLevel": "\(level)"])
            }
        }
    }()
}
