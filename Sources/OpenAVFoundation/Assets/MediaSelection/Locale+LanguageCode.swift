import Foundation

extension Locale {
    /// The locale's language code, for matching languages across tag forms: "en" for "eng",
    /// "en-GB" and "en_US"; the identifier itself when it names no language.
    var languageCodeIdentifier: String {
        language.languageCode?.identifier ?? identifier
    }
}
