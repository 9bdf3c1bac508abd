import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Answers a WebSocket upgrade request without the token with 401 Unauthorized, before
/// Hummingbird's upgrade (which answers every refused upgrade with 400) sees it: a channel
/// handler just after the HTTP request decoder, for the connection's first request only (the
/// only one that can be upgraded); every other request goes on to the router and its
/// `AccessToken` middleware.
final class WebSocketGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let token: AccessToken<BasicWebSocketRequestContext>
    private var refused = false

    init(token: AccessToken<BasicWebSocketRequestContext>) {
        self.token = token
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        guard case .head(let head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let isUpgrade = head.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
        guard isUpgrade, token.check(target: head.uri, cookieHeaders: head.headers["cookie"]) == nil else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        refused = true
        let body = AccessToken<BasicWebSocketRequestContext>.refusal
        let headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "\(body.utf8.count)"),
                                   ("Connection", "close")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .unauthorized, headers: headers))),
                      promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with WebSocket upgrades through `router`, upgrades without the token answered 401.
    static func http1WebSocketUpgrade(router: Router<BasicWebSocketRequestContext>,
                                      token: AccessToken<BasicWebSocketRequestContext>) -> HTTPServerBuilder {
        let webSocketResponder = router.buildResponder()
        return HTTPServerBuilder { responder in
            GatedChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                              configuration: .init()),
                         token: token)
        }
    }
}

/// Hummingbird's HTTP/1 and WebSocket channel with a `WebSocketGate` after its request decoder.
private struct GatedChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let token: AccessToken<BasicWebSocketRequestContext>

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(WebSocketGate(token: token), position: .after(decoder))
            return value
        }
    }

    /// Hummingbird logs a connection the gate closed as an upgrade error: connection errors
    /// are not the user's concern, so they are not logged.
    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        var quiet = logger
        quiet.logLevel = .critical
        await inner.handle(value: value, logger: quiet)
    }
}
