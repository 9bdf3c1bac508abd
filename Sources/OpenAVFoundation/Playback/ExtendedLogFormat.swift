import Foundation

/// The W3C Extended Log File Format that the access and error logs are written in: the
/// `#Version`, `#Software`, `#Date` and `#Fields` directives, then one line per event, each
/// field a word, a quoted phrase or "-".
struct ExtendedLogFormat {
    private let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }()

    /// A date in `format` (UTC), or "-".
    func stamp(_ date: Date?, _ format: String) -> String {
        guard let date else { return "-" }
        dateFormatter.dateFormat = format
        return dateFormatter.string(from: date)
    }

    /// A text field: quoted when it has spaces (its own quotes made single), "-" when empty.
    func field(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "-" }
        return text.contains(" ") ? "\"\(text.replacingOccurrences(of: "\"", with: "'"))\"" : text
    }

    /// The log: the directives naming `fields`, then `rows`.
    func data(fields: [String], rows: [[String]]) -> Data {
        let lines = ["#Version: 1.0", "#Software: OpenAVFoundation", "#Date: \(stamp(Date(), "dd-MMM-yyyy HH:mm:ss"))",
                     "#Fields: " + fields.joined(separator: " ")] + rows.map { $0.joined(separator: " ") }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }
}
