import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Turns a WebSocket upgrade request that lacks the token, or comes from another site's page,
/// into a plain request, before Hummingbird's upgrade sees it (which answers every refused
/// upgrade with a bare 400): the router's `AccessToken` middleware then answers it, 401 or 403,
/// as it answers any request. A channel handler just after the HTTP request decoder, for the
/// connection's first request only (the only one that can be upgraded).
final class WebSocketGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let token: AccessToken<BasicWebSocketRequestContext>

    init(token: AccessToken<BasicWebSocketRequestContext>) {
        self.token = token
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let host = head.headers.first(name: "host")
        let admitted = token.check(target: head.uri, cookieHeaders: head.headers["cookie"], host: host) != nil
            && AccessToken<BasicWebSocketRequestContext>.isSameOrigin(head.headers.first(name: "origin"), host: host)
        if !admitted {
            head.headers.remove(name: "upgrade")
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with WebSocket upgrades through `router`, those without the token or from
    /// another site's page answered as plain requests (401, 403).
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

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
