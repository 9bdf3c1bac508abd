// Parsing and printing of the date strings metadata items carry.
import Foundation

/// Parses the ISO 8601 forms found in media files and prints dates back in ISO 8601.
enum AVMetadataDateParsing {
    /// Parses "YYYY-MM-DD", optionally followed by "T" or " " and "hh:mm[:ss[.fraction]]", optionally
    /// followed by "Z", "±hh", "±hhmm" or "±hh:mm". A time without a zone is read as UTC.
    /// Returns nil for anything else, including a bare year.
    static func date(from text: String) -> Date? {
        var s = Substring(text.trimmingCharacters(in: .whitespaces))
        guard let year = number(&s, digits: 4), consume(&s, "-"),
              let month = number(&s, digits: 2), consume(&s, "-"),
              let day = number(&s, digits: 2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offsetSeconds = 0
        if let separator = s.first, separator == "T" || separator == " " {
            s.removeFirst()
            guard let h = number(&s, digits: 2), consume(&s, ":"), let m = number(&s, digits: 2),
                  h < 24, m < 60 else { return nil }
            hour = h
            minute = m
            if consume(&s, ":") {
                guard let sec = number(&s, digits: 2), sec <= 60 else { return nil }
                second = sec
                if consume(&s, ".") || consume(&s, ",") {
                    let digits = s.prefix { $0.isASCII && $0.isNumber }
                    guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
                    fraction = value
                    s.removeFirst(digits.count)
                }
            }
            if consume(&s, "Z") || consume(&s, "z") {
                offsetSeconds = 0
            } else if let sign = s.first, sign == "+" || sign == "-" {
                s.removeFirst()
                guard let oh = number(&s, digits: 2), oh <= 23 else { return nil }
                var om = 0
                _ = consume(&s, ":")
                if !s.isEmpty {
                    guard let value = number(&s, digits: 2), value < 60 else { return nil }
                    om = value
                }
                offsetSeconds = (oh * 3600 + om * 60) * (sign == "-" ? -1 : 1)
            }
        }
        guard s.isEmpty else { return nil }

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let base = calendar.date(from: components),
              calendar.component(.day, from: base) == day else { return nil }
        return base.addingTimeInterval(fraction - Double(offsetSeconds))
    }

    /// Prints a date as "YYYY-MM-DDThh:mm:ssZ" in UTC.
    static func iso8601String(from date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))Z"
    }

    private static func number(_ s: inout Substring, digits: Int) -> Int? {
        let prefix = s.prefix(digits)
        guard prefix.count == digits, prefix.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        s.removeFirst(digits)
        return Int(prefix)
    }

    private static func consume(_ s: inout Substring, _ character: Character) -> Bool {
        guard s.first == character else { return false }
        s.removeFirst()
        return true
    }
}
