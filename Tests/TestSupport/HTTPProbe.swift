import Foundation

/// One HTTP request as a test makes it, by `Tests/Fixtures/Server/http_request.py` (Python's
/// `http.client`: Foundation on Linux fetches no http URL without FoundationNetworking), the
/// path sent exactly as given.
public enum HTTPProbe {
    /// The answer to a request.
    public struct Answer {
        /// The status (101 for an accepted WebSocket upgrade).
        public let status: Int
        /// The headers, by lowercase name.
        public let headers: [String: String]
        /// The body.
        public let body: String
    }

    /// `method` (GET, POST, DELETE…, or WEBSOCKET for an upgrade request) on `url`, with the
    /// `Cookie` header `cookie`, a JSON `body` and the `Origin` header `origin` when given.
    public static func send(_ method: String, _ url: String, cookie: String? = nil, body: String? = nil,
                            origin: String? = nil) throws -> Answer {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Server/http_request.py")
        let text = String(decoding: try Fixtures.run("python3", [script.path, method, url, cookie ?? "", body ?? "", origin ?? ""]),
                          as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        let headers = lines.count > 1 ? (try? JSONSerialization.jsonObject(with: Data(lines[1].utf8))) as? [String: String] : nil
        return Answer(status: Int(lines.first ?? "") ?? 0, headers: headers ?? [:], body: lines.count > 2 ? String(lines[2]) : "")
    }

    /// The status and body of `send`'s answer.
    public static func request(_ method: String, _ url: String, cookie: String? = nil, body: String? = nil,
                               origin: String? = nil) throws -> (status: Int, body: String) {
        let answer = try send(method, url, cookie: cookie, body: body, origin: origin)
        return (answer.status, answer.body)
    }
}
