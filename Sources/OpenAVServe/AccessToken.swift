import Foundation
import Hummingbird

/// The secret every request to `openav serve` must carry: in the `token` query parameter of
/// the address the command prints, then in a cookie the first such visit sets. Without it the
/// answer is 401 Unauthorized (WebSocket upgrades too: `WebSocketGate` hands them here).
///
/// The cookie is `HttpOnly` (scripts cannot read it), `SameSite=Strict`, and named after the
/// server's port (`openav-token-8080`), since cookies do not tell ports apart: two servers on
/// one host keep their own, and another port's server never gets this one's by its name. A
/// browser sends a cookie to every port of a host, so a request with an `Origin` header (which
/// browsers send on WebSocket upgrades, on every request that changes something and on every
/// script's request to another origin) must name this host and port: 403 otherwise. Programs
/// that send no `Origin` (curl) are judged by the token alone.
struct AccessToken<Context: RequestContext>: RouterMiddleware {
    /// The token: 32 hexadecimal digits (128 bits from the system's secure generator).
    let value: String

    /// A new random token.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// The cookie's name for a server reached at `host` (the `Host` header: name and port).
    static func cookieName(host: String?) -> String {
        let port = host.flatMap { $0.split(separator: ":").last.flatMap { Int($0) } } ?? 80
        return "openav-token-\(port)"
    }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority
        guard let carrier = check(target: request.uri.description, cookieHeaders: request.headers[values: .cookie], host: host) else {
            throw HTTPError(.unauthorized, message: "This openav serve page needs its token: open the address the command printed.")
        }
        guard Self.isSameOrigin(request.headers[.origin], host: host) else {
            throw HTTPError(.forbidden, message: "Only this openav serve page may use it.")
        }
        var response = try await next(request, context)
        if carrier == .query {
            response.setCookie(Cookie(name: Self.cookieName(host: host), value: value, path: "/", httpOnly: true, sameSite: .strict))
        }
        return response
    }

    /// Where a request with this target (path and query) and these `Cookie` headers, sent to
    /// `host`, carries the token; nil when it does not.
    func check(target: String, cookieHeaders: [String], host: String?) -> Carrier? {
        let query = URLComponents(string: target)?.queryItems ?? []
        if query.contains(where: { $0.name == "token" && matches($0.value ?? "") }) { return .query }
        let name = Self.cookieName(host: host) + "="
        let cookies = cookieHeaders.flatMap { $0.split(separator: ";") }.map { $0.trimmingCharacters(in: .whitespaces) }
        if cookies.contains(where: { $0.hasPrefix(name) && matches(String($0.dropFirst(name.count))) }) { return .cookie }
        return nil
    }

    /// Whether an `Origin` header (nil: none, a program that is not a browser) is this server,
    /// reached at `host`.
    static func isSameOrigin(_ origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        guard let host else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// Where a request carries the token.
    enum Carrier {
        case query
        case cookie
    }

    /// Compares in time that does not depend on where the strings differ.
    private func matches(_ given: String) -> Bool {
        let expected = Array(value.utf8), candidate = Array(given.utf8)
        guard expected.count == candidate.count else { return false }
        return zip(expected, candidate).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
