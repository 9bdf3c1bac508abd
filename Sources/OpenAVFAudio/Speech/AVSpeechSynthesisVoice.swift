import Foundation
import OpenCoreMedia

/// A voice to speak with: one of espeak-ng's voices.
///
/// The identifier is espeak-ng's voice file (`gmw/en-US`, as `espeak-ng -v` takes it); the
/// language is the voice's own language as a BCP 47 tag (`en-US`, `en-GB-x-rp`); the name is
/// espeak-ng's (`English (America)`). Every voice's quality is `.default`.
open class AVSpeechSynthesisVoice: NSObject, @unchecked Sendable {
    /// The voice's language, a BCP 47 tag (`en-US`).
    public let language: String
    /// The voice's identifier: espeak-ng's voice file (`gmw/en-US`).
    public let identifier: String
    /// The voice's name, as espeak-ng gives it.
    public let name: String
    /// The voice's quality: `.default` for every espeak-ng voice.
    public let quality: AVSpeechSynthesisVoiceQuality
    /// The voice's gender, as its espeak-ng voice file declares it.
    public let gender: AVSpeechSynthesisVoiceGender
    /// The languages espeak-ng also speaks with the voice, with their priorities (lower first).
    let otherLanguages: [(language: String, priority: Int)]

    private init(_ voice: EspeakEngine.Voice) {
        language = Self.bcp47(voice.languages.first?.language ?? "")
        identifier = voice.identifier
        name = voice.name
        quality = .default
        gender = AVSpeechSynthesisVoiceGender(rawValue: voice.gender) ?? .unspecified
        otherLanguages = voice.languages.dropFirst().map { (Self.bcp47($0.language), $0.priority) }
        super.init()
    }

    private init(copying voice: AVSpeechSynthesisVoice) {
        language = voice.language
        identifier = voice.identifier
        name = voice.name
        quality = voice.quality
        gender = voice.gender
        otherLanguages = voice.otherLanguages
        super.init()
    }

    /// Every voice espeak-ng has.
    open class func speechVoices() -> [AVSpeechSynthesisVoice] {
        EspeakEngine.shared.voices.map { AVSpeechSynthesisVoice($0) }
    }

    /// The user's language, as a BCP 47 tag: from `LC_ALL`, `LC_MESSAGES` or `LANG`
    /// (`de_DE.UTF-8` → `de-DE`); `en-US` when none is set or it is `C` or `POSIX`.
    open class func currentLanguageCode() -> String {
        let environment = ProcessInfo.processInfo.environment
        let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let tag = String(value.prefix { $0 != "." && $0 != "@" })
        return tag.isEmpty || tag == "C" || tag == "POSIX" ? "en-US" : bcp47(tag.replacingOccurrences(of: "_", with: "-"))
    }

    /// The voice for a BCP 47 language (nil: `currentLanguageCode()`): the voice of that
    /// language, else the voice espeak-ng puts first for it among its other languages, else the
    /// first voice of the language without its region; nil when espeak-ng has none.
    public convenience init?(language languageCode: String?) {
        let code = (languageCode ?? Self.currentLanguageCode()).lowercased()
        let voices = Self.speechVoices()
        let base = String(code.prefix { $0 != "-" })
        guard let voice = voices.first(where: { $0.language.lowercased() == code })
            ?? voices.compactMap({ v in v.otherLanguages.first { $0.language.lowercased() == code }.map { (v, $0.priority) } })
                .min(by: { $0.1 < $1.1 })?.0
            ?? voices.first(where: { $0.language.lowercased().hasPrefix(base + "-") || $0.language.lowercased() == base })
        else { return nil }
        self.init(copying: voice)
    }

    /// The voice with this identifier (espeak-ng's voice file, `gmw/en-US`); nil when there is none.
    public convenience init?(identifier: String) {
        guard let voice = Self.speechVoices().first(where: { $0.identifier == identifier }) else { return nil }
        self.init(copying: voice)
    }

    /// The settings of the buffers `AVSpeechSynthesizer.write(_:toBufferCallback:)` gives for
    /// this voice, for an `AVAudioFile`: 16-bit integer PCM, mono, at espeak-ng's rate.
    public var audioFileSettings: [String: Any] {
        [AVFormatIDKey: NSNumber(value: kAudioFormatLinearPCM), AVSampleRateKey: NSNumber(value: EspeakEngine.shared.sampleRate),
         AVNumberOfChannelsKey: NSNumber(value: 1), AVLinearPCMBitDepthKey: NSNumber(value: 16),
         AVLinearPCMIsFloatKey: NSNumber(value: false), AVLinearPCMIsBigEndianKey: NSNumber(value: false),
         AVLinearPCMIsNonInterleaved: NSNumber(value: false)]
    }

    /// Whether the other object is a voice with the same identifier.
    open override func isEqual(_ object: Any?) -> Bool {
        (object as? AVSpeechSynthesisVoice)?.identifier == identifier
    }

    /// The hash of the identifier.
    open override var hash: Int { identifier.hashValue }

    /// An espeak-ng language (`en-us`, `en-gb-x-rp`) as BCP 47 (`en-US`, `en-GB-x-rp`): a
    /// two-letter region in capitals.
    static func bcp47(_ language: String) -> String {
        let parts = language.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        var privateUse = false
        return parts.enumerated().map { index, part in
            if part.lowercased() == "x" { privateUse = true }
            if index > 0, !privateUse, part.count == 2, part.allSatisfy(\.isLetter) { return part.uppercased() }
            return index == 0 ? part.lowercased() : part
        }.joined(separator: "-")
    }
}
