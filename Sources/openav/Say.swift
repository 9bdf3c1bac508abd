import ArgumentParser
import Foundation
import OpenAVFoundation

/// `openav say "text"`: speaks text with `AVSpeechSynthesizer` (espeak-ng), out loud or to a file.
struct Say: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Speak text out loud, or write it to a sound file, with AVSpeechSynthesizer (espeak-ng).",
        discussion: "Voices are espeak-ng's: --voice takes a voice identifier (gmw/en-US) or a language (en-US, fr)."
    )

    @Argument(help: "The text to speak.")
    var text: String

    @Option(help: "A voice identifier (gmw/en-US, as --list-voices shows) or a language (en-US); the user's language by default.")
    var voice: String?

    @Option(help: "The speaking rate on Apple's scale: 0 (slowest, 80 words a minute) to 1 (fastest, 450); 0.5 (175) by default.")
    var rate: Float = AVSpeechUtteranceDefaultSpeechRate

    @Option(help: "Write the speech to this file (.wav, .m4a, .caf, …) instead of speaking it out loud.")
    var output: String?

    @Flag(help: "List the voices (identifier, language, name) and exit.")
    var listVoices = false

    func run() async throws {
        if listVoices {
            for voice in AVSpeechSynthesisVoice.speechVoices() {
                print("\(voice.identifier)\t\(voice.language)\t\(voice.name)")
            }
            return
        }
        let utterance = AVSpeechUtterance(string: text)
        if let voice {
            guard let chosen = AVSpeechSynthesisVoice(identifier: voice) ?? AVSpeechSynthesisVoice(language: voice) else {
                throw CommandFailure("no voice \(voice): see openav say --list-voices")
            }
            utterance.voice = chosen
        }
        guard (AVSpeechUtteranceMinimumSpeechRate...AVSpeechUtteranceMaximumSpeechRate).contains(rate) else {
            throw ValidationError("--rate must be between 0 and 1")
        }
        utterance.rate = rate
        let synthesizer = AVSpeechSynthesizer()
        if let output {
            try await write(utterance, with: synthesizer, to: URL(fileURLWithPath: output))
        } else {
            try await speak(utterance, with: synthesizer)
        }
    }

    /// Writes the utterance's buffers to the file, in the format its extension names.
    private func write(_ utterance: AVSpeechUtterance, with synthesizer: AVSpeechSynthesizer, to url: URL) async throws {
        let voice = utterance.voice ?? AVSpeechSynthesisVoice(language: nil) ?? AVSpeechSynthesisVoice(language: "en")
        var settings = voice?.audioFileSettings ?? [:]
        if url.pathExtension.lowercased() == "m4a" {
            settings = [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: settings[AVSampleRateKey] ?? 22_050, AVNumberOfChannelsKey: 1]
        }
        let file: AVAudioFile
        do {
            file = try AVAudioFile(forWriting: url, settings: settings, commonFormat: .pcmFormatInt16, interleaved: true)
        } catch {
            throw CommandFailure("cannot write \(url.path): \(error.localizedDescription)")
        }
        let failure: (any Error)? = await withCheckedContinuation { continuation in
            nonisolated(unsafe) var failure: (any Error)?
            synthesizer.write(utterance) { buffer in
                guard let buffer = buffer as? AVAudioPCMBuffer else { return }
                if buffer.frameLength == 0 { return continuation.resume(returning: failure) }
                if failure == nil {
                    do { try file.write(from: buffer) } catch { failure = error }
                }
            }
        }
        file.close()
        if let failure { throw CommandFailure("cannot write \(url.path): \(failure.localizedDescription)") }
    }

    /// Speaks the utterance out loud and returns once it was heard.
    private func speak(_ utterance: AVSpeechUtterance, with synthesizer: AVSpeechSynthesizer) async throws {
        final class Ending: AVSpeechSynthesizerDelegate, @unchecked Sendable {
            let done = DispatchSemaphore(value: 0)
            var cancelled = false
            func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance) { done.signal() }
            func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance) {
                cancelled = true
                done.signal()
            }
        }
        let ending = Ending()
        synthesizer.delegate = ending
        synthesizer.speak(utterance)
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                ending.done.wait()
                continuation.resume()
            }
        }
        if ending.cancelled { throw CommandFailure("the speech could not be played: is a sound server (PulseAudio or PipeWire) running?") }
    }
}
