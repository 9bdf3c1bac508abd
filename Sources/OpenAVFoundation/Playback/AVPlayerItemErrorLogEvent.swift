import Foundation

/// One entry of a player item's error log: an error that stopped the item (loading it, or
/// reading it while it played), as the framework reported it.
open class AVPlayerItemErrorLogEvent: NSObject, NSCopying, @unchecked Sendable {
    /// When the error happened. Corresponds to "date" and "time".
    public let date: Date?
    /// The URI of the item (its asset's URL). Corresponds to "s-uri".
    public let uri: String?
    /// The host of the server, for an item on the network. Corresponds to "s-ip".
    public let serverAddress: String?
    /// A GUID of the item's playback session. Corresponds to "cs-guid".
    public let playbackSessionID: String?
    /// The error's code: the cause's where there is one (CoreMedia's code of an HTTP refusal,
    /// such as -12938 for 404), else the `AVError`'s. Corresponds to "status".
    public let errorStatusCode: Int
    /// The domain of `errorStatusCode` ("CoreMediaErrorDomain", `NSURLErrorDomain`,
    /// `AVFoundationErrorDomain`, …). Corresponds to "domain".
    public let errorDomain: String
    /// What went wrong, in words ("HTTP 404: File Not Found"). Corresponds to "comment".
    public let errorComment: String?
    /// The HTTP response's header fields: not kept (nil).
    public var allHTTPResponseHeaderFields: [String: String]? { nil }

    /// An event for `error` on the item at `url`, now.
    init(error: Error, url: URL?, sessionID: String) {
        let reported = error as NSError
        let cause = reported.userInfo[NSUnderlyingErrorKey] as? NSError ?? reported
        date = Date()
        uri = url?.absoluteString
        serverAddress = url.flatMap { $0.isFileURL ? nil : $0.host }
        playbackSessionID = sessionID
        errorStatusCode = cause.code
        errorDomain = cause.domain
        errorComment = cause.localizedDescription
        super.init()
    }

    /// The event itself: an event does not change.
    open func copy(with zone: NSZone? = nil) -> Any { self }
}
