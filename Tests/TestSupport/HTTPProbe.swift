import Foundation

/// One HTTP request as a test makes it, by `Tests/Fixtures/Server/http_request.py` (Python's
/// `http.client`: Foundation on Linux fetches no http URL without FoundationNetworking), the
/// path sent exactly as given.
public enum HTTPProbe {
    /// `method` (GET, POST, DELETE…, or WEBSOCKET for an upgrade request) on `url` with the
    /// `Cookie` header `cookie` and a JSON `body`: the status (101 for an accepted upgrade) and
    /// the answer's body.
    public static func request(_ method: String, _ url: String, cookie: String? = nil,
                               body: String? = nil) throws -> (status: Int, body: String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Server/http_request.py")
        let text = String(decoding: try Fixtures.run("python3", [script.path, method, url, cookie ?? ""] + (body.map { [$0] } ?? [])), as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        return (Int(lines.first ?? "") ?? 0, lines.count > 1 ? String(lines[1]) : "")
    }
}
