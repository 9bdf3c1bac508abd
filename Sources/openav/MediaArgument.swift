import Foundation

extension URL {
    /// The media a command-line argument names: an `http://` or `https://` URL as it is (a
    /// file on a web server, or an HTTP Live Streaming playlist), anything else a local path.
    init(mediaArgument argument: String) {
        let lowered = argument.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), let url = URL(string: argument) {
            self = url
        } else {
            self.init(fileURLWithPath: argument)
        }
    }
}
