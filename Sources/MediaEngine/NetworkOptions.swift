import CFFmpeg
import Foundation

/// How media is fetched from an `http:` or `https:` URL (FFmpeg's http, tls and hls protocols):
/// the request's user agent and extra header fields, and how long a connection or a read may
/// stall before it fails.
package struct NetworkOptions: Sendable, Equatable {
    /// The `User-Agent` header field, or nil for FFmpeg's own ("Lavf/…").
    package var userAgent: String?
    /// Extra header fields sent with every request (the playlist's and each segment's too).
    package var headerFields: [String: String]
    /// How long connecting, or waiting for the next bytes, may take before the read fails with
    /// `ETIMEDOUT`.
    package var timeout: Duration

    /// Where the bytes of a URL with a scheme FFmpeg has no protocol for come from (an asset's
    /// resource loader), or nil: such URLs cannot be opened.
    package var customSchemes: (any ByteSourceFactory)?

    /// How many times a live playlist is reloaded without a new segment before its stream ends.
    package static let unchangedPlaylistReloads = 3

    /// The default: FFmpeg's user agent, no extra fields, a 30 second timeout.
    package static let standard = NetworkOptions(userAgent: nil, headerFields: [:], timeout: .seconds(30))

    package init(userAgent: String?, headerFields: [String: String], timeout: Duration, customSchemes: (any ByteSourceFactory)? = nil) {
        self.userAgent = userAgent
        self.headerFields = headerFields
        self.timeout = timeout
        self.customSchemes = customSchemes
    }

    /// Equal settings, and the same source of custom-scheme bytes.
    package static func == (lhs: NetworkOptions, rhs: NetworkOptions) -> Bool {
        lhs.userAgent == rhs.userAgent && lhs.headerFields == rhs.headerFields && lhs.timeout == rhs.timeout
            && lhs.customSchemes === rhs.customSchemes
    }

    /// FFmpeg's options for opening a network URL with these settings; the caller frees the
    /// dictionary.
    func dictionary() -> OpaquePointer? {
        var options: OpaquePointer?
        let microseconds = timeout.components.seconds * 1_000_000 + timeout.components.attoseconds / 1_000_000_000_000
        // rw_timeout bounds every read of the connection; timeout bounds the socket's connect.
        av_dict_set(&options, "rw_timeout", String(microseconds), 0)
        av_dict_set(&options, "timeout", String(microseconds), 0)
        // A live playlist reloaded three times without a new segment ends (FFmpeg's default is a
        // thousand reloads: over half an hour of waiting on a stream that stopped).
        av_dict_set(&options, "m3u8_hold_counters", String(Self.unchangedPlaylistReloads), 0)
        if let userAgent { av_dict_set(&options, "user_agent", userAgent, 0) }
        if !headerFields.isEmpty {
            let lines = headerFields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
            av_dict_set(&options, "headers", lines, 0)
        }
        return options
    }

    /// The source of `url`'s bytes when it has a custom scheme these options serve, else nil.
    package func customSource(for url: URL) -> (any ByteSource)? {
        guard !url.isFileURL, !Self.isNetworkURL(url), let customSchemes, customSchemes.serves(url) else { return nil }
        return customSchemes.makeSource(for: url, timeout: timeout)
    }

    /// Whether `url` is fetched over the network: an `http` or `https` URL.
    package static func isNetworkURL(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "")
    }
}
