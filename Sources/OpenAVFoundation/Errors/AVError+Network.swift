import Foundation
import MediaEngine

extension AVError {
    /// The `AVError` for a failure fetching media over HTTP(S), as Apple's framework reports
    /// them: `.contentIsUnavailable` when loading (`fallback` `.failedToParse`), and
    /// `.noLongerPlayable` once reading was under way, with the cause underneath:
    /// - a server refusing the request: the HTTP status, in `CoreMediaErrorDomain` with
    ///   CoreMedia's codes (404 is -12938, "HTTP 404: File Not Found");
    /// - a refused connection: `URLError.cannotConnectToHost`;
    /// - no bytes within the timeout (`AVURLAssetHTTPTimeoutIntervalKey`): `URLError.timedOut`;
    /// - a connection that ends before the file does: `URLError.networkConnectionLost`.
    ///
    /// Nil for failures that are not the network's (the data itself is bad).
    init?(network error: EngineError, fallback: AVError.Code) {
        let code: AVError.Code = fallback == .failedToParse ? .contentIsUnavailable : .noLongerPlayable
        let underlying: NSError
        if let status = error.httpStatus {
            let coreMediaCodes = [400: -12666, 401: -12937, 403: -12660, 404: -12938]
            underlying = NSError(domain: "CoreMediaErrorDomain", code: coreMediaCodes[status] ?? -12666,
                                 userInfo: [NSLocalizedDescriptionKey: "HTTP \(status): \(error.message)"])
        } else if error.code == -ECONNREFUSED || error.code == -EHOSTUNREACH || error.code == -ENETUNREACH {
            underlying = URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: error.message]) as NSError
        } else if error.code == -ETIMEDOUT {
            underlying = URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: error.message]) as NSError
        } else if error.code == -ECONNRESET || error.code == -EIO || error.code == -EPIPE || error.isEndOfFile {
            underlying = URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: error.message]) as NSError
        } else {
            return nil
        }
        self.init(code, reason: error.description, underlying: underlying)
    }
}
