import Foundation
import Hummingbird

/// The page's files, from the package's resources (`Page/`), read once: nothing is fetched
/// from anywhere else at run time.
struct PageAssets: Sendable {
    /// One file of the page.
    struct Asset: Sendable {
        let bytes: ByteBuffer
        let contentType: String

        /// The file as a response that is never cached and runs no script from elsewhere.
        var response: Response {
            Response(status: .ok, headers: [
                .contentType: contentType,
                .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'self'; img-src 'self' blob:; media-src 'self' blob:",
            ], body: .init(byteBuffer: bytes))
        }
    }

    /// The files by the path they are served at.
    let assets: [(path: String, asset: Asset)]

    init() throws {
        let files = [("/", "index.html"), ("/app.js", "app.js"), ("/style.css", "style.css")]
        assets = try files.map { path, name in
            guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Page") else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Page/\(name)"])
            }
            return (path, Asset(bytes: ByteBuffer(bytes: try Data(contentsOf: url)), contentType: Self.contentType(ofFileNamed: name)))
        }
    }

    /// The media type of a page file, recording or photo, by its extension.
    static func contentType(ofFileNamed name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "mov": "video/quicktime"
        case "mp4", "m4v": "video/mp4"
        case "jpg", "jpeg": "image/jpeg"
        default: "application/octet-stream"
        }
    }
}
