import Foundation
import Hummingbird

/// The secret every request to `openav serve` must carry: in the `token` query parameter of
/// the address the command prints, then in a cookie the first such visit sets. Without it the
/// answer is 401 Unauthorized (for WebSocket upgrades, from `WebSocketGate`).
///
/// The cookie is `HttpOnly` and `SameSite=Strict`: scripts cannot read it and other sites
/// cannot send it, so a page elsewhere cannot start or delete recordings through a browser
/// that has the token.
struct AccessToken<Context: RequestContext>: RouterMiddleware {
    /// The cookie that carries the token after the first visit.
    static var cookieName: String { "openav-token" }

    /// The token: 32 hexadecimal digits (128 bits from the system's secure generator).
    let value: String

    /// A new random token.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
    }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        switch check(target: request.uri.description, cookieHeaders: request.headers[values: .cookie]) {
        case .query:
            var response = try await next(request, context)
            response.setCookie(Cookie(name: Self.cookieName, value: value, path: "/", httpOnly: true, sameSite: .strict))
            return response
        case .cookie:
            return try await next(request, context)
        case nil:
            throw HTTPError(.unauthorized, message: Self.refusal)
        }
    }

    /// Why a request is refused.
    static var refusal: String { "This openav serve page needs its token: open the address the command printed." }

    /// Where a request with this target (path and query) and these `Cookie` headers carries
    /// the token; nil when it does not.
    func check(target: String, cookieHeaders: [String]) -> Carrier? {
        let query = URLComponents(string: target)?.queryItems ?? []
        if query.contains(where: { $0.name == "token" && matches($0.value ?? "") }) { return .query }
        let cookies = cookieHeaders.flatMap { $0.split(separator: ";") }.map { $0.trimmingCharacters(in: .whitespaces) }
        if cookies.contains(where: { $0.hasPrefix(Self.cookieName + "=") && matches(String($0.dropFirst(Self.cookieName.count + 1))) }) {
            return .cookie
        }
        return nil
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
