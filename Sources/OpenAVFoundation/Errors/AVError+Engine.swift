import Foundation
import MediaEngine

extension AVError {
    /// The `AVError` for an engine failure. A missing or unreadable file gives
    /// `.failedToLoadMediaData` with the POSIX error underneath; data FFmpeg cannot recognise
    /// gives `.fileFormatNotRecognized`; a codec without a decoder gives `.decoderNotFound`; a
    /// file that exists where one is to be made gives `.fileAlreadyExists`; a network failure
    /// gives what `init(network:fallback:)` says; a resource loader delegate's error gives
    /// `.unknown` with that error underneath, as Apple's loader reports one; anything else
    /// gives `fallback` (such as `.failedToParse` or `.decodeFailed`).
    package init(_ error: EngineError, fallback: AVError.Code) {
        let reason = error.description
        if let cause = error.cause {
            self.init(.unknown, reason: reason, underlying: cause)
        } else if error.isNetwork, let network = AVError(network: error, fallback: fallback) {
            self = network
        } else if error.code == -EEXIST {
            self.init(.fileAlreadyExists, reason: reason)
        } else if error.code < 0, !error.isUnexplained, let posix = Self.posixCode(error.code) {
            let underlying = NSError(domain: NSPOSIXErrorDomain, code: Int(posix),
                                     userInfo: [NSLocalizedDescriptionKey: error.message])
            self.init(.failedToLoadMediaData, reason: reason, underlying: underlying)
        } else if error.isInvalidData && fallback != .decodeFailed {
            self.init(.fileFormatNotRecognized, reason: reason)
        } else if error.isDecoderNotFound {
            self.init(.decoderNotFound, reason: reason)
        } else {
            self.init(fallback, reason: reason)
        }
    }

    /// The POSIX errno inside an FFmpeg error code for file access problems, or nil.
    private static func posixCode(_ code: Int32) -> Int32? {
        let fileErrors: [Int32] = [ENOENT, EACCES, EPERM, EISDIR, ENOTDIR, EIO, ENXIO, ELOOP, ENAMETOOLONG, EMFILE]
        return fileErrors.first { -$0 == code }
    }
}
