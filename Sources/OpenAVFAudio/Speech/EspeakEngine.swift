import CEspeakNG
import Foundation

/// espeak-ng for the whole process, in its synchronous mode: espeak-ng is not thread-safe, so
/// every call into it goes through this one lock (a synthesis holds it to its end).
///
/// espeak-ng keeps some of its synthesizer's state (the voice source's phase, formant
/// smoothing) from one synthesis to the next and has no call to reset it: the first synthesis
/// of a process gives exactly the samples the `espeak-ng` command gives; later ones of the
/// same text differ in detail, not in length or in what is heard.
final class EspeakEngine: @unchecked Sendable {
    /// One espeak-ng voice, as `espeak_ListVoices` gives it.
    struct Voice {
        let name: String
        /// espeak-ng's voice file (`gmw/en-US`), which `espeak-ng -v` also takes.
        let identifier: String
        /// Its languages, the first its own, each with espeak-ng's priority (lower first).
        let languages: [(language: String, priority: Int)]
        let gender: Int
    }

    /// A word espeak-ng is about to speak: its first code point in the text (0-based) and its
    /// first sample in the synthesis.
    struct WordEvent {
        let codePoint: Int
        let sample: Int
    }

    /// The one engine.
    static let shared = EspeakEngine()

    private let lock = NSLock()
    /// espeak-ng's sample rate (22 050 Hz); 0 when it could not start (no voice data).
    let sampleRate: Int
    /// Every voice espeak-ng has.
    let voices: [Voice]

    /// What the synthesis in progress gives its samples and events to; only set under the lock.
    nonisolated(unsafe) fileprivate static var receiver: ((UnsafeBufferPointer<Int16>, [WordEvent]) -> Bool)?

    private init() {
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
        sampleRate = max(0, Int(rate))
        guard rate > 0 else {
            voices = []
            return
        }
        espeak_SetSynthCallback(espeakSynthCallback)
        var list: [Voice] = []
        if var entry = espeak_ListVoices(nil) {
            while let voice = entry.pointee {
                var languages: [(String, Int)] = []
                if var p = voice.pointee.languages {
                    while p.pointee != 0 {
                        let priority = Int(UInt8(bitPattern: p.pointee))
                        let language = String(cString: p + 1)
                        languages.append((language, priority))
                        p += 2 + strlen(p + 1)
                    }
                }
                list.append(Voice(name: voice.pointee.name.map { String(cString: $0) } ?? "",
                                  identifier: voice.pointee.identifier.map { String(cString: $0) } ?? "",
                                  languages: languages, gender: Int(voice.pointee.gender)))
                entry += 1
            }
        }
        voices = list
    }

    /// Synthesizes `text` with the voice `identifier` at `wordsPerMinute` and espeak-ng's
    /// `pitch`, giving `receive` each block of 16-bit samples and the words that start in it as
    /// espeak-ng makes them; `receive` returns false to stop. False when espeak-ng failed or was stopped.
    func synthesize(_ text: String, voice identifier: String, wordsPerMinute: Int, pitch: Int,
                    receive: @escaping (UnsafeBufferPointer<Int16>, [WordEvent]) -> Bool) -> Bool {
        guard sampleRate > 0 else { return false }
        return lock.withLock {
            guard espeak_SetVoiceByName(identifier) == EE_OK else { return false }
            espeak_SetParameter(espeakRATE, Int32(wordsPerMinute), 0)
            espeak_SetParameter(espeakVOLUME, 100, 0)
            espeak_SetParameter(espeakPITCH, Int32(pitch), 0)
            var stopped = false
            Self.receiver = { samples, events in
                if !receive(samples, events) { stopped = true }
                return !stopped
            }
            defer { Self.receiver = nil }
            let status = text.utf8CString.withUnsafeBufferPointer { chars in
                espeak_Synth(chars.baseAddress, chars.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8 | espeakENDPAUSE), nil, nil)
            }
            espeak_Synchronize()
            return status == EE_OK && !stopped
        }
    }
}

/// espeak-ng's synth callback: hands the block and its word events to the synthesis in
/// progress; returns 1 (abort) when it asked to stop.
private func espeakSynthCallback(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let receiver = EspeakEngine.receiver else { return 1 }
    var words: [EspeakEngine.WordEvent] = []
    if var event = events {
        while event.pointee.type != espeakEVENT_LIST_TERMINATED {
            if event.pointee.type == espeakEVENT_WORD {
                words.append(.init(codePoint: Int(event.pointee.text_position) - 1, sample: Int(event.pointee.sample)))
            }
            event += 1
        }
    }
    let samples = UnsafeBufferPointer(start: wav, count: wav == nil ? 0 : Int(max(0, count)))
    return receiver(samples, words) ? 0 : 1
}
